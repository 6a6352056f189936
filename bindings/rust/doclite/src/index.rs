//! Index definitions: [`ValueIndexConfiguration`] and [`FullTextIndexConfiguration`].

use std::ffi::CString;

use doclite_sys as sys;

use crate::builder::Expression;
use crate::error::{Error, Result};
use crate::ffi::{c_string, optional_c_string, optional_ptr};
use crate::query::QueryLanguage;

/// The expressions of an index, in SQL++ or as a JSON array, and an optional condition.
#[derive(Debug, Clone, PartialEq)]
struct IndexedExpressions {
    language: QueryLanguage,
    expressions: String,
    condition: Option<String>,
    /// A query-builder expression that could not be made, reported when the index is created.
    error: Option<Error>,
}

impl IndexedExpressions {
    fn sqlpp<I: IntoIterator<Item = S>, S: AsRef<str>>(expressions: I) -> IndexedExpressions {
        let expressions: Vec<String> = expressions.into_iter().map(|e| e.as_ref().to_owned()).collect();
        IndexedExpressions { language: QueryLanguage::SqlPlusPlus, expressions: expressions.join(", "), condition: None, error: None }
    }

    fn json(expressions: &str) -> IndexedExpressions {
        IndexedExpressions { language: QueryLanguage::Json, expressions: expressions.to_owned(), condition: None, error: None }
    }

    fn builder<I: IntoIterator<Item = Expression>>(expressions: I) -> IndexedExpressions {
        match expressions.into_iter().map(|e| e.to_json()).collect::<Result<Vec<_>>>() {
            Ok(items) => IndexedExpressions::json(&serde_json::Value::Array(items).to_string()),
            Err(error) => IndexedExpressions { error: Some(error), ..IndexedExpressions::json("[]") },
        }
    }

    /// The C strings of the definition: the expressions, then the condition (or NULL).
    fn c_strings(&self) -> Result<(CString, Option<CString>)> {
        if let Some(error) = &self.error {
            return Err(error.clone());
        }
        let condition = optional_c_string(self.condition.as_deref(), "the index condition")?;
        Ok((c_string(&self.expressions, "the index expressions")?, condition))
    }
}

/// A value index (Couchbase Lite's `ValueIndexConfiguration`): queries that filter or
/// sort on its expressions read the index instead of every document.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-index-{}", std::process::id()));
/// # let db = doclite::Database::open("index", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use doclite::ValueIndexConfiguration;
/// let hotels = db.create_collection("hotels", None)?;
/// hotels.create_value_index("byCity", &ValueIndexConfiguration::new(["city", "lower(name)"]).where_("type = 'hotel'"))?;
/// assert_eq!(hotels.index_names()?, ["byCity"]);
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ValueIndexConfiguration(IndexedExpressions);

impl ValueIndexConfiguration {
    /// An index on SQL++ expressions (`"name"`, `"lower(address.city)"`).
    pub fn new<I: IntoIterator<Item = S>, S: AsRef<str>>(expressions: I) -> Self {
        ValueIndexConfiguration(IndexedExpressions::sqlpp(expressions))
    }

    /// An index on expressions of the JSON query language, as a JSON array (`[[".name"]]`).
    pub fn json(expressions: &str) -> Self {
        ValueIndexConfiguration(IndexedExpressions::json(expressions))
    }

    /// An index on query-builder expressions (Couchbase Lite's `IndexBuilder.valueIndex`).
    pub fn expressions<I: IntoIterator<Item = Expression>>(expressions: I) -> Self {
        ValueIndexConfiguration(IndexedExpressions::builder(expressions))
    }

    /// Makes the index partial: only documents meeting `condition` (in the expressions' language).
    pub fn where_(mut self, condition: &str) -> Self {
        self.0.condition = Some(condition.to_owned());
        self
    }

    pub(crate) fn with_raw<T>(&self, use_raw: impl FnOnce(sys::CBLValueIndexConfiguration) -> Result<T>) -> Result<T> {
        let (expressions, condition) = self.0.c_strings()?;
        use_raw(sys::CBLValueIndexConfiguration {
            expressionLanguage: self.0.language.raw(),
            expressions: expressions.as_ptr(),
            where_: optional_ptr(&condition),
        })
    }
}

/// A full-text index (Couchbase Lite's `FullTextIndexConfiguration`), searched with
/// `MATCH(index, 'words')` and ranked with `RANK(index)`.
#[derive(Debug, Clone, PartialEq)]
pub struct FullTextIndexConfiguration {
    expressions: IndexedExpressions,
    ignore_accents: bool,
    language: Option<String>,
}

impl FullTextIndexConfiguration {
    /// An index on the text of SQL++ expressions.
    pub fn new<I: IntoIterator<Item = S>, S: AsRef<str>>(expressions: I) -> Self {
        FullTextIndexConfiguration { expressions: IndexedExpressions::sqlpp(expressions), ignore_accents: false, language: None }
    }

    /// An index on expressions of the JSON query language, as a JSON array.
    pub fn json(expressions: &str) -> Self {
        FullTextIndexConfiguration { expressions: IndexedExpressions::json(expressions), ignore_accents: false, language: None }
    }

    /// An index on query-builder expressions (Couchbase Lite's `IndexBuilder.fullTextIndex`).
    pub fn expressions<I: IntoIterator<Item = Expression>>(expressions: I) -> Self {
        FullTextIndexConfiguration { expressions: IndexedExpressions::builder(expressions), ignore_accents: false, language: None }
    }

    /// Whether `é` matches `e`.
    pub fn ignore_accents(mut self, ignore: bool) -> Self {
        self.ignore_accents = ignore;
        self
    }

    /// The stemmer's language (`"en"`: Porter's); none by default.
    pub fn language(mut self, language: &str) -> Self {
        self.language = Some(language.to_owned());
        self
    }

    /// Makes the index partial: only documents meeting `condition` (in the expressions' language).
    pub fn where_(mut self, condition: &str) -> Self {
        self.expressions.condition = Some(condition.to_owned());
        self
    }

    pub(crate) fn with_raw<T>(&self, use_raw: impl FnOnce(sys::CBLFullTextIndexConfiguration) -> Result<T>) -> Result<T> {
        let (expressions, condition) = self.expressions.c_strings()?;
        let language = optional_c_string(self.language.as_deref(), "the index language")?;
        use_raw(sys::CBLFullTextIndexConfiguration {
            expressionLanguage: self.expressions.language.raw(),
            expressions: expressions.as_ptr(),
            ignoreAccents: self.ignore_accents,
            language: optional_ptr(&language),
            where_: optional_ptr(&condition),
        })
    }
}
