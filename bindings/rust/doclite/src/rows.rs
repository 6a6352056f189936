//! Blocks of query rows as DocLite hands them to bindings, decoded straight into the
//! caller's serde types.
//!
//! A block is `CBLResultSet_NextRowsMarshal`'s: up to [`ROWS_PER_BLOCK`] rows in the
//! binary form of Python's `marshal` module — a list of rows, each a list of the mask
//! of its MISSING columns and then its values: `N` (null), `T`/`F`, `i` (a little-endian
//! `i32`), `l` (a long: a signed count of base-2¹⁵ digits, least significant first), `g`
//! (a little-endian `f64`), `u` (a `u32` length and UTF-8 bytes), `[` (a `u32` count and
//! the items), `{` (key and value pairs up to a `0`). Strings are bytes with their length,
//! numbers are binary: nothing is parsed or unescaped, and a `&str` borrows the block.
//! DocLite writes this form faster than the same block as JSON text
//! (`CBLResultSet_NextRowsJSON`), which the crate read before.
//!
//! When a block arrives it is checked once, end to end, and the place of every row's
//! values noted; a [`Row`](crate::Row) is then a reference to the shared block and its
//! place in it, and a value is decoded when it is asked for, by serde, into the type
//! asked for. JSON values (`serde_json::Value`) are made only for the calls that return
//! them.

use std::borrow::Cow;
use std::fmt;
use std::ptr::NonNull;
use std::sync::Arc;

use serde::de::value::BorrowedStrDeserializer;
use serde::de::{self, DeserializeSeed, Deserializer, IntoDeserializer, Unexpected, Visitor};
use serde_json::{Map, Number, Value};

use doclite_sys as sys;

use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, loaded};

/// How many rows one call into the library reads.
pub(crate) const ROWS_PER_BLOCK: u32 = 512;

/// Containers nested deeper than this are refused as malformed (DocLite keeps documents to
/// 128 levels; a query's result may nest them a little deeper).
const MAX_DEPTH: usize = 1024;

/// One block of rows, as DocLite wrote it, with the place of each row's values.
pub(crate) struct Block {
    /// The block, allocated by DocLite with `malloc`, freed on drop.
    pointer: NonNull<u8>,
    length: usize,
    /// The column titles of the rows.
    columns: Arc<[String]>,
    /// Where each value starts: `columns.len()` offsets per row, row after row.
    offsets: Vec<usize>,
    /// Each row's mask of MISSING columns.
    masks: Vec<u64>,
}

// Safety: the bytes are never written after the block is made, and freed once, on drop.
unsafe impl Send for Block {}
unsafe impl Sync for Block {}

impl Drop for Block {
    fn drop(&mut self) {
        // Safety: DocLite allocated the block with malloc and gave it to us (header: "free with free()").
        unsafe { libc::free(self.pointer.as_ptr().cast()) }
    }
}

impl Block {
    /// Reads the next block of at most [`ROWS_PER_BLOCK`] rows (none after the last row).
    ///
    /// # Safety
    /// `results` is a live result set.
    pub(crate) unsafe fn read(results: *mut sys::CBLResultSet, columns: &Arc<[String]>) -> Result<Block> {
        let mut length = 0usize;
        let (pointer, error) =
            ffi::with_error(|error| loaded().CBLResultSet_NextRowsMarshal(results, ROWS_PER_BLOCK, &mut length, error));
        let Some(pointer) = NonNull::new(pointer.cast::<u8>()) else {
            return Err(ffi::failure(&error));
        };
        let mut block = Block { pointer, length, columns: Arc::clone(columns), offsets: Vec::new(), masks: Vec::new() };
        block.index().map_err(|error| Error::new(ErrorKind::Other, error.message))?;
        Ok(block)
    }

    fn bytes(&self) -> &[u8] {
        // Safety: DocLite gave `length` bytes at `pointer`, which live as long as `self`.
        unsafe { std::slice::from_raw_parts(self.pointer.as_ptr(), self.length) }
    }

