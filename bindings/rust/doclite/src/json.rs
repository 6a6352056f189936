//! Serde values as the JSON DocLite reads, refusing what it would not keep exactly:
//! serde_json writes NaN and infinity as null, and DocLite reads an integer wider than it
//! keeps as a double. The check rides along the one serialization a call makes (a
//! serializer wrapping serde_json's), so it costs no second pass.

use std::cell::RefCell;
use std::fmt::Display;

use serde::ser::{self, Serialize, Serializer};

use crate::error::{Error, ErrorKind, Result};

/// Where the JSON goes, which sets the widest integer kept exactly.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum Target {
    /// A document's properties (or a blob's metadata): integers from `i64::MIN` to `u64::MAX`.
    Document,
    /// A query's parameters or literals: integers of `i64` (a wider one would become a double).
    Query,
}

/// Serializes `value` with `write` (`serde_json::to_string`, `to_writer`, `to_value`). A
/// number DocLite would not keep exactly is an [`ErrorKind::InvalidParameter`] error naming
/// `what`, where the number is and why; another serde failure is an [`ErrorKind::Conversion`]
/// error naming `what`.
pub(crate) fn write<T, R>(
    value: &T,
    what: impl Display,
    target: Target,
    write: impl FnOnce(&Checked<'_, T>) -> serde_json::Result<R>,
) -> Result<R>
where
    T: Serialize + ?Sized,
{
    let check = Check { target, problem: RefCell::new(None) };
    write(&Checked { value, check: &check }).map_err(|error| match check.problem.into_inner() {
        Some((message, path)) => {
            let place: String = path.iter().rev().map(String::as_str).collect();
            let at = if place.is_empty() { String::new() } else { format!(" at {place}") };
            Error::new(ErrorKind::InvalidParameter, format!("{what}{at}: {message}"))
        }
        None => Error::new(ErrorKind::Conversion, format!("{what}: {error}")),
    })
}

/// The state of one checked serialization: the target, and the problem found with the
/// path to it (innermost segment first), gathered as the error unwinds.
struct Check {
    target: Target,
    problem: RefCell<Option<(String, Vec<String>)>>,
}

impl Check {
    /// A serializer's error `E` for the problem `message`, recorded for [`write()`].
    fn fail<E: ser::Error>(&self, message: String) -> E {
        let error = E::custom(&message);
        *self.problem.borrow_mut() = Some((message, Vec::new()));
        error
    }

    /// Passes `result` on; when it failed for a recorded problem, adds the place it failed in.
    fn at<T, E>(&self, result: Result<T, E>, segment: impl FnOnce() -> String) -> Result<T, E> {
        if result.is_err() {
            if let Some((_, path)) = self.problem.borrow_mut().as_mut() {
                path.push(segment());
            }
        }
        result
    }

    /// Checks a float: NaN and infinities are problems.
    fn float<E: ser::Error>(&self, value: f64) -> Result<(), E> {
        if value.is_finite() {
            Ok(())
        } else {
            Err(self.fail(format!("{value} is not a finite number (JSON has no NaN or infinity)")))
        }
    }

    /// Checks the integer `value`, given as an `i128` too (`None`: beyond one), against the target's range.
    fn integer<E: ser::Error>(&self, value: impl Display, wide: Option<i128>) -> Result<(), E> {
        let (max, kept) = match self.target {
            Target::Document => (u64::MAX as i128, "a document keeps"),
            Target::Query => (i64::MAX as i128, "a query keeps exactly"),
        };
        match wide {
            Some(wide) if (i64::MIN as i128..=max).contains(&wide) => Ok(()),
            _ => Err(self.fail(format!("the integer {value} is wider than {kept} ({} to {max})", i64::MIN))),
        }
    }
}

/// A value to serialize with its numbers checked.
pub(crate) struct Checked<'c, T: ?Sized> {
    value: &'c T,
    check: &'c Check,
}

impl<T: Serialize + ?Sized> Serialize for Checked<'_, T> {
    fn serialize<S: Serializer>(&self, serializer: S) -> Result<S::Ok, S::Error> {
        self.value.serialize(CheckedSerializer { inner: serializer, check: self.check })
    }
}

