//! Index definitions: [`ValueIndexConfiguration`], [`FullTextIndexConfiguration`],
//! [`ArrayIndexConfiguration`], [`PredictiveIndexConfiguration`] and [`VectorIndexConfiguration`].

use std::ffi::CString;

use doclite_sys as sys;

use crate::builder::Expression;
use crate::error::{Error, Result};
use crate::ffi::{c_string, loaded, optional_c_string, optional_ptr};
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

    /// One query-builder expression, as the JSON text of that expression (not a list of one).
    fn builder_one(expression: &Expression) -> IndexedExpressions {
        match expression.to_json() {
            Ok(value) => IndexedExpressions::json(&value.to_string()),
            Err(error) => IndexedExpressions { error: Some(error), ..IndexedExpressions::json("{}") },
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

/// An array index (Couchbase Lite 3.2's `ArrayIndexConfiguration`): the elements of the array
/// at one property path of every document (`"tags"`, `"contacts"`), or expressions of each
/// element (`type`, `address.city`), so that a query that `UNNEST`s that path and filters on
/// the element reads the index instead of every document.
///
/// The path is one property path; Couchbase Lite's nested form (`"contacts[].phones"`) is
/// refused with [`ErrorKind::Unsupported`](crate::ErrorKind::Unsupported).
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-array-index-{}", std::process::id()));
/// # let db = doclite::Database::open("arrays", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use doclite::ArrayIndexConfiguration;
/// let people = db.create_collection("people", None)?;
/// people.put("p1", &serde_json::json!({"contacts": [{"type": "home", "city": "Paris"}]}))?;
/// people.create_array_index("byContact", &ArrayIndexConfiguration::new("contacts", ["type", "city"]))?;
/// let query = db.create_query(
///     "SELECT META(p).id, c.city FROM people AS p UNNEST p.contacts AS c WHERE c.type = 'home'")?;
/// assert!(query.explain()?.contains("USING INDEX arr"));   // the plan reads the array index
/// assert_eq!(query.execute()?.next().unwrap()?.get::<String>("city")?, "Paris");
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct ArrayIndexConfiguration {
    path: String,
    /// None: the elements themselves.
    expressions: Option<IndexedExpressions>,
}

impl ArrayIndexConfiguration {
    /// An index on the elements themselves of the array at `path`.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-array-elements-{}", std::process::id()));
    /// # let db = doclite::Database::open("elements", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::ArrayIndexConfiguration;
    /// let hotels = db.default_collection()?;
    /// hotels.put("h1", &serde_json::json!({"tags": ["pool", "spa"]}))?;
    /// hotels.create_array_index("byTag", &ArrayIndexConfiguration::elements("tags"))?;
    /// let query = db.create_query("SELECT META(h).id FROM _ AS h UNNEST h.tags AS t WHERE t = 'spa'")?;
    /// assert!(query.explain()?.contains("USING INDEX arr"));
    /// assert_eq!(query.execute()?.count(), 1);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn elements(path: &str) -> Self {
        ArrayIndexConfiguration { path: path.to_owned(), expressions: None }
    }

    /// An index on SQL++ expressions of each element of the array at `path` (`"type"`,
    /// `"lower(city)"`, naming the element's properties); none: the elements themselves.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-array-new-{}", std::process::id()));
    /// # let db = doclite::Database::open("arraynew", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::ArrayIndexConfiguration;
    /// let people = db.default_collection()?;
    /// people.create_array_index("byContact", &ArrayIndexConfiguration::new("contacts", ["type", "lower(city)"]))?;
    /// assert_eq!(people.index_names()?, ["byContact"]);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn new<I: IntoIterator<Item = S>, S: AsRef<str>>(path: &str, expressions: I) -> Self {
        let expressions: Vec<S> = expressions.into_iter().collect();
        ArrayIndexConfiguration {
            path: path.to_owned(),
            expressions: (!expressions.is_empty()).then(|| IndexedExpressions::sqlpp(expressions)),
        }
    }

    /// An index on expressions of the JSON query language over each element of the array at
    /// `path`, as a JSON array (`[[".type"], [".city"]]`).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-array-json-{}", std::process::id()));
    /// # let db = doclite::Database::open("arrayjson", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::ArrayIndexConfiguration;
    /// let people = db.default_collection()?;
    /// people.create_array_index("byContact", &ArrayIndexConfiguration::json("contacts", r#"[[".type"], [".city"]]"#))?;
    /// assert_eq!(people.index_names()?, ["byContact"]);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn json(path: &str, expressions: &str) -> Self {
        ArrayIndexConfiguration { path: path.to_owned(), expressions: Some(IndexedExpressions::json(expressions)) }
    }

    /// An index on query-builder expressions of each element of the array at `path`
    /// (`Expression::property("type")` is an element's `type`; Couchbase Lite's
    /// `IndexBuilder.arrayIndex`); none: the elements themselves.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-array-builder-{}", std::process::id()));
    /// # let db = doclite::Database::open("arraybuilder", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::{ArrayIndexConfiguration, Expression};
    /// let people = db.default_collection()?;
    /// let config = ArrayIndexConfiguration::expressions("contacts", [Expression::property("type"), Expression::property("city")]);
    /// people.create_array_index("byContact", &config)?;
    /// assert_eq!(people.index_names()?, ["byContact"]);
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn expressions<I: IntoIterator<Item = Expression>>(path: &str, expressions: I) -> Self {
        let mut expressions = expressions.into_iter().peekable();
        ArrayIndexConfiguration {
            path: path.to_owned(),
            expressions: expressions.peek().is_some().then(|| IndexedExpressions::builder(expressions)),
        }
    }

    pub(crate) fn with_raw<T>(&self, use_raw: impl FnOnce(sys::CBLArrayIndexConfiguration) -> Result<T>) -> Result<T> {
        let path = c_string(&self.path, "the array index path")?;
        let expressions = match &self.expressions {
            Some(expressions) => Some(expressions.c_strings()?.0),
            None => None,
        };
        let language = self.expressions.as_ref().map_or(QueryLanguage::SqlPlusPlus, |expressions| expressions.language);
        use_raw(sys::CBLArrayIndexConfiguration {
            expressionLanguage: language.raw(),
            path: path.as_ptr(),
            expressions: optional_ptr(&expressions),
        })
    }
}

