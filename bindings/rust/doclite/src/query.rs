//! [`Query`], its [`ResultSet`] and [`Row`]s.

use std::marker::PhantomData;
use std::sync::{Arc, OnceLock};

use serde::de::DeserializeOwned;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use doclite_sys as sys;

use crate::database::Database;
use crate::error::{Error, ErrorKind, Result};
use crate::ffi::{self, c_string, check, handle, loaded, nul_error, owned_string, Handle};
use crate::json::{self, Target};
use crate::listener::{self, ListenerToken};
use crate::progress::{self, ProgressHandler};
use crate::rows::{Block, DecodeError};

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
/// A query is `Send + Sync`: its runs, [`explain`](Query::explain), listeners and
/// [`interrupt`](Query::interrupt) take `&self`, so threads may share it (by reference or
/// in an `Arc`), and one may stop another's run. What changes it — its parameters, its
/// progress handler — takes `&mut self`, so no run sees them change under it. It is not
/// `Clone`: its parameters belong to it.
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
    /// The progress handler this query set (none in a live query's reference to it).
    progress: Option<ProgressHandler>,
}

// Safety: DocLite's Query locks its state, and may be used from several threads at once;
// the calls taking `&self` change nothing a run depends on.
unsafe impl Send for Query {}
unsafe impl Sync for Query {}

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
        Query { handle, columns, progress: None }
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
    ///
    /// A name the query does not use is an [`ErrorKind::InvalidQueryParameter`] error when the
    /// query runs ([`execute`](Query::execute), or a live query's next results), naming it.
    /// A name holding NUL, and a value DocLite would not keep exactly — NaN, an infinity, an
    /// integer beyond `i64` (which it would read as a double) — are
    /// [`ErrorKind::InvalidParameter`] errors now.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-parameters-{}", std::process::id()));
    /// # let db = doclite::Database::open("parameters", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::ErrorKind;
    /// let mut query = db.create_query("SELECT META().id FROM _ WHERE rooms >= $min")?;
    /// let error = query.set_parameters(&std::collections::HashMap::from([("min", f64::NAN)])).unwrap_err();
    /// assert_eq!(error.kind(), ErrorKind::InvalidParameter);   // (`json!` would have made the NaN null)
    /// query.set_parameters(&serde_json::json!({"min": 10, "max": 20}))?;
    /// assert_eq!(query.execute().map(drop).unwrap_err().kind(), ErrorKind::InvalidQueryParameter);   // $max is unused
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn set_parameters<P: Serialize + ?Sized>(&mut self, parameters: &P) -> Result<()> {
        let parameters = json::write(parameters, "the query parameters", Target::Query, |checked| serde_json::to_value(checked))?;
        let Value::Object(names) = &parameters else {
            return Err(Error::new(
                ErrorKind::InvalidQueryParameter,
                format!("query parameters must serialize to a JSON object (name to value), not {parameters}"),
            ));
        };
        if let Some(name) = names.keys().find(|name| name.contains('\0')) {
            return Err(nul_error(name, "a query parameter's name"));
        }
        let json = c_string(&parameters.to_string(), "the query parameters")?;
        // Safety: a live handle; the text outlives the call.
        check(|error| unsafe { loaded().CBLQuery_SetParameters(self.as_ptr(), json.as_ptr(), error) })
    }

    /// Clears the parameters.
    pub fn clear_parameters(&mut self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe { loaded().CBLQuery_SetParameters(self.as_ptr(), std::ptr::null(), error) })
    }

    /// The query's parameters as [`set_parameters`](Query::set_parameters) set them, a JSON
    /// object of name to value, or `None` when it has none (never set, or
    /// [cleared](Query::clear_parameters)): Couchbase Lite's `Query.parameters`.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-read-parameters-{}", std::process::id()));
    /// # let db = doclite::Database::open("readparameters", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// let mut query = db.create_query("SELECT name FROM _ WHERE city = $city AND rooms >= $min")?;
    /// assert_eq!(query.parameters()?, None);
    /// query.set_parameters(&serde_json::json!({"city": "Paris", "min": 100}))?;
    /// let parameters = query.parameters()?.expect("set above");
    /// assert_eq!(parameters["city"], "Paris");
    /// assert_eq!(parameters["min"], 100);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn parameters(&self) -> Result<Option<Map<String, Value>>> {
        let lib = loaded();
        // Safety: a live handle; the copy comes back +1, NULL when the query has none.
        let Some(parameters) = Handle::from_owned(unsafe { lib.CBLQuery_CopyParameters(self.as_ptr()) }) else {
            return Ok(None);
        };
        // Safety: a live handle; the text comes back owned (NULL only for parameters set with a
        // mistake, which a query never holds: CBLQuery_SetParameters refuses them).
        let json = unsafe { ffi::take_string(lib.CBLQueryParameters_CopyJSON(parameters.as_ptr())) }
            .ok_or_else(|| Error::new(ErrorKind::Other, "DocLite gave no JSON for the query's parameters"))?;
        Ok(Some(serde_json::from_str(&json)?))
    }

    /// Runs the query with its current parameters; the rows are read as they are iterated.
    /// A run [interrupted](Query::interrupt) fails with [`ErrorKind::Interrupted`].
    pub fn execute(&self) -> Result<ResultSet> {
        // Safety: a live handle.
        let results = handle(|error| unsafe { loaded().CBLQuery_Execute(self.as_ptr(), error) })?;
        Ok(ResultSet::new(results, self))
    }

    /// Stops every run of the query in progress, from any thread: the [`execute`](Query::execute)
    /// or the [`ResultSet`] iteration working on it fails with [`ErrorKind::Interrupted`], and so
    /// does every later read of those runs' rows (rows read before stay readable). Runs
    /// started afterwards are not affected. To stop one run only, use its result set's
    /// [`Interrupter`] ([`ResultSet::interrupter`]).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-interrupt-{}", std::process::id()));
    /// # let db = doclite::Database::open("interrupt", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// # db.default_collection()?.save_many((0..200).map(|n| (format!("d{n}"), serde_json::json!({"n": n}))))?;
    /// let query = db.create_query("SELECT COUNT(*) FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n")?;
    /// let outcome = std::thread::scope(|scope| {
    ///     let running = scope.spawn(|| query.execute().map(|mut rows| rows.next()));
    ///     while !running.is_finished() {
    ///         query.interrupt();                 // from another thread (again, until the run has begun)
    ///         std::thread::yield_now();
    ///     }
    ///     running.join().unwrap()
    /// });
    /// assert_eq!(outcome.unwrap_err().kind(), doclite::ErrorKind::Interrupted);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn interrupt(&self) {
        // Safety: a live handle (DocLite interrupts from any thread).
        unsafe { loaded().CBLQuery_Interrupt(self.as_ptr()) }
    }

    /// Calls `handler` every `steps` of SQLite's virtual-machine steps (at least 1; about
    /// 10 µs of work per 1,000) while a run of the query works, on the thread running it:
    /// when it returns false the run stops, as [`interrupt`](Query::interrupt) stops it, and
    /// fails with [`ErrorKind::Interrupted`]. A panic in it stops the run too, and is
    /// reported on stderr. It applies to runs started later (a live query's too), replaces
    /// the handler set before (which is dropped), and is dropped with the query or by
    /// [`clear_progress_handler`](Query::clear_progress_handler). Calls are made one at a
    /// time: a step of a run on another thread while it is being called goes on without it.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-progress-{}", std::process::id()));
    /// # let db = doclite::Database::open("progress", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// # db.default_collection()?.save_many((0..100).map(|n| (format!("d{n}"), serde_json::json!({"n": n}))))?;
    /// let mut query = db.create_query("SELECT COUNT(*) FROM _ AS a JOIN _ AS b ON a.n >= b.n")?;
    /// let deadline = std::time::Instant::now() + std::time::Duration::from_secs(5);
    /// query.set_progress_handler(1000, move || std::time::Instant::now() < deadline)?;
    /// assert_eq!(query.execute()?.next().unwrap()?.get::<i64>(0)?, 5050);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn set_progress_handler<F>(&mut self, steps: u32, handler: F) -> Result<()>
    where
        F: FnMut() -> bool + Send + 'static,
    {
        let handler = progress::register(handler);
        // Safety: a live handle; the context is the handler's number, never a pointer to free memory.
        check(|error| unsafe {
            loaded().CBLQuery_SetProgressHandler(self.as_ptr(), steps, Some(progress::callback), handler.context(), error)
        })?;
        self.progress = Some(handler);
        Ok(())
    }

    /// Removes the progress handler (dropping it); runs started later call none.
    pub fn clear_progress_handler(&mut self) -> Result<()> {
        // Safety: a live handle.
        check(|error| unsafe {
            loaded().CBLQuery_SetProgressHandler(self.as_ptr(), 0, None, std::ptr::null_mut(), error)
        })?;
        self.progress = None;
        Ok(())
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
    /// until the token is dropped or removed. A change made inside a listener is delivered
    /// after that listener returns (see [`Collection::add_change_listener`](crate::Collection::add_change_listener)).
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
        Query { handle: self.handle.clone(), columns: Arc::clone(&self.columns), progress: None }
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

/// The rows of one run of a query, an iterator of [`Row`]s read as it advances (a
/// block of rows per call into the library). It keeps its query alive.
///
/// To read every row into one type, [`rows::<T>()`](ResultSet::rows) decodes each row
/// straight into `T`, with no [`Row`] in between — the fastest way through many rows:
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-rows-{}", std::process::id()));
/// # let db = doclite::Database::open("rows", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// # db.default_collection()?.save_many([("h1", serde_json::json!({"name": "Grand", "rooms": 120})),
/// #                                     ("h2", serde_json::json!({"name": "Inn", "rooms": 8}))])?;
/// #[derive(serde::Deserialize)]
/// struct Hotel { name: String, rooms: u32 }
///
/// let query = db.create_query("SELECT name, rooms FROM _ ORDER BY name")?;
/// let mut rooms = 0;
/// for hotel in query.execute()?.rows::<Hotel>() {   // by column title; a tuple reads by position
///     let hotel = hotel?;
///     rooms += hotel.rooms;
/// }
/// assert_eq!(rooms, 128);
/// let pairs: Vec<(String, u32)> = query.execute()?.rows().collect::<doclite::Result<_>>()?;
/// assert_eq!(pairs, [("Grand".to_owned(), 120), ("Inn".to_owned(), 8)]);
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
pub struct ResultSet {
    handle: Handle<sys::CBLResultSet>,
    columns: Arc<[String]>,
    /// The block being read, and the next row in it.
    block: Option<Arc<Block>>,
    in_block: usize,
    finished: bool,
    /// The index of the next row.
    next_row: usize,
}

// Safety: a result set may move between threads with its query.
unsafe impl Send for ResultSet {}

impl ResultSet {
    pub(crate) fn new(handle: Handle<sys::CBLResultSet>, query: &Query) -> ResultSet {
        ResultSet { handle, columns: Arc::clone(&query.columns), block: None, in_block: 0, finished: false, next_row: 0 }
    }

    /// The column titles.
    pub fn column_names(&self) -> &[String] {
        &self.columns
    }

    /// A handle that stops this run from any thread ([`Interrupter::interrupt`]), while this
    /// result set is iterated on another. It keeps the run's DocLite result set (and so its
    /// query and database) alive until it is dropped.
    pub fn interrupter(&self) -> Interrupter {
        Interrupter { results: self.handle.clone() }
    }

    /// Reads every remaining row.
    pub fn all(self) -> Result<Vec<Row>> {
        self.collect()
    }

    /// The remaining rows, each deserialized into a `T` as [`Row::deserialize`] does it (a
    /// struct or a map by column title, MISSING columns left out; a tuple or a vector by
    /// position, MISSING as null), straight from the block of rows DocLite returned: no
    /// [`Row`] and no `serde_json::Value` is made. A row that does not fit is an
    /// [`ErrorKind::Conversion`] error naming the row and the column
    /// (`row 2: column "rooms": invalid type: …`), and the rows after it can still be read.
    pub fn rows<T: DeserializeOwned>(self) -> DeserializedRows<T> {
        DeserializedRows { results: self, row: PhantomData }
    }

    /// Moves to the next row, reading a block when the one read is done: its place in
    /// `self.block` and its index, `None` after the last row.
    fn advance(&mut self) -> Option<Result<(usize, usize)>> {
        loop {
            if let Some(block) = &self.block {
                if self.in_block < block.rows() {
                    let row = self.in_block;
                    self.in_block += 1;
                    self.next_row += 1;
                    return Some(Ok((row, self.next_row - 1)));
                }
            }
            if self.finished {
                return None;
            }
            // The block read is let go first: no row of it left, its memory is reused.
            self.block = None;
            self.in_block = 0;
            // Safety: a live handle.
            match unsafe { Block::read(self.handle.as_ptr(), &self.columns) } {
                Ok(block) => {
                    self.finished = block.rows() == 0;
                    self.block = Some(Arc::new(block));
                }
                Err(error) => {
                    self.finished = true;
                    return Some(Err(error));
                }
            }
        }
    }

    /// The block the last [`advance`](ResultSet::advance) moved into.
    fn block(&self) -> &Arc<Block> {
        self.block.as_ref().expect("advance() read a block")
    }
}

impl Iterator for ResultSet {
    type Item = Result<Row>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.advance()?.map(|(row, index)| Row { block: Arc::clone(self.block()), row, index, values: OnceLock::new() }))
    }
}

