//! [`Query`], its [`ResultSet`] and [`Row`]s.

use std::sync::Arc;

use serde::de::DeserializeOwned;
use serde::Serialize;
use serde_json::{Map, Value};

use doclite_sys as sys;

use crate::database::Database;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, check, handle, loaded, owned_string, Handle};
use crate::listener::{self, ListenerToken};

/// The language of a query's text.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub(crate) enum QueryLanguage {
    Json,
    SqlPlusPlus,
}

impl QueryLanguage {
    pub(crate) fn raw(self) -> sys::CBLQueryLanguage {
        (match self {
            QueryLanguage::Json => sys::kCBLJSONLanguage,
            QueryLanguage::SqlPlusPlus => sys::kCBLN1QLLanguage,
        }) as sys::CBLQueryLanguage
    }
}

/// A compiled query, from SQL++ ([`Database::create_query`]), LiteCore's JSON query
/// language ([`Database::create_json_query`]) or the [`QueryBuilder`](crate::QueryBuilder).
/// Run it as often as needed, with new [parameters](Query::set_parameters) each time.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-query-{}", std::process::id()));
/// # let db = doclite::Database::open("query", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// let hotels = db.create_collection("hotels", None)?;
/// hotels.save_many([("h1", serde_json::json!({"name": "Grand", "rooms": 120})),
///                   ("h2", serde_json::json!({"name": "Inn", "rooms": 8}))])?;
/// let mut query = db.create_query("SELECT name, rooms FROM hotels WHERE rooms >= $min ORDER BY name")?;
/// query.set_parameters(&serde_json::json!({"min": 100}))?;
/// for row in query.execute()? {
///     let row = row?;
///     assert_eq!(row.get::<String>("name")?, "Grand");
///     assert_eq!(row.get::<i64>(1)?, 120);
/// }
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
pub struct Query {
    handle: Handle<sys::CBLQuery>,
    columns: Arc<[String]>,
}

// Safety: a query handle may move between threads (DocLite's Query locks its state). It is
// not `Sync` and not `Clone`: its parameters are set in place, so a shared query's run would
// race with another thread's new parameters.
unsafe impl Send for Query {}

impl Query {
    pub(crate) fn new(database: &Database, language: QueryLanguage, text: &str) -> Result<Query> {
        let text = c_string(text, "the query")?;
        let mut position: std::ffi::c_int = -1;
        let (pointer, error) = ffi::with_error(|error| unsafe {
            // Safety: a live database; the text and the position outlive the call.
            loaded().CBLDatabase_CreateQuery(database.as_ptr(), language.raw(), text.as_ptr(), &mut position, error)
        });
        let handle = Handle::from_owned(pointer).ok_or_else(|| Error::from_c(&error).at_position(position))?;
        Ok(Query::from_handle(handle))
    }

    pub(crate) fn from_handle(handle: Handle<sys::CBLQuery>) -> Query {
        let lib = loaded();
        // Safety: a live handle; the names are copied while it lives.
        let count = unsafe { lib.CBLQuery_ColumnCount(handle.as_ptr()) };
        let columns = (0..count)
            .map(|index| unsafe { ffi::copy_string(lib.CBLQuery_ColumnName(handle.as_ptr(), index)) }.unwrap_or_default())
            .collect::<Vec<String>>()
            .into();
        Query { handle, columns }
    }

    pub(crate) fn as_ptr(&self) -> *mut sys::CBLQuery {
        self.handle.as_ptr()
    }

    /// The column titles of the rows (`name`, an alias, `$1` for an unnamed expression).
    pub fn column_names(&self) -> &[String] {
        &self.columns
    }

    /// Sets the query's parameters (`$name` in SQL++) from anything that serializes to a JSON
    /// object: `json!({"min": 100})`, a `HashMap`, a struct. A parameter left unset is MISSING.
    pub fn set_parameters<P: Serialize + ?Sized>(&mut self, parameters: &P) -> Result<()> {
        let parameters = serde_json::to_value(parameters)?;
        if !parameters.is_object() {
            return Err(Error::new(
                ErrorKind::InvalidQueryParameter,
                format!("query parameters must serialize to a JSON object (name to value), not {parameters}"),
            ));
        }
        let json = c_string(&parameters.to_string(), "a query parameter")?;
        // Safety: a live handle; the text outlives the call.
        check(|error| unsafe { loaded().CBLQuery_SetParameters(self.as_ptr(), json.as_ptr(), error) })
    }

