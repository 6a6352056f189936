//! [`PredicateQueryBuilder`]: Couchbase Lite 1.x's query builder.

use std::ffi::{c_char, c_int, CString};

use serde::Serialize;
use serde_json::Value;

use doclite_sys as sys;

use crate::collection::Collection;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, handle, loaded, owned_string, Handle};
use crate::json::{self, Target};
use crate::query::Query;

/// Couchbase Lite 1.x's `CBLQueryBuilder`: a query given as a predicate in Apple's format,
/// the values to select (key paths such as `address.city` or `tags.@count`, expressions
/// such as `average(price)`) and sort descriptors (`-date` for descending), built once and
/// run many times with a context giving the predicate's `$VARIABLES`.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-predicate-{}", std::process::id()));
/// # let db = doclite::Database::open("blog", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use doclite::PredicateQueryBuilder;
/// use serde_json::json;
/// let posts = db.default_collection()?;
/// posts.save_many([("p1", json!({"type": "post", "title": "Hello", "date": "2014-12-11", "tags": ["iOS"]}))])?;
/// let builder = PredicateQueryBuilder::new(&posts, &["title", "date"], "type == 'post' AND tags CONTAINS $TAG", &["-date"])?;
/// let query = builder.create_query(&json!({"TAG": "iOS"}))?;
/// let values: Vec<serde_json::Value> = query.execute()?.map(|row| row.map(|row| row.value())).collect::<Result<_, _>>()?;
/// assert_eq!(values, [json!(["Hello", "2014-12-11"])]);
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
pub struct PredicateQueryBuilder {
    handle: Handle<sys::CBLPredicateQueryBuilder>,
}

// Safety: the builder never changes after it is made; the C API reads it from any thread.
unsafe impl Send for PredicateQueryBuilder {}
unsafe impl Sync for PredicateQueryBuilder {}

impl PredicateQueryBuilder {
    /// A builder over `collection`. A mistake is an [`ErrorKind::InvalidQuery`] error whose
    /// message names the part (`where: `, `select item 2: `) and whose position is the byte
    /// offset within it.
    pub fn new<S: AsRef<str>, O: AsRef<str>>(collection: &Collection, select: &[S], predicate: &str, order_by: &[O]) -> Result<Self> {
        let select = c_strings(select, "a select item")?;
        let order_by = c_strings(order_by, "a sort descriptor")?;
        let predicate = c_string(predicate, "the predicate")?;
        let (select_pointers, order_pointers) = (pointers(&select), pointers(&order_by));
        let mut position: c_int = -1;
        let (pointer, error) = ffi::with_error(|error| unsafe {
            // Safety: a live collection; the strings and arrays outlive the call.
            loaded().CBLPredicateQueryBuilder_Create(collection.as_ptr(), select_pointers.as_ptr(), select_pointers.len(),
                                                     predicate.as_ptr(), order_pointers.as_ptr(), order_pointers.len(),
                                                     &mut position, error)
        });
        let handle = Handle::from_owned(pointer).ok_or_else(|| Error::from_c(&error).at_position(position))?;
        Ok(PredicateQueryBuilder { handle })
    }

    /// A query with the context's values for the variables: anything that serializes to a
    /// JSON object (`json!({"TAG": "iOS"})`), or `&()` for none. A variable it lacks is an
    /// [`ErrorKind::InvalidQueryParameter`] error naming it.
    pub fn create_query<C: Serialize + ?Sized>(&self, context: &C) -> Result<Query> {
        let context = match json::write(context, "the context", Target::Query, |checked| serde_json::to_value(checked))? {
            Value::Null => None,
            value @ Value::Object(_) => Some(c_string(&value.to_string(), "the context")?),
            other => {
                return Err(Error::new(ErrorKind::InvalidQueryParameter, format!("a context must be a JSON object, not {other}")))
            }
        };
        let context = context.as_ref().map_or(std::ptr::null(), |text| text.as_ptr());
        // Safety: a live builder; the context outlives the call.
        let query = handle(|error| unsafe { loaded().CBLPredicateQueryBuilder_CreateQuery(self.handle.as_ptr(), context, error) })?;
        Ok(Query::from_handle(query))
    }

    /// How the query runs: its SQL++, the index it uses and the conditions that serves, a
    /// value index that would serve the predicate, the SQL and SQLite's plan.
    pub fn explanation(&self) -> Result<String> {
        // Safety: a live builder.
        owned_string(|error| unsafe { loaded().CBLPredicateQueryBuilder_Explanation(self.handle.as_ptr(), error) })
    }
}

fn c_strings<S: AsRef<str>>(items: &[S], what: &str) -> Result<Vec<CString>> {
    items.iter().map(|item| c_string(item.as_ref(), what)).collect()
}

fn pointers(strings: &[CString]) -> Vec<*const c_char> {
    strings.iter().map(|text| text.as_ptr()).collect()
}