/// The rows of a [`ResultSet`] deserialized into `T`s ([`ResultSet::rows`]).
pub struct DeserializedRows<T> {
    results: ResultSet,
    row: PhantomData<fn() -> T>,
}

impl<T> DeserializedRows<T> {
    /// The column titles.
    pub fn column_names(&self) -> &[String] {
        &self.results.columns
    }

    /// A handle that stops this run from any thread (see [`ResultSet::interrupter`]).
    pub fn interrupter(&self) -> Interrupter {
        self.results.interrupter()
    }
}

/// Stops one run of a query — the one a [`ResultSet`] reads — from any thread
/// ([`ResultSet::interrupter`]; couchbase-lite-C's `CBLResultSet_Interrupt`), where
/// [`Query::interrupt`] stops all of its runs.
///
/// After [`interrupt`](Interrupter::interrupt), the result set's iteration fails with
/// [`ErrorKind::Interrupted`] at its next read from DocLite, and so does every later read:
/// the rows of the block already read (up to 512) are still given first. Other runs of the
/// same query, at the same time or later, are not affected. A run that has read its last
/// row is over, and interrupting it does nothing.
///
/// A run's first row is computed by [`Query::execute`], before the result set (and so an
/// interrupter) exists: an aggregate such as `SELECT COUNT(*) …` does all its work there.
/// To stop that, use [`Query::interrupt`] or a [progress handler](Query::set_progress_handler).
///
/// An interrupter is `Send + Sync + Clone`. It holds a reference to the run's DocLite result
/// set, so it keeps the run — its unread rows, its query and its database — alive until
/// it (and every clone of it) is dropped, even after the [`ResultSet`] is: drop it when the
/// run is over.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-interrupter-{}", std::process::id()));
/// # let db = doclite::Database::open("interrupter", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// # db.default_collection()?.save_many((0..300).map(|n| (format!("d{n}"), serde_json::json!({"n": n}))))?;
/// // 27 million rows, read as they are iterated.
/// let query = db.create_query("SELECT a.n FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= 0")?;
/// let mut rows = query.execute()?;
/// let interrupter = rows.interrupter();
/// let stopper = std::thread::spawn(move || interrupter.interrupt());   // stops this run only
/// let error = rows.find_map(Result::err).expect("the run is stopped");
/// assert_eq!(error.kind(), doclite::ErrorKind::Interrupted);
/// stopper.join().unwrap();
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Clone)]
pub struct Interrupter {
    results: Handle<sys::CBLResultSet>,
}