    /// Clears the parameters.
    pub fn clear_parameters(&mut self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLQuery_SetParameters(self.as_ptr(), std::ptr::null(), error) })
    }

    /// Runs the query with its current parameters; the rows are read as they are iterated.
    pub fn execute(&self) -> Result<ResultSet> {
        // Safety: a live handle.
        let results = handle(|error| unsafe { loaded().CBLQuery_Execute(self.as_ptr(), error) })?;
        Ok(ResultSet::new(results, self))
    }

    /// How the query runs: its SQL, SQLite's query plan, the JSON query and its SQL++ text.
    pub fn explain(&self) -> Result<String> {
        // Safety: a live handle.
        owned_string(|error| unsafe { loaded().CBLQuery_Explain(self.as_ptr(), error) })
    }

    /// The query as SQL++ text, which [`Database::create_query`] reads back to the same query.
    pub fn sqlpp(&self) -> Result<String> {
        // Safety: a live handle.
        owned_string(|error| unsafe { loaded().CBLQuery_CopySQLPP(self.as_ptr(), error) })
    }

    /// The query in LiteCore's JSON query language.
    pub fn json(&self) -> Result<String> {
        // Safety: a live handle.
        owned_string(|_| unsafe { loaded().CBLQuery_CopyJSON(self.as_ptr()) })
    }

    /// Makes the query live: `listener` is called soon with its current results, then
    /// after each commit that changes them, on a background thread, one call at a time,
    /// until the token is dropped or removed.
    pub fn add_change_listener<F>(&self, listener: F) -> Result<ListenerToken>
    where
        F: FnMut(QueryChange<'_>) + Send + 'static,
    {
        listener::add_query_listener(self, listener)
    }
}

impl Query {
    /// Another reference to the same query and its parameters, for its live query's listener
    /// (which runs it again when the parameters change).
    pub(crate) fn share(&self) -> Query {
        Query { handle: self.handle.clone(), columns: Arc::clone(&self.columns) }
    }
}

impl std::fmt::Debug for Query {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Query").field("columns", &self.columns).finish()
    }
}

/// A live query's new results ([`Query::add_change_listener`]).
pub struct QueryChange<'a> {
    /// The live query.
    pub query: &'a Query,
    /// Its results now, or the error of the run that failed.
    pub results: Result<ResultSet>,
}

/// How many rows one call into the library reads.
const ROWS_PER_BLOCK: u32 = 512;

/// The rows of one run of a query, an iterator of [`Row`]s read as it advances
/// (a block of rows per call into the library). It keeps its query alive.
pub struct ResultSet {
    handle: Handle<sys::CBLResultSet>,
    columns: Arc<[String]>,
    block: std::vec::IntoIter<Vec<Value>>,
    finished: bool,
}

// Safety: a result set may move between threads with its query.
unsafe impl Send for ResultSet {}

impl ResultSet {
    pub(crate) fn new(handle: Handle<sys::CBLResultSet>, query: &Query) -> ResultSet {
        ResultSet { handle, columns: Arc::clone(&query.columns), block: Vec::new().into_iter(), finished: false }
    }

    /// The column titles.
    pub fn column_names(&self) -> &[String] {
        &self.columns
    }

    /// Reads every remaining row.
    pub fn all(self) -> Result<Vec<Row>> {
        self.collect()
    }

    fn read_block(&mut self) -> Result<()> {
        // Safety: a live handle.
        let text = owned_string(|error| unsafe { loaded().CBLResultSet_NextRowsJSON(self.handle.as_ptr(), ROWS_PER_BLOCK, error) })?;
        let rows: Vec<Vec<Value>> = serde_json::from_str(&text)?;
        self.finished = rows.is_empty();
        self.block = rows.into_iter();
        Ok(())
    }
}

impl Iterator for ResultSet {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Self::Item> {
        loop {
            if let Some(mut values) = self.block.next() {
                // Each row is [missing-column mask, value…].
                let missing = values.first().and_then(Value::as_u64).unwrap_or(0);
                values.remove(0);
                return Some(Ok(Row { columns: Arc::clone(&self.columns), values, missing }));
            }
            if self.finished {
                return None;
            }
            if let Err(error) = self.read_block() {
                self.finished = true;
                return Some(Err(error));
            }
        }
    }
}

/// A column of a [`Row`]: its index (`0`) or its title (`"name"`).
pub trait ColumnIndex {
    /// The column's index among `columns`, or an [`ErrorKind::InvalidColumn`] error.
    fn column_index(&self, columns: &[String]) -> Result<usize>;
}

impl ColumnIndex for usize {
    fn column_index(&self, columns: &[String]) -> Result<usize> {
        if *self < columns.len() {
            Ok(*self)
        } else {
            Err(Error::new(ErrorKind::InvalidColumn, format!("no column {self}: the columns are {columns:?}")))
        }
    }
}

impl ColumnIndex for &str {
    fn column_index(&self, columns: &[String]) -> Result<usize> {
        columns
            .iter()
            .position(|column| column == self)
            .ok_or_else(|| Error::new(ErrorKind::InvalidColumn, format!("no column {self:?}: the columns are {columns:?}")))
    }
}