    /// Checks the whole block and notes where each row's values and mask are.
    fn index(&mut self) -> Result<(), DecodeError> {
        let columns = self.columns.len();
        let mut offsets = Vec::new();
        let mut masks = Vec::new();
        let mut reader = Reader { bytes: self.bytes(), position: 0 };
        reader.expect(b'[')?;
        let rows = reader.u32()? as usize;
        // (A count is only believed as far as the bytes could hold it.)
        masks.reserve(rows.min(reader.bytes.len() / 8));
        offsets.reserve((rows * columns).min(reader.bytes.len()));
        for _ in 0..rows {
            let start = reader.position;
            reader.expect(b'[')?;
            if reader.u32()? as usize != columns + 1 {
                return Err(DecodeError::malformed(start, &format!("a row of other than {columns} columns and its mask")));
            }
            let mask_at = reader.position;
            masks.push(match reader.integer()? {
                Integer::Unsigned(mask) => mask,
                _ => return Err(DecodeError::malformed(mask_at, "a row's mask of MISSING columns that is not an integer")),
            });
            for _ in 0..columns {
                offsets.push(reader.position);
                reader.skip(0)?;
            }
        }
        if reader.position != reader.bytes.len() {
            return Err(DecodeError::malformed(reader.position, "bytes after the last row"));
        }
        self.offsets = offsets;
        self.masks = masks;
        Ok(())
    }

    /// The number of rows.
    pub(crate) fn rows(&self) -> usize {
        self.masks.len()
    }

    pub(crate) fn columns(&self) -> &Arc<[String]> {
        &self.columns
    }

    /// Row `row`'s mask of MISSING columns.
    pub(crate) fn mask(&self, row: usize) -> u64 {
        self.masks[row]
    }

    /// Whether column `column` of row `row` is MISSING (known for the first 63 columns).
    pub(crate) fn is_missing(&self, row: usize, column: usize) -> bool {
        column < 64 && self.masks[row] >> column & 1 == 1
    }

    /// The value of column `column` of row `row`, as serde input.
    pub(crate) fn value(&self, row: usize, column: usize) -> ValueDeserializer<'_> {
        ValueDeserializer { reader: Reader { bytes: self.bytes(), position: self.offsets[row * self.columns.len() + column] } }
    }

    /// The value of column `column` of row `row` as JSON (MISSING as null).
    pub(crate) fn json_value(&self, row: usize, column: usize) -> Value {
        let mut reader = self.value(row, column).reader;
        // (The block was checked whole when it arrived.)
        reader.json_value().unwrap_or(Value::Null)
    }

    /// Row `row` as serde input: a map of its valued columns by title, or the sequence of
    /// its values. An error from a column's value names the column.
    pub(crate) fn row(&self, row: usize) -> RowDeserializer<'_> {
        RowDeserializer { block: self, row }
    }
}

/// Why a value did not decode into the type asked for (or, never expected, why a block is
/// malformed), and the column it happened in.
#[derive(Debug)]
pub(crate) struct DecodeError {
    pub(crate) message: String,
    /// The row's column whose value failed, when a column's did.
    pub(crate) column: Option<usize>,
}

impl DecodeError {
    fn malformed(position: usize, what: &str) -> DecodeError {
        DecodeError {
            message: format!("DocLite's block of rows is malformed: {what} at byte {position} (a bug in DocLite)"),
            column: None,
        }
    }

    /// The error, noted as column `column`'s unless an inner column was noted already.
    fn in_column(mut self, column: usize) -> DecodeError {
        self.column.get_or_insert(column);
        self
    }
}

impl fmt::Display for DecodeError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(&self.message)
    }
}

impl std::error::Error for DecodeError {}

impl de::Error for DecodeError {
    fn custom<T: fmt::Display>(message: T) -> Self {
        DecodeError { message: message.to_string(), column: None }
    }
}

/// An integer of the block.
enum Integer {
    Unsigned(u64),
    Negative(i64),
    /// Beyond 64 bits (DocLite writes none): read as JSON reads it, as a double.
    Wide(f64),
}

/// A position in a block.
#[derive(Clone)]
struct Reader<'de> {
    bytes: &'de [u8],
    position: usize,
}

impl<'de> Reader<'de> {
    fn malformed(&self, what: &str) -> DecodeError {
        DecodeError::malformed(self.position, what)
    }

    fn peek(&self) -> Result<u8, DecodeError> {
        self.bytes.get(self.position).copied().ok_or_else(|| self.malformed("the end of the block"))
    }