/// A predictive index (Couchbase Lite's `PredictiveIndexConfiguration`): each document's
/// prediction by a [registered model](crate::register_model) for an input, computed when the
/// index is created and as documents are saved, and cached, so that a query calling
/// `PREDICTION(model, input)` with the same model and input reads the cache and calls the
/// model for no row. [`properties`](PredictiveIndexConfiguration::properties) keeps a value
/// index on properties of the prediction too.
///
/// The model is called for every document when the index is created; while it is
/// unregistered, saving a document of the collection fails.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-predictive-{}", std::process::id()));
/// # let db = doclite::Database::open("predictive", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use doclite::PredictiveIndexConfiguration;
/// use serde_json::{json, Map, Value};
/// doclite::register_model("sentiment", |input: &Map<String, Value>| {
///     let text = input.get("text")?.as_str()?;
///     Some(json!({"label": if text.contains("good") { "positive" } else { "negative" }}).as_object()?.clone())
/// })?;
/// let reviews = db.default_collection()?;
/// reviews.put("r1", &json!({"text": "good food"}))?;
/// let config = PredictiveIndexConfiguration::new("sentiment", "{'text': text}").properties(["label"]);
/// reviews.create_predictive_index("bySentiment", &config)?;
/// let query = db.create_query("SELECT META().id FROM _ WHERE PREDICTION(sentiment, {'text': text}, label) = 'positive'")?;
/// assert_eq!(query.execute()?.count(), 1);          // read from the cache: the model is not called
/// # doclite::unregister_model("sentiment")?;
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct PredictiveIndexConfiguration {
    model: String,
    input: IndexedExpressions,
    properties: Option<Vec<String>>,
}