// Safety: the C API interrupts a result set from any thread; the handle is only retained,
// interrupted and released here.
unsafe impl Send for Interrupter {}
unsafe impl Sync for Interrupter {}

impl Interrupter {
    /// Stops the run, from any thread (see [`Interrupter`]).
    pub fn interrupt(&self) {
        // Safety: a live handle (this holds a reference to it).
        unsafe { loaded().CBLResultSet_Interrupt(self.results.as_ptr()) }
    }
}

impl std::fmt::Debug for Interrupter {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Interrupter").finish_non_exhaustive()
    }
}

impl<T: DeserializeOwned> Iterator for DeserializedRows<T> {
    type Item = Result<T>;

    fn next(&mut self) -> Option<Self::Item> {
        Some(self.results.advance()?.and_then(|(row, index)| {
            let block = self.results.block();
            T::deserialize(block.row(row)).map_err(|error| row_error(index, block.columns(), error))
        }))
    }
}

/// The error of row `index` that did not deserialize, naming the column that did not fit.
fn row_error(index: usize, columns: &[String], error: DecodeError) -> Error {
    let column = error.column.map(|column| format!(": column {:?}", columns[column])).unwrap_or_default();
    Error::new(ErrorKind::Conversion, format!("row {index}{column}: {}", error.message))
}