    fn byte(&mut self) -> Result<u8, DecodeError> {
        let byte = self.peek()?;
        self.position += 1;
        Ok(byte)
    }

    fn expect(&mut self, tag: u8) -> Result<(), DecodeError> {
        if self.byte()? != tag {
            self.position -= 1;
            return Err(self.malformed(&format!("not the '{}' expected", tag as char)));
        }
        Ok(())
    }

    fn take(&mut self, count: usize) -> Result<&'de [u8], DecodeError> {
        let bytes = self.position.checked_add(count).and_then(|end| self.bytes.get(self.position..end));
        let bytes = bytes.ok_or_else(|| self.malformed("the end of the block"))?;
        self.position += count;
        Ok(bytes)
    }

    fn array<const N: usize>(&mut self) -> Result<[u8; N], DecodeError> {
        Ok(self.take(N)?.try_into().expect("N bytes"))
    }

    fn u32(&mut self) -> Result<u32, DecodeError> {
        Ok(u32::from_le_bytes(self.array()?))
    }

    /// A long's digits, after its `l`.
    fn long(&mut self) -> Result<Integer, DecodeError> {
        let count = i32::from_le_bytes(self.array()?);
        let digits = count.unsigned_abs() as usize;
        if digits > 8 {
            return Err(self.malformed("an integer of more than 120 bits"));
        }
        let mut magnitude = 0u128;
        for (place, digit) in self.take(digits * 2)?.chunks_exact(2).enumerate() {
            magnitude |= u128::from(u16::from_le_bytes([digit[0], digit[1]]) & 0x7FFF) << (15 * place);
        }
        Ok(match (count < 0, u64::try_from(magnitude)) {
            (false, Ok(value)) => Integer::Unsigned(value),
            (true, _) if magnitude == 0 => Integer::Unsigned(0),
            (true, _) if magnitude <= 1 << 63 => Integer::Negative((magnitude as i128).wrapping_neg() as i64),
            (negative, _) => Integer::Wide(if negative { -(magnitude as f64) } else { magnitude as f64 }),
        })
    }

    /// An integer value (`i` or `l`).
    fn integer(&mut self) -> Result<Integer, DecodeError> {
        match self.byte()? {
            b'i' => Ok(integer(i64::from(i32::from_le_bytes(self.array()?)))),
            b'l' => self.long(),
            _ => {
                self.position -= 1;
                Err(self.malformed("not an integer"))
            }
        }
    }

    fn f64(&mut self) -> Result<f64, DecodeError> {
        Ok(f64::from_le_bytes(self.array()?))
    }

    /// A string's bytes, after its `u`.
    fn string_bytes(&mut self) -> Result<&'de [u8], DecodeError> {
        let length = self.u32()? as usize;
        self.take(length)
    }

    /// A string, after its `u`: borrowed, or repaired when not UTF-8 (as DocLite repairs its JSON).
    fn string(&mut self) -> Result<Cow<'de, str>, DecodeError> {
        let bytes = self.string_bytes()?;
        Ok(match std::str::from_utf8(bytes) {
            Ok(text) => Cow::Borrowed(text),
            Err(_) => String::from_utf8_lossy(bytes),
        })
    }

    /// A key of a dictionary: a string.
    fn key(&mut self) -> Result<Cow<'de, str>, DecodeError> {
        self.expect(b'u')?;
        self.string()
    }

    /// Moves past one value, checking it.
    fn skip(&mut self, depth: usize) -> Result<(), DecodeError> {
        if depth > MAX_DEPTH {
            return Err(self.malformed(&format!("containers nested deeper than {MAX_DEPTH} levels")));
        }
        match self.byte()? {
            b'N' | b'T' | b'F' => {}
            b'i' => {
                self.take(4)?;
            }
            b'g' => {
                self.take(8)?;
            }
            b'l' => {
                self.long()?;
            }
            b'u' => {
                self.string_bytes()?;
            }
            b'[' => {
                for _ in 0..self.u32()? {
                    self.skip(depth + 1)?;
                }
            }
            b'{' => {
                while self.peek()? != b'0' {
                    self.key()?;
                    self.skip(depth + 1)?;
                }
                self.position += 1;
            }
            _ => {
                self.position -= 1;
                return Err(self.malformed("an unknown type code"));
            }
        }
        Ok(())
    }

    /// The next value as JSON.
    fn json_value(&mut self) -> Result<Value, DecodeError> {
        Ok(match self.byte()? {
            b'N' => Value::Null,
            b'T' => Value::Bool(true),
            b'F' => Value::Bool(false),
            b'i' | b'l' => {
                self.position -= 1;
                match self.integer()? {
                    Integer::Unsigned(value) => Value::from(value),
                    Integer::Negative(value) => Value::from(value),
                    Integer::Wide(value) => Number::from_f64(value).map_or(Value::Null, Value::Number),
                }
            }
            b'g' => Number::from_f64(self.f64()?).map_or(Value::Null, Value::Number),
            b'u' => Value::String(self.string()?.into_owned()),
            b'[' => {
                let count = self.u32()? as usize;
                let mut items = Vec::with_capacity(count.min(self.bytes.len() - self.position));
                for _ in 0..count {
                    items.push(self.json_value()?);
                }
                Value::Array(items)
            }
            b'{' => {
                let mut members = Map::new();
                while self.peek()? != b'0' {
                    let key = self.key()?.into_owned();
                    members.insert(key, self.json_value()?);
                }
                self.position += 1;
                Value::Object(members)
            }
            _ => {
                self.position -= 1;
                return Err(self.malformed("an unknown type code"));
            }
        })
    }

    /// What the value here is, for an error message.
    fn unexpected(&self) -> Unexpected<'de> {
        let mut ahead = self.clone();
        let damaged = Unexpected::Other("a damaged value");
        match ahead.peek() {
            Ok(b'N') => Unexpected::Unit,
            Ok(b'T') => Unexpected::Bool(true),
            Ok(b'F') => Unexpected::Bool(false),
            Ok(b'i' | b'l') => match ahead.integer() {
                Ok(Integer::Unsigned(value)) => Unexpected::Unsigned(value),
                Ok(Integer::Negative(value)) => Unexpected::Signed(value),
                Ok(Integer::Wide(value)) => Unexpected::Float(value),
                Err(_) => damaged,
            },
            Ok(b'g') => {
                ahead.position += 1;
                ahead.f64().map_or(damaged, Unexpected::Float)
            }
            Ok(b'u') => {
                ahead.position += 1;
                match ahead.string() {
                    Ok(Cow::Borrowed(text)) => Unexpected::Str(text),
                    _ => Unexpected::Other("string"),
                }
            }
            Ok(b'[') => Unexpected::Seq,
            Ok(b'{') => Unexpected::Map,
            _ => damaged,
        }
    }
}