impl PredictiveIndexConfiguration {
    /// An index of the predictions of `model` for `input`, one SQL++ expression (`"{'text': text}"`).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-predictive-new-{}", std::process::id()));
    /// # let db = doclite::Database::open("predictivenew", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::PredictiveIndexConfiguration;
    /// doclite::register_model("echo", |input| Some(input.clone()))?;
    /// let collection = db.default_collection()?;
    /// collection.create_predictive_index("echo", &PredictiveIndexConfiguration::new("echo", "{'text': text}"))?;
    /// assert_eq!(collection.index_names()?, ["echo"]);
    /// # doclite::unregister_model("echo")?;
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn new(model: &str, input: &str) -> Self {
        PredictiveIndexConfiguration { model: model.to_owned(), input: IndexedExpressions::sqlpp([input]), properties: None }
    }

    /// An index of the predictions of `model` for `input`, one expression of the JSON query
    /// language (`{"text": [".text"]}`).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-predictive-json-{}", std::process::id()));
    /// # let db = doclite::Database::open("predictivejson", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::PredictiveIndexConfiguration;
    /// doclite::register_model("echo", |input| Some(input.clone()))?;
    /// let collection = db.default_collection()?;
    /// collection.create_predictive_index("echo", &PredictiveIndexConfiguration::json("echo", r#"{"text": [".text"]}"#))?;
    /// assert_eq!(collection.index_names()?, ["echo"]);
    /// # doclite::unregister_model("echo")?;
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn json(model: &str, input: &str) -> Self {
        PredictiveIndexConfiguration { model: model.to_owned(), input: IndexedExpressions::json(input), properties: None }
    }

    /// An index of the predictions of `model` for a query-builder expression (Couchbase Lite's
    /// `IndexBuilder.predictiveIndex`), the input a builder query gives
    /// [`Function::prediction`](crate::Function::prediction).
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-predictive-builder-{}", std::process::id()));
    /// # let db = doclite::Database::open("predictivebuilder", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::{Expression, PredictiveIndexConfiguration};
    /// doclite::register_model("echo", |input| Some(input.clone()))?;
    /// let collection = db.default_collection()?;
    /// let input = Expression::dictionary([("text", Expression::property("text"))]);
    /// collection.create_predictive_index("echo", &PredictiveIndexConfiguration::expression("echo", input))?;
    /// assert_eq!(collection.index_names()?, ["echo"]);
    /// # doclite::unregister_model("echo")?;
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn expression(model: &str, input: impl Into<Expression>) -> Self {
        PredictiveIndexConfiguration {
            model: model.to_owned(),
            input: IndexedExpressions::builder_one(&input.into()),
            properties: None,
        }
    }

    /// Also keeps a value index on these property paths of the prediction (`"label"`,
    /// `"scores[0]"`), for queries that filter or sort on `PREDICTION(model, input, label)`.
    ///
    /// ```
    /// use doclite::PredictiveIndexConfiguration;
    /// let config = PredictiveIndexConfiguration::new("classifier", "{'photo': photo}").properties(["label", "probability"]);
    /// # let _ = config;
    /// ```
    pub fn properties<I: IntoIterator<Item = S>, S: AsRef<str>>(mut self, paths: I) -> Self {
        self.properties = Some(paths.into_iter().map(|path| path.as_ref().to_owned()).collect());
        self
    }

    pub(crate) fn with_raw<T>(&self, use_raw: impl FnOnce(sys::CBLPredictiveIndexConfiguration) -> Result<T>) -> Result<T> {
        let model = c_string(&self.model, "the model name")?;
        let (input, _) = self.input.c_strings()?;
        let properties = match &self.properties {
            None => None,
            Some(paths) => Some(c_string(&serde_json::to_string(paths)?, "the predictive index properties")?),
        };
        use_raw(sys::CBLPredictiveIndexConfiguration {
            expressionLanguage: self.input.language.raw(),
            model: model.as_ptr(),
            input: input.as_ptr(),
            properties: optional_ptr(&properties),
        })
    }
}