/// One row of a [`ResultSet`]: its values by column index or title. A column may be
/// MISSING (no value at all), which differs from JSON null: [`Row::is_missing`] tells.
#[derive(Debug, Clone, PartialEq)]
pub struct Row {
    columns: Arc<[String]>,
    values: Vec<Value>,
    missing: u64,
}

impl Row {
    /// The value of a column as a `T`: `row.get::<String>("name")`, `row.get::<Option<f64>>(2)`.
    /// A MISSING or null value is `None` for an `Option`, an error for other types.
    pub fn get<T: DeserializeOwned>(&self, column: impl ColumnIndex) -> Result<T> {
        let index = column.column_index(&self.columns)?;
        T::deserialize(&self.values[index]).map_err(|error| {
            let state = if self.is_missing_at(index) { "MISSING" } else { "not convertible" };
            Error::new(ErrorKind::Conversion, format!("column {:?} is {state}: {error}", self.columns[index]))
        })
    }

    /// The JSON value of a column; `None` when it is MISSING.
    pub fn get_ref(&self, column: impl ColumnIndex) -> Result<Option<&Value>> {
        let index = column.column_index(&self.columns)?;
        Ok((!self.is_missing_at(index)).then(|| &self.values[index]))
    }

    /// Whether a column is MISSING (an unknown column is an error).
    pub fn is_missing(&self, column: impl ColumnIndex) -> Result<bool> {
        Ok(self.is_missing_at(column.column_index(&self.columns)?))
    }

    fn is_missing_at(&self, index: usize) -> bool {
        index < 64 && self.missing >> index & 1 == 1
    }

    /// The bit mask of the MISSING columns (bit *i*: column *i*), as LiteCore reports it.
    pub fn missing_mask(&self) -> u64 {
        self.missing
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.values.len()
    }

    /// Whether the row has no column.
    pub fn is_empty(&self) -> bool {
        self.values.is_empty()
    }

    /// The column titles.
    pub fn column_names(&self) -> &[String] {
        &self.columns
    }

    /// Couchbase Lite 1.x's `CBLQueryRow.value`: the single value of a one-column row,
    /// else the array of the values (MISSING as null).
    pub fn value(&self) -> Value {
        match self.values.as_slice() {
            [single] => single.clone(),
            values => Value::Array(values.to_vec()),
        }
    }

    /// The values in column order, MISSING as null.
    pub fn values(&self) -> &[Value] {
        &self.values
    }

    /// The row as a JSON object keyed by column title, MISSING columns left out.
    pub fn to_map(&self) -> Map<String, Value> {
        (0..self.values.len())
            .filter(|&index| !self.is_missing_at(index))
            .map(|index| (self.columns[index].clone(), self.values[index].clone()))
            .collect()
    }

    /// The row as JSON text: an object keyed by column title, MISSING columns left out
    /// (Couchbase Lite's `Result.toJSON()`).
    pub fn to_json(&self) -> String {
        Value::Object(self.to_map()).to_string()
    }

    /// The whole row as a `T`: a struct or map by column title, a tuple or vector by
    /// column order (MISSING as null).
    pub fn deserialize<T: DeserializeOwned>(&self) -> Result<T> {
        Ok(T::deserialize(RowDeserializer(self))?)
    }
}

/// A row as serde input: a map of its valued columns, or the sequence of its values.
struct RowDeserializer<'r>(&'r Row);

impl<'de> serde::Deserializer<'de> for RowDeserializer<'_> {
    type Error = serde_json::Error;

    fn deserialize_any<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        Value::Object(self.0.to_map()).deserialize_any(visitor)
    }

    fn deserialize_seq<V: serde::de::Visitor<'de>>(self, visitor: V) -> Result<V::Value, Self::Error> {
        Value::Array(self.0.values.clone()).deserialize_seq(visitor)
    }

    fn deserialize_tuple<V: serde::de::Visitor<'de>>(self, len: usize, visitor: V) -> Result<V::Value, Self::Error> {
        Value::Array(self.0.values.clone()).deserialize_tuple(len, visitor)
    }

    fn deserialize_tuple_struct<V: serde::de::Visitor<'de>>(
        self,
        name: &'static str,
        len: usize,
        visitor: V,
    ) -> Result<V::Value, Self::Error> {
        Value::Array(self.0.values.clone()).deserialize_tuple_struct(name, len, visitor)
    }

    serde::forward_to_deserialize_any! {
        bool i8 i16 i32 i64 i128 u8 u16 u32 u64 u128 f32 f64 char str string bytes byte_buf option unit
        unit_struct newtype_struct map struct enum identifier ignored_any
    }
}