/// An `i32` of the block as an [`Integer`].
fn integer(value: i64) -> Integer {
    match u64::try_from(value) {
        Ok(value) => Integer::Unsigned(value),
        Err(_) => Integer::Negative(value),
    }
}

/// One value of a block as serde input, read as `serde_json::Value` reads the same JSON:
/// a non-negative integer as `u64`, a negative one as `i64`, a double as `f64` (a
/// non-finite one, which JSON has not, as null), a string borrowed from the block.
pub(crate) struct ValueDeserializer<'de> {
    reader: Reader<'de>,
}

/// serde input for the value at `reader`'s position, moving it past the value.
struct Cursor<'r, 'de> {
    reader: &'r mut Reader<'de>,
}

impl<'de> Deserializer<'de> for ValueDeserializer<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DecodeError> {
        Cursor { reader: &mut self.reader }.deserialize_any(visitor)
    }

    fn deserialize_option<V: Visitor<'de>>(mut self, visitor: V) -> Result<V::Value, DecodeError> {
        Cursor { reader: &mut self.reader }.deserialize_option(visitor)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        mut self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        Cursor { reader: &mut self.reader }.deserialize_enum(name, variants, visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier ignored_any
    }
}

impl<'r, 'de> Deserializer<'de> for Cursor<'r, 'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let reader = self.reader;
        match reader.byte()? {
            b'N' => visitor.visit_unit(),
            b'T' => visitor.visit_bool(true),
            b'F' => visitor.visit_bool(false),
            b'i' => match integer(i64::from(i32::from_le_bytes(reader.array()?))) {
                Integer::Unsigned(value) => visitor.visit_u64(value),
                Integer::Negative(value) => visitor.visit_i64(value),
                Integer::Wide(value) => visitor.visit_f64(value),
            },
            b'l' => match reader.long()? {
                Integer::Unsigned(value) => visitor.visit_u64(value),
                Integer::Negative(value) => visitor.visit_i64(value),
                Integer::Wide(value) => visitor.visit_f64(value),
            },
            b'g' => match reader.f64()? {
                value if value.is_finite() => visitor.visit_f64(value),
                _ => visitor.visit_unit(),
            },
            b'u' => match reader.string()? {
                Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
                Cow::Owned(text) => visitor.visit_string(text),
            },
            b'[' => {
                let count = reader.u32()? as usize;
                let mut items = Items { reader, remaining: count };
                let value = visitor.visit_seq(&mut items)?;
                match items.remaining {
                    0 => Ok(value),
                    _ => Err(de::Error::invalid_length(count, &"fewer elements in array")),
                }
            }
            b'{' => {
                let mut members = Members { reader, read: 0 };
                let value = visitor.visit_map(&mut members)?;
                let (reader, read) = (members.reader, members.read);
                let mut remaining = 0;
                while reader.peek()? != b'0' {
                    reader.key()?;
                    reader.skip(0)?;
                    remaining += 1;
                }
                reader.position += 1;
                match remaining {
                    0 => Ok(value),
                    _ => Err(de::Error::invalid_length(read + remaining, &"fewer elements in map")),
                }
            }
            _ => {
                reader.position -= 1;
                Err(reader.malformed("an unknown type code"))
            }
        }
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        if self.reader.peek()? == b'N' {
            self.reader.position += 1;
            visitor.visit_none()
        } else {
            visitor.visit_some(self)
        }
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    /// As `serde_json::Value`: a string is a unit variant, a map of one member the variant
    /// named by its key holding its value.
    fn deserialize_enum<V: Visitor<'de>>(
        self,
        _name: &'static str,
        _variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        let reader = self.reader;
        match reader.peek()? {
            b'u' => {
                reader.position += 1;
                let variant = reader.string()?;
                visitor.visit_enum(Variant { reader, variant, has_value: false })
            }
            b'{' => {
                let mut ahead = reader.clone();
                ahead.position += 1;
                let single = ahead.peek()? != b'0' && {
                    ahead.key()?;
                    ahead.skip(0)?;
                    ahead.peek()? == b'0'
                };
                if !single {
                    return Err(de::Error::invalid_value(Unexpected::Map, &"map with a single key"));
                }
                reader.position += 1;
                let variant = reader.key()?;
                let value = visitor.visit_enum(Variant { reader: &mut *reader, variant, has_value: true })?;
                reader.expect(b'0')?;
                Ok(value)
            }
            _ => Err(de::Error::invalid_type(reader.unexpected(), &"string or map")),
        }
    }

    fn deserialize_ignored_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.reader.skip(0)?;
        visitor.visit_unit()
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf unit
        unit_struct seq tuple tuple_struct map struct identifier
    }
}