/// How a vector index and `APPROX_VECTOR_DISTANCE()` measure the distance between two vectors
/// (Couchbase Lite's `DistanceMetric`); smaller is nearer for every metric.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum DistanceMetric {
    /// The square of the Euclidean distance (the default).
    #[default]
    EuclideanSquared,
    /// 1 minus the cosine of the angle between the vectors.
    Cosine,
    /// The Euclidean (L2) distance.
    Euclidean,
    /// The dot product, negated.
    Dot,
}

impl DistanceMetric {
    fn raw(self) -> sys::CBLDistanceMetric {
        match self {
            DistanceMetric::EuclideanSquared => sys::kCBLDistanceMetricEuclideanSquared,
            DistanceMetric::Cosine => sys::kCBLDistanceMetricCosine,
            DistanceMetric::Euclidean => sys::kCBLDistanceMetricEuclidean,
            DistanceMetric::Dot => sys::kCBLDistanceMetricDot,
        }
    }
}

/// How a vector index compresses its vectors (Couchbase Lite's `VectorEncoding`).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum VectorEncoding {
    /// The vectors as they are (float32).
    None,
    /// Each item quantized to 4, 6 or 8 bits (8 is the default encoding).
    ScalarQuantizer(ScalarQuantizerType),
    /// Each vector cut into `subquantizers` parts (a divisor of the dimensions, 2 to 1024),
    /// each coded in `bits` bits (4 to 12).
    ProductQuantizer { subquantizers: u32, bits: u32 },
}

/// The bits a scalar quantizer codes each item in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum ScalarQuantizerType {
    SQ4,
    SQ6,
    SQ8,
}

/// A `CBLVectorEncoding`, freed when dropped.
struct RawEncoding(*mut sys::CBLVectorEncoding);

impl RawEncoding {
    fn new(encoding: VectorEncoding) -> RawEncoding {
        let lib = loaded();
        // Safety: plain constructors; the handle is freed by Drop.
        RawEncoding(unsafe {
            match encoding {
                VectorEncoding::None => lib.CBLVectorEncoding_CreateNone(),
                VectorEncoding::ScalarQuantizer(kind) => lib.CBLVectorEncoding_CreateScalarQuantizer(match kind {
                    ScalarQuantizerType::SQ4 => sys::kCBLSQ4,
                    ScalarQuantizerType::SQ6 => sys::kCBLSQ6,
                    ScalarQuantizerType::SQ8 => sys::kCBLSQ8,
                }),
                VectorEncoding::ProductQuantizer { subquantizers, bits } => {
                    lib.CBLVectorEncoding_CreateProductQuantizer(subquantizers, bits)
                }
            }
        })
    }
}

impl Drop for RawEncoding {
    fn drop(&mut self) {
        // Safety: the handle this value made, freed once.
        unsafe { loaded().CBLVectorEncoding_Free(self.0) }
    }
}