/// A serializer passing everything to `inner`, numbers checked first.
struct CheckedSerializer<'c, S> {
    inner: S,
    check: &'c Check,
}

/// Serializer methods passed on unchanged.
macro_rules! pass_on {
    ($($method:ident($($argument:ident: $type:ty),*);)*) => {$(
        fn $method(self, $($argument: $type),*) -> Result<S::Ok, S::Error> {
            self.inner.$method($($argument),*)
        }
    )*};
}

impl<'c, S: Serializer> Serializer for CheckedSerializer<'c, S> {
    type Ok = S::Ok;
    type Error = S::Error;
    type SerializeSeq = Compound<'c, S::SerializeSeq>;
    type SerializeTuple = Compound<'c, S::SerializeTuple>;
    type SerializeTupleStruct = Compound<'c, S::SerializeTupleStruct>;
    type SerializeTupleVariant = Compound<'c, S::SerializeTupleVariant>;
    type SerializeMap = Compound<'c, S::SerializeMap>;
    type SerializeStruct = Compound<'c, S::SerializeStruct>;
    type SerializeStructVariant = Compound<'c, S::SerializeStructVariant>;

    pass_on! {
        serialize_bool(value: bool);
        serialize_i8(value: i8);
        serialize_i16(value: i16);
        serialize_i32(value: i32);
        serialize_i64(value: i64);
        serialize_u8(value: u8);
        serialize_u16(value: u16);
        serialize_u32(value: u32);
        serialize_char(value: char);
        serialize_str(value: &str);
        serialize_bytes(value: &[u8]);
        serialize_none();
        serialize_unit();
        serialize_unit_struct(name: &'static str);
        serialize_unit_variant(name: &'static str, index: u32, variant: &'static str);
    }

    fn serialize_u64(self, value: u64) -> Result<S::Ok, S::Error> {
        self.check.integer(value, Some(value.into()))?;
        self.inner.serialize_u64(value)
    }

    fn serialize_i128(self, value: i128) -> Result<S::Ok, S::Error> {
        self.check.integer(value, Some(value))?;
        self.inner.serialize_i128(value)
    }

    fn serialize_u128(self, value: u128) -> Result<S::Ok, S::Error> {
        self.check.integer(value, i128::try_from(value).ok())?;
        self.inner.serialize_u128(value)
    }

    fn serialize_f32(self, value: f32) -> Result<S::Ok, S::Error> {
        self.check.float(value.into())?;
        self.inner.serialize_f32(value)
    }

    fn serialize_f64(self, value: f64) -> Result<S::Ok, S::Error> {
        self.check.float(value)?;
        self.inner.serialize_f64(value)
    }

    fn serialize_some<T: Serialize + ?Sized>(self, value: &T) -> Result<S::Ok, S::Error> {
        let value = Checked { value, check: self.check };
        self.inner.serialize_some(&value)
    }

    fn serialize_newtype_struct<T: Serialize + ?Sized>(self, name: &'static str, value: &T) -> Result<S::Ok, S::Error> {
        let value = Checked { value, check: self.check };
        self.inner.serialize_newtype_struct(name, &value)
    }

    fn serialize_newtype_variant<T: Serialize + ?Sized>(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        value: &T,
    ) -> Result<S::Ok, S::Error> {
        let (check, value) = (self.check, Checked { value, check: self.check });
        check.at(self.inner.serialize_newtype_variant(name, index, variant, &value), || format!(".{variant}"))
    }

    fn serialize_seq(self, length: Option<usize>) -> Result<Self::SerializeSeq, S::Error> {
        Ok(Compound::new(self.inner.serialize_seq(length)?, self.check))
    }

    fn serialize_tuple(self, length: usize) -> Result<Self::SerializeTuple, S::Error> {
        Ok(Compound::new(self.inner.serialize_tuple(length)?, self.check))
    }

    fn serialize_tuple_struct(self, name: &'static str, length: usize) -> Result<Self::SerializeTupleStruct, S::Error> {
        Ok(Compound::new(self.inner.serialize_tuple_struct(name, length)?, self.check))
    }

    fn serialize_tuple_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        length: usize,
    ) -> Result<Self::SerializeTupleVariant, S::Error> {
        Ok(Compound::new(self.inner.serialize_tuple_variant(name, index, variant, length)?, self.check))
    }