/// The items of an array.
struct Items<'r, 'de> {
    reader: &'r mut Reader<'de>,
    remaining: usize,
}

impl<'r, 'de> de::SeqAccess<'de> for Items<'r, 'de> {
    type Error = DecodeError;

    fn next_element_seed<T: DeserializeSeed<'de>>(&mut self, seed: T) -> Result<Option<T::Value>, DecodeError> {
        if self.remaining == 0 {
            return Ok(None);
        }
        self.remaining -= 1;
        seed.deserialize(Cursor { reader: &mut *self.reader }).map(Some)
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining)
    }
}

/// The members of a dictionary (its closing `0` is left for the caller).
struct Members<'r, 'de> {
    reader: &'r mut Reader<'de>,
    read: usize,
}

impl<'r, 'de> de::MapAccess<'de> for Members<'r, 'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        if self.reader.peek()? == b'0' {
            return Ok(None);
        }
        self.read += 1;
        let key = self.reader.key()?;
        seed.deserialize(Key { key }).map(Some)
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        seed.deserialize(Cursor { reader: &mut *self.reader })
    }
}

/// A dictionary's key, read as `serde_json::Value` reads one: a string, or an integer
/// when an integer is asked for and the string is one.
struct Key<'de> {
    key: Cow<'de, str>,
}