/// A column of a [`Row`]: its index (`0`) or its title (`"name"`). Sealed: only
/// those two kinds implement it, so it can grow without breaking a user's code.
///
/// ```compile_fail
/// struct Mine;
/// impl doclite::ColumnIndex for Mine { // error: `Sealed` is private to the crate
///     fn column_index(&self, _: &[String]) -> doclite::Result<usize> { Ok(0) }
/// }
/// ```
pub trait ColumnIndex: sealed::Sealed {
    /// The column's index among `columns`, or an [`ErrorKind::InvalidColumn`] error.
    fn column_index(&self, columns: &[String]) -> Result<usize>;
}

mod sealed {
    /// Implemented by the crate's column kinds alone.
    pub trait Sealed {}
    impl Sealed for usize {}
    impl Sealed for &str {}
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
///
/// A row refers to the block of rows it was read in (up to 512 rows, as DocLite returned
/// them), which it shares with the rows read with it and keeps while it lives; a value is
/// decoded when it is asked for, into the type asked for ([`get`](Row::get),
/// [`deserialize`](Row::deserialize)), and may borrow from the row (`row.get::<&str>(0)`).
/// The calls that return JSON values ([`values`](Row::values), [`get_ref`](Row::get_ref),
/// [`to_map`](Row::to_map)…) make them once per row, on first use.
#[derive(Clone)]
pub struct Row {
    block: Arc<Block>,
    /// The row's place in the block.
    row: usize,
    index: usize,
    /// The values as JSON, made on first use.
    values: OnceLock<Vec<Value>>,
}

impl Row {
    /// The value of a column as a `T`: `row.get::<String>("name")`, `row.get::<Option<f64>>(2)`,
    /// `row.get::<&str>(0)` (borrowed from the row). A MISSING or null value is `None` for an
    /// `Option`, an error for other types; the error names the row and the column.
    pub fn get<'r, T: Deserialize<'r>>(&'r self, column: impl ColumnIndex) -> Result<T> {
        let index = column.column_index(self.column_names())?;
        T::deserialize(self.block.value(self.row, index)).map_err(|error| {
            let state = if self.is_missing_at(index) { "MISSING" } else { "not convertible" };
            Error::new(ErrorKind::Conversion, format!("row {}: column {:?} is {state}: {error}", self.index, self.column_names()[index]))
        })
    }