    fn serialize_map(self, length: Option<usize>) -> Result<Self::SerializeMap, S::Error> {
        Ok(Compound::new(self.inner.serialize_map(length)?, self.check))
    }

    fn serialize_struct(self, name: &'static str, length: usize) -> Result<Self::SerializeStruct, S::Error> {
        Ok(Compound::new(self.inner.serialize_struct(name, length)?, self.check))
    }

    fn serialize_struct_variant(
        self,
        name: &'static str,
        index: u32,
        variant: &'static str,
        length: usize,
    ) -> Result<Self::SerializeStructVariant, S::Error> {
        Ok(Compound::new(self.inner.serialize_struct_variant(name, index, variant, length)?, self.check))
    }

    fn is_human_readable(&self) -> bool {
        self.inner.is_human_readable()
    }
}

/// An array, tuple, map or struct being serialized: each member is checked, and a problem
/// in one is placed by its index or key.
struct Compound<'c, C> {
    inner: C,
    check: &'c Check,
    /// The index of the next member of a sequence.
    index: usize,
}

impl<'c, C> Compound<'c, C> {
    fn new(inner: C, check: &'c Check) -> Self {
        Compound { inner, check, index: 0 }
    }

    /// A member's value, to be serialized checked.
    fn member<'v, T: ?Sized>(&self, value: &'v T) -> Checked<'v, T>
    where
        'c: 'v,
    {
        Checked { value, check: self.check }
    }
}

/// The serde traits of sequences, whose members are placed by their index.
macro_rules! sequence {
    ($($trait:ident::$method:ident;)*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn $method<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
                let index = self.index;
                self.index += 1;
                let value = self.member(value);
                self.check.at(self.inner.$method(&value), || format!("[{index}]"))
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    )*};
}

sequence! {
    SerializeSeq::serialize_element;
    SerializeTuple::serialize_element;
    SerializeTupleStruct::serialize_field;
    SerializeTupleVariant::serialize_field;
}

/// The serde traits of structs, whose members are placed by their name.
macro_rules! structure {
    ($($trait:ident;)*) => {$(
        impl<C: ser::$trait> ser::$trait for Compound<'_, C> {
            type Ok = C::Ok;
            type Error = C::Error;

            fn serialize_field<T: Serialize + ?Sized>(&mut self, key: &'static str, value: &T) -> Result<(), C::Error> {
                let value = self.member(value);
                self.check.at(self.inner.serialize_field(key, &value), || format!(".{key}"))
            }

            fn skip_field(&mut self, key: &'static str) -> Result<(), C::Error> {
                self.inner.skip_field(key)
            }

            fn end(self) -> Result<C::Ok, C::Error> {
                self.inner.end()
            }
        }
    )*};
}

structure! {
    SerializeStruct;
    SerializeStructVariant;
}

impl<C: ser::SerializeMap> ser::SerializeMap for Compound<'_, C> {
    type Ok = C::Ok;
    type Error = C::Error;

    fn serialize_key<T: Serialize + ?Sized>(&mut self, key: &T) -> Result<(), C::Error> {
        let key = self.member(key);
        self.inner.serialize_key(&key)
    }

    fn serialize_value<T: Serialize + ?Sized>(&mut self, value: &T) -> Result<(), C::Error> {
        let value = self.member(value);
        self.inner.serialize_value(&value)
    }

    fn serialize_entry<K: Serialize + ?Sized, V: Serialize + ?Sized>(&mut self, key: &K, value: &V) -> Result<(), C::Error> {
        let (checked_key, checked_value) = (self.member(key), self.member(value));
        let result = self.inner.serialize_entry(&checked_key, &checked_value);
        // (The key is written out only on an error's path.)
        self.check.at(result, || match serde_json::to_value(key) {
            Ok(serde_json::Value::String(key)) => format!(".{key}"),
            Ok(key) => format!(".{key}"),
            Err(_) => ".?".to_owned(),
        })
    }

    fn end(self) -> Result<C::Ok, C::Error> {
        self.inner.end()
    }
}