macro_rules! integer_key {
    ($($method:ident => $visit:ident,)*) => {$(
        fn $method<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
            match (self.key.parse(), self.key) {
                (Ok(integer), _) => visitor.$visit(integer),
                (Err(_), Cow::Borrowed(text)) => visitor.visit_borrowed_str(text),
                (Err(_), Cow::Owned(text)) => visitor.visit_string(text),
            }
        }
    )*};
}

impl<'de> Deserializer<'de> for Key<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        match self.key {
            Cow::Borrowed(text) => visitor.visit_borrowed_str(text),
            Cow::Owned(text) => visitor.visit_string(text),
        }
    }

    integer_key! {
        deserialize_i8 => visit_i8, deserialize_i16 => visit_i16, deserialize_i32 => visit_i32,
        deserialize_i64 => visit_i64, deserialize_i128 => visit_i128, deserialize_u8 => visit_u8,
        deserialize_u16 => visit_u16, deserialize_u32 => visit_u32, deserialize_u64 => visit_u64,
        deserialize_u128 => visit_u128,
    }

    fn deserialize_option<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_some(self)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    fn deserialize_enum<V: Visitor<'de>>(
        self,
        name: &'static str,
        variants: &'static [&'static str],
        visitor: V,
    ) -> Result<V::Value, DecodeError> {
        match self.key {
            Cow::Borrowed(text) => BorrowedStrDeserializer::new(text).deserialize_enum(name, variants, visitor),
            Cow::Owned(text) => text.into_deserializer().deserialize_enum(name, variants, visitor),
        }
    }

    serde::forward_to_deserialize_any! {
        bool f32 f64 char str string bytes byte_buf unit unit_struct seq tuple tuple_struct map struct
        identifier ignored_any
    }
}

/// An enum's variant: its name, and its value when it was a map's member.
struct Variant<'r, 'de> {
    reader: &'r mut Reader<'de>,
    variant: Cow<'de, str>,
    has_value: bool,
}

impl<'r, 'de> de::EnumAccess<'de> for Variant<'r, 'de> {
    type Error = DecodeError;
    type Variant = Self;

    fn variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<(S::Value, Self), DecodeError> {
        let name = match &self.variant {
            Cow::Borrowed(text) => seed.deserialize(BorrowedStrDeserializer::new(text))?,
            Cow::Owned(text) => seed.deserialize(text.as_str().into_deserializer())?,
        };
        Ok((name, self))
    }
}

impl<'r, 'de> de::VariantAccess<'de> for Variant<'r, 'de> {
    type Error = DecodeError;

    fn unit_variant(self) -> Result<(), DecodeError> {
        if self.has_value {
            de::Deserialize::deserialize(Cursor { reader: self.reader })
        } else {
            Ok(())
        }
    }

    fn newtype_variant_seed<S: DeserializeSeed<'de>>(self, seed: S) -> Result<S::Value, DecodeError> {
        if self.has_value {
            seed.deserialize(Cursor { reader: self.reader })
        } else {
            Err(de::Error::invalid_type(Unexpected::UnitVariant, &"newtype variant"))
        }
    }

    fn tuple_variant<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        if self.has_value {
            Cursor { reader: self.reader }.deserialize_seq(visitor)
        } else {
            Err(de::Error::invalid_type(Unexpected::UnitVariant, &"tuple variant"))
        }
    }

    fn struct_variant<V: Visitor<'de>>(self, _fields: &'static [&'static str], visitor: V) -> Result<V::Value, DecodeError> {
        if self.has_value {
            Cursor { reader: self.reader }.deserialize_map(visitor)
        } else {
            Err(de::Error::invalid_type(Unexpected::UnitVariant, &"struct variant"))
        }
    }
}

/// A row as serde input: a map of its valued columns by title (MISSING columns left out),
/// or the sequence of its values (MISSING as null) for a tuple or a vector.
pub(crate) struct RowDeserializer<'de> {
    block: &'de Block,
    row: usize,
}

/// The columns of a row, in order, as serde input: `valued_only` leaves MISSING ones out.
struct Columns<'de> {
    block: &'de Block,
    row: usize,
    next: usize,
    read: usize,
    valued_only: bool,
}