    /// The row's index in its result set (0 for the first row).
    pub fn index(&self) -> usize {
        self.index
    }

    /// The JSON value of a column; `None` when it is MISSING.
    pub fn get_ref(&self, column: impl ColumnIndex) -> Result<Option<&Value>> {
        let index = column.column_index(self.column_names())?;
        Ok((!self.is_missing_at(index)).then(|| &self.values()[index]))
    }

    /// Whether a column is MISSING (an unknown column is an error).
    pub fn is_missing(&self, column: impl ColumnIndex) -> Result<bool> {
        Ok(self.is_missing_at(column.column_index(self.column_names())?))
    }

    fn is_missing_at(&self, index: usize) -> bool {
        self.block.is_missing(self.row, index)
    }

    /// The bit mask of the MISSING columns (bit *i*: column *i*), as LiteCore reports it.
    pub fn missing_mask(&self) -> u64 {
        self.block.mask(self.row)
    }

    /// The number of columns.
    pub fn len(&self) -> usize {
        self.column_names().len()
    }

    /// Whether the row has no column.
    pub fn is_empty(&self) -> bool {
        self.len() == 0
    }

    /// The column titles.
    pub fn column_names(&self) -> &[String] {
        self.block.columns()
    }

    /// Couchbase Lite 1.x's `CBLQueryRow.value`: the single value of a one-column row,
    /// else the array of the values (MISSING as null).
    pub fn value(&self) -> Value {
        match self.values() {
            [single] => single.clone(),
            values => Value::Array(values.to_vec()),
        }
    }