/// A vector index (Couchbase Lite 3.2's `VectorIndexConfiguration`): the vector each document
/// holds at one expression (an array of `dimensions` numbers, a Base64 string of float32s, or a
/// `PREDICTION()` computing one as the document is saved), so that
/// `APPROX_VECTOR_DISTANCE(expression, $target)` finds the nearest documents. A document whose
/// value is no such vector is left out of the index; its save never fails for it.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-vector-index-{}", std::process::id()));
/// # let db = doclite::Database::open("vectors", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// use doclite::{DistanceMetric, VectorEncoding, VectorIndexConfiguration};
/// let colors = db.create_collection("colors", None)?;
/// colors.put("red", &serde_json::json!({"color": "red", "vector": [1, 0, 0]}))?;
/// colors.put("blue", &serde_json::json!({"color": "blue", "vector": [0, 0, 1]}))?;
/// let config = VectorIndexConfiguration::new("vector", 3, 100)
///     .metric(DistanceMetric::Cosine).encoding(VectorEncoding::None).num_probes(8);
/// colors.create_vector_index("colors_index", &config)?;
/// let mut query = db.create_query("SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 1")?;
/// query.set_parameters(&serde_json::json!({"vector": [0.9, 0.1, 0.1]}))?;
/// assert_eq!(query.execute()?.next().unwrap()?.get::<String>("color")?, "red");
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Debug, Clone, PartialEq)]
pub struct VectorIndexConfiguration {
    expression: IndexedExpressions,
    dimensions: u32,
    centroids: u32,
    metric: DistanceMetric,
    encoding: Option<VectorEncoding>,
    num_probes: Option<u32>,
    min_training_size: Option<u32>,
    max_training_size: Option<u32>,
    lazy: bool,
}

impl VectorIndexConfiguration {
    /// An index on one SQL++ expression (`"vector"`), of `dimensions` items (2 to 4096), in
    /// `centroids` clusters (1 to 64000).
    pub fn new(expression: &str, dimensions: u32, centroids: u32) -> Self {
        Self::with(IndexedExpressions::sqlpp([expression]), dimensions, centroids)
    }

    /// An index on one expression of the JSON query language (`[".vector"]`).
    pub fn json(expression: &str, dimensions: u32, centroids: u32) -> Self {
        Self::with(IndexedExpressions::json(expression), dimensions, centroids)
    }

    fn with(expression: IndexedExpressions, dimensions: u32, centroids: u32) -> Self {
        VectorIndexConfiguration {
            expression,
            dimensions,
            centroids,
            metric: DistanceMetric::default(),
            encoding: None,
            num_probes: None,
            min_training_size: None,
            max_training_size: None,
            lazy: false,
        }
    }

    /// The distance metric (the default: squared Euclidean).
    pub fn metric(mut self, metric: DistanceMetric) -> Self {
        self.metric = metric;
        self
    }

    /// The encoding (the default: an 8-bit scalar quantizer).
    pub fn encoding(mut self, encoding: VectorEncoding) -> Self {
        self.encoding = Some(encoding);
        self
    }

    /// How many clusters a search looks in (1 to `centroids`).
    pub fn num_probes(mut self, probes: u32) -> Self {
        self.num_probes = Some(probes);
        self
    }

    /// The fewest vectors the index is trained on.
    pub fn min_training_size(mut self, size: u32) -> Self {
        self.min_training_size = Some(size);
        self
    }

    /// The most vectors the index is trained on.
    pub fn max_training_size(mut self, size: u32) -> Self {
        self.max_training_size = Some(size);
        self
    }

    /// Whether the application computes the vectors ([`QueryIndex::begin_update`](crate::QueryIndex::begin_update))
    /// instead of the index reading them as documents are saved.
    pub fn lazy(mut self, lazy: bool) -> Self {
        self.lazy = lazy;
        self
    }

    pub(crate) fn with_raw<T>(&self, use_raw: impl FnOnce(sys::CBLVectorIndexConfiguration) -> Result<T>) -> Result<T> {
        let (expression, _) = self.expression.c_strings()?;
        let encoding = self.encoding.map(RawEncoding::new);
        use_raw(sys::CBLVectorIndexConfiguration {
            expressionLanguage: self.expression.language.raw(),
            expression: expression.as_ptr(),
            dimensions: self.dimensions,
            centroids: self.centroids,
            isLazy: self.lazy,
            encoding: encoding.as_ref().map_or(std::ptr::null(), |raw| raw.0),
            metric: self.metric.raw(),
            minTrainingSize: self.min_training_size.unwrap_or(0),
            maxTrainingSize: self.max_training_size.unwrap_or(0),
            numProbes: self.num_probes.unwrap_or(0),
        })
    }
}