impl<'de> Columns<'de> {
    /// Moves to the next column to read, if any is left.
    fn advance(&mut self) -> Option<usize> {
        while self.next < self.block.columns.len() {
            let column = self.next;
            self.next += 1;
            if !(self.valued_only && self.block.is_missing(self.row, column)) {
                return Some(column);
            }
        }
        None
    }

    fn remaining(&self) -> usize {
        let rest = self.next..self.block.columns.len();
        match self.valued_only {
            true => rest.filter(|&column| !self.block.is_missing(self.row, column)).count(),
            false => rest.len(),
        }
    }

    /// Column `column`'s value into `seed`, an error noting the column.
    fn read<S: DeserializeSeed<'de>>(&self, column: usize, seed: S) -> Result<S::Value, DecodeError> {
        let mut reader = self.block.value(self.row, column).reader;
        seed.deserialize(Cursor { reader: &mut reader }).map_err(|error| error.in_column(column))
    }

    /// The error when the visitor stopped before the last column, as serde's own
    /// `SeqDeserializer` and `MapDeserializer` report it.
    fn end(&self, what: &str) -> Result<(), DecodeError> {
        match self.remaining() {
            0 => Ok(()),
            remaining => Err(de::Error::invalid_length(self.read + remaining, &InCollection(self.read, what))),
        }
    }
}

/// "N elements in sequence" / "N elements in map", serde's expectation for a short read.
struct InCollection<'w>(usize, &'w str);

impl de::Expected for InCollection<'_> {
    fn fmt(&self, formatter: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self.0 {
            1 => write!(formatter, "1 element in {}", self.1),
            count => write!(formatter, "{count} elements in {}", self.1),
        }
    }
}

impl<'de> de::SeqAccess<'de> for Columns<'de> {
    type Error = DecodeError;

    fn next_element_seed<S: DeserializeSeed<'de>>(&mut self, seed: S) -> Result<Option<S::Value>, DecodeError> {
        match self.advance() {
            Some(column) => {
                self.read += 1;
                self.read(column, seed).map(Some)
            }
            None => Ok(None),
        }
    }

    fn size_hint(&self) -> Option<usize> {
        Some(self.remaining())
    }
}

impl<'de> de::MapAccess<'de> for Columns<'de> {
    type Error = DecodeError;

    fn next_key_seed<K: DeserializeSeed<'de>>(&mut self, seed: K) -> Result<Option<K::Value>, DecodeError> {
        match self.advance() {
            Some(column) => {
                self.read += 1;
                seed.deserialize(BorrowedStrDeserializer::new(self.block.columns[column].as_str())).map(Some)
            }
            None => Ok(None),
        }
    }

    fn next_value_seed<V: DeserializeSeed<'de>>(&mut self, seed: V) -> Result<V::Value, DecodeError> {
        // (`next` is one past the column whose key was read.)
        self.read(self.next - 1, seed)
    }
}

impl<'de> RowDeserializer<'de> {
    fn columns(&self, valued_only: bool) -> Columns<'de> {
        Columns { block: self.block, row: self.row, next: 0, read: 0, valued_only }
    }

    fn visit_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let mut columns = self.columns(false);
        let value = visitor.visit_seq(&mut columns)?;
        columns.end("sequence")?;
        Ok(value)
    }
}

impl<'de> Deserializer<'de> for RowDeserializer<'de> {
    type Error = DecodeError;

    fn deserialize_any<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        let mut columns = self.columns(true);
        let value = visitor.visit_map(&mut columns)?;
        columns.end("map")?;
        Ok(value)
    }

    fn deserialize_seq<V: Visitor<'de>>(self, visitor: V) -> Result<V::Value, DecodeError> {
        self.visit_seq(visitor)
    }

    fn deserialize_tuple<V: Visitor<'de>>(self, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.visit_seq(visitor)
    }

    fn deserialize_tuple_struct<V: Visitor<'de>>(self, _name: &'static str, _len: usize, visitor: V) -> Result<V::Value, DecodeError> {
        self.visit_seq(visitor)
    }

    fn deserialize_newtype_struct<V: Visitor<'de>>(self, _name: &'static str, visitor: V) -> Result<V::Value, DecodeError> {
        visitor.visit_newtype_struct(self)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct map struct enum identifier ignored_any
    }
}