    /// The values in column order as JSON, MISSING as null.
    pub fn values(&self) -> &[Value] {
        self.values.get_or_init(|| (0..self.len()).map(|column| self.block.json_value(self.row, column)).collect())
    }

    /// The row as a JSON object keyed by column title, MISSING columns left out.
    pub fn to_map(&self) -> Map<String, Value> {
        let values = self.values();
        (0..values.len())
            .filter(|&index| !self.is_missing_at(index))
            .map(|index| (self.column_names()[index].clone(), values[index].clone()))
            .collect()
    }

    /// The row as JSON text: an object keyed by column title, MISSING columns left out
    /// (Couchbase Lite's `Result.toJSON()`).
    pub fn to_json(&self) -> String {
        Value::Object(self.to_map()).to_string()
    }

    /// The whole row as a `T`: a struct or map by column title (MISSING columns left out),
    /// a tuple or vector by column order (MISSING as null). The error names the row, and the
    /// column whose value did not fit when one did not (`row 3: column "rooms": invalid type: …`).
    /// To read every row of a result set so, [`ResultSet::rows`] needs no `Row`.
    pub fn deserialize<'r, T: Deserialize<'r>>(&'r self) -> Result<T> {
        T::deserialize(self.block.row(self.row)).map_err(|error| row_error(self.index, self.column_names(), error))
    }
}

impl std::fmt::Debug for Row {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Row")
            .field("index", &self.index)
            .field("columns", &self.column_names())
            .field("values", &self.values())
            .field("missing", &self.missing_mask())
            .finish()
    }
}

impl PartialEq for Row {
    fn eq(&self, other: &Row) -> bool {
        self.index == other.index
            && self.column_names() == other.column_names()
            && self.missing_mask() == other.missing_mask()
            && self.values() == other.values()
    }
}
