//! Couchbase Lite's QueryBuilder in Rust style: the same types and method names in
//! snake case (`equal_to`, `greater_than_or_equal_to`), with a trailing underscore
//! where Rust reserves the word (`where_`, `as_`, `in_`, `match_`). A built query is
//! LiteCore's JSON query, compiled by the database of its data source.
//!
//! ```
//! # let dir = std::env::temp_dir().join(format!("doclite-doc-builder-{}", std::process::id()));
//! # let db = doclite::Database::open("builder", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
//! use doclite::{DataSource, Expression, Meta, Ordering, QueryBuilder, SelectResult};
//! let hotels = db.create_collection("hotels", None)?;
//! hotels.put("h1", &serde_json::json!({"type": "hotel", "name": "Grand", "city": "Paris"}))?;
//! let query = QueryBuilder::select([SelectResult::expression(Meta::id()), SelectResult::property("name")])
//!     .from(DataSource::collection(&hotels))
//!     .where_(Expression::property("type").equal_to("hotel")
//!         .and(Expression::property("city").equal_to(Expression::parameter("city"))))
//!     .order_by([Ordering::property("name").descending()])
//!     .limit(10)
//!     .build()?;
//! # let mut query = query;
//! query.set_parameters(&serde_json::json!({"city": "Paris"}))?;
//! let names: Vec<String> = query.execute()?.map(|row| row?.get("name")).collect::<Result<_, _>>()?;
//! assert_eq!(names, ["Grand"]);
//! # db.delete()?;
//! # Ok::<(), doclite::Error>(())
//! ```

use serde::Serialize;
use serde_json::{json, Value};

use crate::collection::Collection;
use crate::database::Database;
use crate::error::{Error, ErrorKind, Result};
use crate::json::{self, Target};
use crate::query::Query;

/// An expression of a query: a property, a literal, a parameter, an operator or a function.
///
/// A mistake made while building (a value serde cannot write, `from()` on a literal) is
/// carried by the expression and reported when the query is built.
#[derive(Debug, Clone, PartialEq)]
pub struct Expression(Node);

#[derive(Debug, Clone, PartialEq)]
enum Node {
    Json(Value),
    /// A document property or metadata path, which `from()` qualifies with a source alias.
    Property { alias: Option<String>, path: String },
    Error(String),
}

impl Expression {
    /// The document property at `path` (`"address.city"`, `"tags[0]"`).
    pub fn property(path: &str) -> Expression {
        Expression(Node::Property { alias: None, path: path.to_owned() })
    }

    /// The whole document.
    pub fn all() -> Expression {
        Expression::property("")
    }

    /// A literal: anything serde writes as JSON (a number, a string, a vector, a map…). A
    /// number a query cannot hold exactly (NaN, an infinity, an integer beyond `i64`) is a
    /// mistake reported by `build()`.
    pub fn value<T: Serialize + ?Sized>(value: &T) -> Expression {
        match json::write(value, "a literal", Target::Query, |checked| serde_json::to_value(checked)) {
            Ok(value) => Expression::literal(value),
            Err(error) => Expression(Node::Error(error.message().to_owned())),
        }
    }

    /// A string literal.
    pub fn string(value: &str) -> Expression {
        Expression::literal(Value::from(value))
    }

    /// An integer literal.
    pub fn int(value: i64) -> Expression {
        Expression::literal(Value::from(value))
    }

    /// A floating-point literal (finite: NaN and infinity are a mistake reported by `build()`).
    pub fn double(value: f64) -> Expression {
        Expression::value(&value)
    }

    /// A boolean literal.
    pub fn boolean(value: bool) -> Expression {
        Expression::literal(Value::from(value))
    }

    /// The JSON null literal.
    pub fn null() -> Expression {
        Expression::literal(Value::Null)
    }

    /// A date literal, `millis` milliseconds since 1970-01-01 UTC: its ISO-8601 UTC string
    /// with milliseconds (`"2024-01-10T14:31:14.000Z"`), as Couchbase Lite writes a date
    /// (couchbase-lite-C's `CBLQueryExpression_Date`), which the date functions read
    /// ([`Function::string_to_millis`], …) and which sorts as the dates do. Years 0000 to
    /// 9999, in the proleptic Gregorian calendar (ISO 8601's); a date outside them is a
    /// mistake reported by `build()`.
    ///
    /// ```
    /// use doclite::Expression;
    /// assert_eq!(Expression::date(1_704_897_074_123).to_json()?, "2024-01-10T14:31:14.123Z");
    /// assert_eq!(Expression::date(-1).to_json()?, "1969-12-31T23:59:59.999Z");
    /// // From a SystemTime:
    /// let now = std::time::SystemTime::now().duration_since(std::time::UNIX_EPOCH).unwrap();
    /// let _today = Expression::date(now.as_millis() as i64);
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn date(millis: i64) -> Expression {
        match iso8601(millis) {
            Some(text) => Expression::literal(Value::from(text)),
            None => Expression(Node::Error(format!(
                "the date {millis} ms since 1970 is outside the years 0000 to 9999 that an ISO-8601 date string holds"
            ))),
        }
    }

    /// A query parameter, set with [`Query::set_parameters`].
    pub fn parameter(name: &str) -> Expression {
        Expression(Node::Json(json!([format!("${name}")])))
    }

    /// A dictionary whose values are expressions (Couchbase Lite's `Expression.dictionary`):
    /// the input of a predictive model, say.
    ///
    /// ```
    /// use doclite::Expression;
    /// let input = Expression::dictionary([("text", Expression::property("text")), ("lang", Expression::string("en"))]);
    /// assert_eq!(input.to_json()?, serde_json::json!({"text": [".text"], "lang": "en"}));
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn dictionary<I, K, V>(entries: I) -> Expression
    where
        I: IntoIterator<Item = (K, V)>,
        K: Into<String>,
        V: Into<Expression>,
    {
        let mut members = serde_json::Map::new();
        for (key, value) in entries {
            match value.into().to_json() {
                Ok(value) => members.insert(key.into(), value),
                Err(error) => return Expression(Node::Error(error.message().to_owned())),
            };
        }
        Expression(Node::Json(Value::Object(members)))
    }

    /// The negation of a condition.
    pub fn not(condition: impl Into<Expression>) -> Expression {
        Expression::operation("NOT", [condition.into()])
    }

    /// A literal value: arrays are marked as such, so that the query language does not read them as operations.
    fn literal(value: Value) -> Expression {
        fn mark(value: Value) -> Value {
            match value {
                Value::Array(items) => {
                    Value::Array(std::iter::once(Value::from("[]")).chain(items.into_iter().map(mark)).collect())
                }
                Value::Object(map) => Value::Object(map.into_iter().map(|(key, value)| (key, mark(value))).collect()),
                other => other,
            }
        }
        Expression(Node::Json(mark(value)))
    }

    /// `[operator, operand…]`, or the first operand's error.
    fn operation(operator: &str, operands: impl IntoIterator<Item = Expression>) -> Expression {
        let mut items = vec![Value::from(operator)];
        for operand in operands {
            match operand.to_json() {
                Ok(value) => items.push(value),
                Err(error) => return Expression(Node::Error(error.message().to_owned())),
            }
        }
        Expression(Node::Json(Value::Array(items)))
    }

    /// The expression in LiteCore's JSON query language.
    pub fn to_json(&self) -> Result<Value> {
        match &self.0 {
            Node::Json(value) => Ok(value.clone()),
            Node::Property { alias, path } => Ok(json!([match (alias, path.as_str()) {
                (None, "") => ".".to_owned(),
                (None, path) => format!(".{path}"),
                (Some(alias), path) => format!(".{alias}.{path}"),
            }])),
            Node::Error(message) => Err(Error::new(ErrorKind::InvalidQuery, message.clone())),
        }
    }

    /// This property (or metadata) of the data source `alias`.
    pub fn from(self, alias: &str) -> Expression {
        match self.0 {
            Node::Property { path, .. } => Expression(Node::Property { alias: Some(alias.to_owned()), path }),
            Node::Error(message) => Expression(Node::Error(message)),
            Node::Json(value) => Expression(Node::Error(format!("from(\"{alias}\") applies to a property or Meta expression, not {value}"))),
        }
    }

    // BEGIN generated by scripts/generate-builders from codegen/query-operators.tsv
    /// a = b: `["=", a, b]` (`a`: `self`).
    pub fn equal_to(self, b: impl Into<Expression>) -> Expression { Expression::operation("=", [self, b.into()]) }
    /// a != b: `["!=", a, b]` (`a`: `self`).
    pub fn not_equal_to(self, b: impl Into<Expression>) -> Expression { Expression::operation("!=", [self, b.into()]) }
    /// a < b: `["<", a, b]` (`a`: `self`).
    pub fn less_than(self, b: impl Into<Expression>) -> Expression { Expression::operation("<", [self, b.into()]) }
    /// a <= b: `["<=", a, b]` (`a`: `self`).
    pub fn less_than_or_equal_to(self, b: impl Into<Expression>) -> Expression { Expression::operation("<=", [self, b.into()]) }
    /// a > b: `[">", a, b]` (`a`: `self`).
    pub fn greater_than(self, b: impl Into<Expression>) -> Expression { Expression::operation(">", [self, b.into()]) }
    /// a >= b: `[">=", a, b]` (`a`: `self`).
    pub fn greater_than_or_equal_to(self, b: impl Into<Expression>) -> Expression { Expression::operation(">=", [self, b.into()]) }
    /// a IS b: equal, both null or both MISSING: `["IS", a, b]` (`a`: `self`).
    pub fn is(self, b: impl Into<Expression>) -> Expression { Expression::operation("IS", [self, b.into()]) }
    /// a IS NOT b: `["IS NOT", a, b]` (`a`: `self`).
    pub fn is_not(self, b: impl Into<Expression>) -> Expression { Expression::operation("IS NOT", [self, b.into()]) }
    /// Whether a is neither null nor MISSING: `["IS VALUED", a]` (`a`: `self`).
    pub fn is_valued(self) -> Expression { Expression::operation("IS VALUED", [self]) }
    /// Whether a is null or MISSING: `["NOT", ["IS VALUED", a]]` (`a`: `self`).
    pub fn is_not_valued(self) -> Expression { Expression::operation("NOT", [Expression::operation("IS VALUED", [self])]) }
    /// a BETWEEN low AND high, both included: `["BETWEEN", a, low, high]` (`a`: `self`).
    pub fn between(self, low: impl Into<Expression>, high: impl Into<Expression>) -> Expression { Expression::operation("BETWEEN", [self, low.into(), high.into()]) }
    /// a LIKE pattern: % any run of characters, _ one character, case-sensitive: `["LIKE", a, pattern]` (`a`: `self`).
    pub fn like(self, pattern: impl Into<Expression>) -> Expression { Expression::operation("LIKE", [self, pattern.into()]) }
    /// Whether a matches the regular expression pattern (PCRE2): `["REGEXP_LIKE()", a, pattern]` (`a`: `self`).
    pub fn regex(self, pattern: impl Into<Expression>) -> Expression { Expression::operation("REGEXP_LIKE()", [self, pattern.into()]) }
    /// a + b: `["+", a, b]` (`a`: `self`).
    #[allow(clippy::should_implement_trait)] // Couchbase Lite's name; the operator would consume a borrowed operand
    pub fn add(self, b: impl Into<Expression>) -> Expression { Expression::operation("+", [self, b.into()]) }
    /// a - b: `["-", a, b]` (`a`: `self`).
    pub fn subtract(self, b: impl Into<Expression>) -> Expression { Expression::operation("-", [self, b.into()]) }
    /// a * b: `["*", a, b]` (`a`: `self`).
    pub fn multiply(self, b: impl Into<Expression>) -> Expression { Expression::operation("*", [self, b.into()]) }
    /// a / b; two integers divide as integers, the quotient truncated toward zero (7 / 2 is 3, 7.0 / 2 is 3.5), as in Couchbase Lite: `["/", a, b]` (`a`: `self`).
    pub fn divide(self, b: impl Into<Expression>) -> Expression { Expression::operation("/", [self, b.into()]) }
    /// a % b: `["%", a, b]` (`a`: `self`).
    pub fn modulo(self, b: impl Into<Expression>) -> Expression { Expression::operation("%", [self, b.into()]) }
    /// a AND b: `["AND", a, b]` (`a`: `self`).
    pub fn and(self, b: impl Into<Expression>) -> Expression { Expression::operation("AND", [self, b.into()]) }
    /// a OR b: `["OR", a, b]` (`a`: `self`).
    pub fn or(self, b: impl Into<Expression>) -> Expression { Expression::operation("OR", [self, b.into()]) }
    // END generated
    /// `self IN [values…]`.
    pub fn in_<I: IntoIterator<Item = E>, E: Into<Expression>>(self, values: I) -> Expression {
        let list = Expression::operation("[]", values.into_iter().map(Into::into));
        Expression::operation("IN", [self, list])
    }
    /// The negation of a condition (Couchbase Lite's `Expression.negated(_:)`, the same as [`Expression::not`]).
    pub fn negated(condition: impl Into<Expression>) -> Expression { Expression::not(condition) }
    /// `self` compared under `collation`.
    pub fn collate(self, collation: Collation) -> Expression {
        match self.to_json() {
            Ok(value) => Expression(Node::Json(json!(["COLLATE", collation.0, value]))),
            Err(error) => Expression(Node::Error(error.message().to_owned())),
        }
    }
}

impl From<&str> for Expression {
    /// A string literal.
    fn from(value: &str) -> Expression { Expression::string(value) }
}
impl From<String> for Expression {
    /// A string literal.
    fn from(value: String) -> Expression { Expression::string(&value) }
}
impl From<i64> for Expression {
    /// An integer literal.
    fn from(value: i64) -> Expression { Expression::int(value) }
}
impl From<i32> for Expression {
    /// An integer literal.
    fn from(value: i32) -> Expression { Expression::int(value.into()) }
}
impl From<f64> for Expression {
    /// A floating-point literal.
    fn from(value: f64) -> Expression { Expression::double(value) }
}
impl From<bool> for Expression {
    /// A boolean literal.
    fn from(value: bool) -> Expression { Expression::boolean(value) }
}

/// Document metadata: `Meta::id()`, `Meta::sequence()`… (`Meta::id().from("h")` for a source).
pub struct Meta;

impl Meta {
    /// The document ID.
    pub fn id() -> Expression { Expression::property("_id") }
    /// The sequence of the document's revision.
    pub fn sequence() -> Expression { Expression::property("_sequence") }
    /// Whether the document is deleted.
    pub fn is_deleted() -> Expression { Expression::property("_deleted") }
    /// When the document expires (milliseconds since 1970), or null.
    pub fn expiration() -> Expression { Expression::property("_expiration") }
    /// The revision ID.
    pub fn revision_id() -> Expression { Expression::property("_revisionID") }
}

/// How strings compare: `Collation::unicode().ignore_case(true)`, `Collation::ascii()`.
#[derive(Debug, Clone, PartialEq)]
pub struct Collation(Value);

impl Collation {
    /// Unicode's collation (case- and accent-sensitive unless told otherwise).
    pub fn unicode() -> Collation { Collation(json!({"UNICODE": true})) }
    /// Byte-wise ASCII comparison.
    pub fn ascii() -> Collation { Collation(json!({"UNICODE": false})) }
    /// Whether case is ignored.
    pub fn ignore_case(self, ignore: bool) -> Collation { self.with("CASE", Value::from(!ignore)) }
    /// Whether accents are ignored (Unicode only).
    pub fn ignore_accents(self, ignore: bool) -> Collation { self.with("DIAC", Value::from(!ignore)) }
    /// The locale of the Unicode collation (`"fr"`).
    pub fn locale(self, locale: &str) -> Collation { self.with("LOCALE", Value::from(locale)) }

    fn with(mut self, key: &str, value: Value) -> Collation {
        self.0[key] = value;
        self
    }
}

macro_rules! functions {
    ($( $(#[$doc:meta])* $name:ident => $op:literal ( $($arg:ident),* $(; $constant:literal)* ); )*) => {
        $( $(#[$doc])* pub fn $name($($arg: impl Into<Expression>),*) -> Expression {
            Expression::operation($op, [$($arg.into(),)* $(<Expression as From<i64>>::from($constant),)*])
        } )*
    };
}

/// The query language's functions: `Function::lower(Expression::property("name"))`.
/// [`Function::call`] reaches any function of the library by name.
pub struct Function;

impl Function {
    /// The function `name` (`"REGEXP_REPLACE"`) applied to `arguments`.
    pub fn call<I: IntoIterator<Item = Expression>>(name: &str, arguments: I) -> Expression {
        Expression::operation(&format!("{}()", name.to_uppercase()), arguments)
    }

    /// The prediction of the [registered model](crate::register_model) `model` for `input` (a
    /// [dictionary](Expression::dictionary)): `PREDICTION(model, input)`, read from a
    /// [predictive index](crate::PredictiveIndexConfiguration) of that model and input if there
    /// is one. MISSING when the model predicts nothing.
    ///
    /// ```
    /// # let dir = std::env::temp_dir().join(format!("doclite-doc-prediction-{}", std::process::id()));
    /// # let db = doclite::Database::open("prediction", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
    /// use doclite::{DataSource, Expression, Function, QueryBuilder, SelectResult};
    /// doclite::register_model("echo", |input| Some(input.clone()))?;
    /// let notes = db.default_collection()?;
    /// notes.put("n1", &serde_json::json!({"text": "hi"}))?;
    /// let input = Expression::dictionary([("text", Expression::property("text"))]);
    /// let query = QueryBuilder::select([SelectResult::expression(Function::prediction("echo", input)).as_("p")])
    ///     .from(DataSource::collection(&notes))
    ///     .build()?;
    /// assert_eq!(query.execute()?.next().unwrap()?.get::<serde_json::Value>("p")?, serde_json::json!({"text": "hi"}));
    /// # doclite::unregister_model("echo")?;
    /// # db.delete()?;
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn prediction(model: &str, input: impl Into<Expression>) -> Expression {
        Expression::operation("PREDICTION()", [Expression::string(model), input.into()])
    }

    /// The property at `path` (`"label"`) of the prediction of `model` for `input`:
    /// `PREDICTION(model, input, path)` (Couchbase Lite's `Function.prediction(…).property(path)`).
    ///
    /// ```
    /// use doclite::{Expression, Function};
    /// let input = Expression::dictionary([("photo", Expression::property("photo"))]);
    /// let label = Function::prediction_property("classifier", input, "label");
    /// assert_eq!(label.to_json()?, serde_json::json!(["PREDICTION()", "classifier", {"photo": [".photo"]}, ".label"]));
    /// # Ok::<(), doclite::Error>(())
    /// ```
    pub fn prediction_property(model: &str, input: impl Into<Expression>, path: &str) -> Expression {
        Expression::operation("PREDICTION()", [Expression::string(model), input.into(), Expression::string(&format!(".{path}"))])
    }

    functions! {
        // BEGIN generated by scripts/generate-builders from codegen/query-functions.tsv
        /// The number of rows where `a` is valued, or of all rows when `a` is omitted (aggregate). Pass [`Expression::all()`] for all rows.
        count => "COUNT()"(a);
        /// The sum (aggregate).
        sum => "SUM()"(a);
        /// The average (aggregate).
        avg => "AVG()"(a);
        /// The smallest value (aggregate).
        min => "MIN()"(a);
        /// The largest value (aggregate).
        max => "MAX()"(a);
        /// The absolute value.
        abs => "ABS()"(a);
        /// Arc cosine.
        acos => "ACOS()"(a);
        /// Arc sine.
        asin => "ASIN()"(a);
        /// Arc tangent.
        atan => "ATAN()"(a);
        /// The arc tangent of `y / x`.
        atan2 => "ATAN2()"(y, x);
        /// The smallest integer not below `a`.
        ceil => "CEIL()"(a);
        /// Cosine.
        cos => "COS()"(a);
        /// Radians to degrees.
        degrees => "DEGREES()"(a);
        /// Euler's number.
        e => "E()"();
        /// e to the power `a`.
        exp => "EXP()"(a);
        /// The largest integer not above `a`.
        floor => "FLOOR()"(a);
        /// Natural logarithm.
        ln => "LN()"(a);
        /// Base-10 logarithm.
        log => "LOG()"(a);
        /// π.
        pi => "PI()"();
        /// `base` to the power `exponent`.
        power => "POWER()"(base, exponent);
        /// Degrees to radians.
        radians => "RADIANS()"(a);
        /// Rounded to an integer.
        round => "ROUND()"(a);
        /// Rounded to `digits` decimal places.
        round_digits => "ROUND()"(a, digits);
        /// -1, 0 or 1.
        sign => "SIGN()"(a);
        /// Sine.
        sin => "SIN()"(a);
        /// Square root.
        sqrt => "SQRT()"(a);
        /// Tangent.
        tan => "TAN()"(a);
        /// Truncated to an integer.
        trunc => "TRUNC()"(a);
        /// Truncated to `digits` decimal places.
        trunc_digits => "TRUNC()"(a, digits);
        /// Whether string `a` contains `substring`.
        contains => "CONTAINS()"(a, substring);
        /// The length of a string.
        length => "LENGTH()"(a);
        /// Lower case.
        lower => "LOWER()"(a);
        /// Upper case.
        upper => "UPPER()"(a);
        /// Without leading white space.
        ltrim => "LTRIM()"(a);
        /// Without trailing white space.
        rtrim => "RTRIM()"(a);
        /// Without leading and trailing white space.
        trim => "TRIM()"(a);
        /// An ISO-8601 date string as milliseconds since 1970.
        string_to_millis => "STR_TO_MILLIS()"(a);
        /// An ISO-8601 date string in UTC.
        string_to_utc => "STR_TO_UTC()"(a);
        /// Milliseconds since 1970 as a local ISO-8601 string.
        millis_to_string => "MILLIS_TO_STR()"(a);
        /// Milliseconds since 1970 as an ISO-8601 string in UTC.
        millis_to_utc => "MILLIS_TO_UTC()"(a);
        /// The Euclidean distance between the vectors (arrays of numbers) `a` and `b`; MISSING unless both are arrays of one length.
        euclidean_distance => "EUCLIDEAN_DISTANCE()"(a, b);
        /// The square of the Euclidean distance between the vectors `a` and `b`, cheaper to compute and in the same order.
        squared_euclidean_distance => "EUCLIDEAN_DISTANCE()"(a, b; 2);
        /// 1 minus the cosine of the angle between the vectors `a` and `b`; MISSING unless both are arrays of one length, neither all zeros.
        cosine_distance => "COSINE_DISTANCE()"(a, b);
        /// The distance from the vector `a` (a property, or the expression of a vector index) to `target` by the index's metric (squared Euclidean without one), found with the vector index on `a` when there is one (a query ordering by it needs a LIMIT of at most 10,000 unless its WHERE filters on other properties).
        approx_vector_distance => "APPROX_VECTOR_DISTANCE()"(a, target);
        /// The distance by `metric`, a string: `"euclidean_squared"`, `"euclidean"`, `"cosine"` or `"dot"` (any case), which must be the vector index's.
        approx_vector_distance_metric => "APPROX_VECTOR_DISTANCE()"(a, target, metric);
        // END generated
    }
}

/// Functions of arrays: `ArrayFunction::contains(Expression::property("tags"), "pool")`.
pub struct ArrayFunction;

impl ArrayFunction {
    functions! {
        // BEGIN generated by scripts/generate-builders from codegen/query-functions.tsv: ArrayFunction
        /// Whether the array `array` holds `value`.
        contains => "ARRAY_CONTAINS()"(array, value);
        /// The number of items of the array `array`.
        length => "ARRAY_LENGTH()"(array);
        // END generated
    }
}

/// ANY / EVERY over an array: `ArrayExpression::any("like").in_(Expression::property("public_likes"))
/// .satisfies(ArrayExpression::variable("like").equal_to("Maureen"))`.
pub struct ArrayExpression;

/// A quantifier waiting for its array ([`ArrayExpression::any`]).
#[derive(Debug, Clone)]
pub struct ArrayExpressionIn {
    quantifier: &'static str,
    variable: String,
}

/// A quantifier waiting for its condition.
#[derive(Debug, Clone)]
pub struct ArrayExpressionSatisfies {
    quantifier: &'static str,
    variable: String,
    array: Expression,
}

impl ArrayExpression {
    /// The variable `name`, inside a `satisfies` condition.
    pub fn variable(name: &str) -> Expression {
        Expression(Node::Json(json!([format!("?{name}")])))
    }
    /// True when some item satisfies the condition.
    pub fn any(variable: &str) -> ArrayExpressionIn { ArrayExpressionIn { quantifier: "ANY", variable: variable.into() } }
    /// True when every item satisfies the condition (also for an empty array).
    pub fn every(variable: &str) -> ArrayExpressionIn { ArrayExpressionIn { quantifier: "EVERY", variable: variable.into() } }
    /// True when the array is not empty and every item satisfies the condition.
    pub fn any_and_every(variable: &str) -> ArrayExpressionIn {
        ArrayExpressionIn { quantifier: "ANY AND EVERY", variable: variable.into() }
    }
}

impl ArrayExpressionIn {
    /// The array the variable runs over.
    pub fn in_(self, array: impl Into<Expression>) -> ArrayExpressionSatisfies {
        ArrayExpressionSatisfies { quantifier: self.quantifier, variable: self.variable, array: array.into() }
    }
}

impl ArrayExpressionSatisfies {
    /// The condition on each item.
    pub fn satisfies(self, condition: impl Into<Expression>) -> Expression {
        let variable = Expression(Node::Json(Value::from(self.variable)));
        Expression::operation(self.quantifier, [variable, self.array, condition.into()])
    }
}

/// Full-text search: `FullTextFunction::match_("descIndex", "pool")`, `FullTextFunction::rank("descIndex")`.
pub struct FullTextFunction;

impl FullTextFunction {
    /// Whether a document's text in full-text index `index` matches `query`.
    pub fn match_(index: &str, query: &str) -> Expression {
        Expression(Node::Json(json!(["MATCH()", index, query])))
    }
    /// How well the document matched (for ORDER BY).
    pub fn rank(index: &str) -> Expression {
        Expression(Node::Json(json!(["RANK()", index])))
    }
}

/// `millis` since 1970 as an ISO-8601 UTC date string with milliseconds
/// (`2024-01-10T14:31:14.000Z`), in the proleptic Gregorian calendar; `None` outside the
/// years 0000 to 9999.
fn iso8601(millis: i64) -> Option<String> {
    const DAY: i64 = 86_400_000;
    /// 0000-01-01T00:00:00.000Z and 9999-12-31T23:59:59.999Z.
    const FIRST: i64 = -62_167_219_200_000;
    const LAST: i64 = 253_402_300_799_999;
    if !(FIRST..=LAST).contains(&millis) {
        return None;
    }
    let (days, time) = (millis.div_euclid(DAY), millis.rem_euclid(DAY));
    // The civil date of a day number (Howard Hinnant's `civil_from_days`): eras of 400
    // years (146,097 days) from 0000-03-01, years starting in March so that the leap day ends them.
    let shifted = days + 719_468;
    let (era, day_of_era) = (shifted.div_euclid(146_097), shifted.rem_euclid(146_097));
    let year_of_era = (day_of_era - day_of_era / 1460 + day_of_era / 36_524 - day_of_era / 146_096) / 365;
    let day_of_year = day_of_era - (365 * year_of_era + year_of_era / 4 - year_of_era / 100);
    let month_from_march = (5 * day_of_year + 2) / 153;
    let day = day_of_year - (153 * month_from_march + 2) / 5 + 1;
    let month = if month_from_march < 10 { month_from_march + 3 } else { month_from_march - 9 };
    let year = era * 400 + year_of_era + i64::from(month <= 2);
    Some(format!(
        "{year:04}-{month:02}-{day:02}T{:02}:{:02}:{:02}.{:03}Z",
        time / 3_600_000,
        time / 60_000 % 60,
        time / 1000 % 60,
        time % 1000
    ))
}

/// An expression where LiteCore's JSON query language reads a bare string as a property
/// path (a result without an alias, a GROUP BY or ORDER BY item): a string literal there is
/// written `["CONCAT()", text, ""]`, the same string, as DocLite writes it.
fn in_shorthand_position(value: Value) -> Value {
    match value {
        Value::String(text) => json!(["CONCAT()", text, ""]),
        other => other,
    }
}

/// A result column: `SelectResult::property("name")`, `SelectResult::expression(e).as_("n")`, `SelectResult::all()`.
#[derive(Debug, Clone, PartialEq)]
pub struct SelectResult {
    expression: Expression,
    alias: Option<String>,
}

impl SelectResult {
    /// The property at `path`.
    pub fn property(path: &str) -> SelectResult { SelectResult::expression(Expression::property(path)) }
    /// Any expression.
    pub fn expression(expression: impl Into<Expression>) -> SelectResult { SelectResult { expression: expression.into(), alias: None } }
    /// The whole document (of the only source; `.from(alias)` for one of several).
    pub fn all() -> SelectResult { SelectResult::expression(Expression::all()) }
    /// The result read from the data source `alias` (for `all()` and properties).
    pub fn from(self, alias: &str) -> SelectResult { SelectResult { expression: self.expression.from(alias), alias: self.alias } }
    /// The column's title.
    pub fn as_(self, alias: &str) -> SelectResult { SelectResult { alias: Some(alias.to_owned()), ..self } }

    fn to_json(&self) -> Result<Value> {
        let value = self.expression.to_json()?;
        Ok(match &self.alias {
            Some(alias) => json!(["AS", value, alias]),
            None => in_shorthand_position(value),
        })
    }
}

/// A collection to read: `DataSource::collection(&hotels).as_("h")`, or
/// `DataSource::database(&db)` for its default collection under the database's name.
#[derive(Debug, Clone)]
pub struct DataSource {
    database: Database,
    name: String,
    alias: Option<String>,
}

impl DataSource {
    /// The collection.
    pub fn collection(collection: &Collection) -> DataSource {
        DataSource { database: collection.database().clone(), name: collection.full_name(), alias: None }
    }
    /// The database's default collection.
    pub fn database(database: &Database) -> DataSource {
        DataSource { database: database.clone(), name: database.name().to_owned(), alias: None }
    }
    /// The name the query gives the source.
    pub fn as_(self, alias: &str) -> DataSource { DataSource { alias: Some(alias.to_owned()), ..self } }

    fn to_json(&self) -> Value {
        let mut source = json!({"COLLECTION": self.name});
        if let Some(alias) = &self.alias {
            source["AS"] = Value::from(alias.as_str());
        }
        source
    }
}

/// A join: `Join::inner_join(DataSource…).on(condition)`, `left_outer_join`, `cross_join`.
#[derive(Debug, Clone)]
pub struct Join {
    kind: &'static str,
    source: DataSource,
    condition: Option<Expression>,
}

impl Join {
    /// An inner join.
    #[allow(clippy::self_named_constructors)] // Couchbase Lite's `Join.join(_:)`
    pub fn join(source: DataSource) -> Join { Join { kind: "INNER", source, condition: None } }
    /// An inner join.
    pub fn inner_join(source: DataSource) -> Join { Join::join(source) }
    /// A left outer join.
    pub fn left_join(source: DataSource) -> Join { Join { kind: "LEFT OUTER", source, condition: None } }
    /// A left outer join.
    pub fn left_outer_join(source: DataSource) -> Join { Join::left_join(source) }
    /// A cross join (no condition).
    pub fn cross_join(source: DataSource) -> Join { Join { kind: "CROSS", source, condition: None } }
    /// The join's condition.
    pub fn on(self, condition: impl Into<Expression>) -> Join { Join { condition: Some(condition.into()), ..self } }

    fn to_json(&self) -> Result<Value> {
        let mut item = self.source.to_json();
        item["JOIN"] = Value::from(self.kind);
        if let Some(condition) = &self.condition {
            item["ON"] = condition.to_json()?;
        }
        Ok(item)
    }
}

/// An ordering: `Ordering::property("name").descending()`, `Ordering::expression(e)`.
#[derive(Debug, Clone, PartialEq)]
pub struct Ordering {
    expression: Expression,
    descending: bool,
}

impl Ordering {
    /// By the property at `path`, ascending.
    pub fn property(path: &str) -> Ordering { Ordering::expression(Expression::property(path)) }
    /// By an expression, ascending.
    pub fn expression(expression: impl Into<Expression>) -> Ordering { Ordering { expression: expression.into(), descending: false } }
    /// Ascending.
    pub fn ascending(self) -> Ordering { Ordering { descending: false, ..self } }
    /// Descending.
    pub fn descending(self) -> Ordering { Ordering { descending: true, ..self } }

    fn to_json(&self) -> Result<Value> {
        let value = in_shorthand_position(self.expression.to_json()?);
        Ok(if self.descending { json!(["DESC", value]) } else { value })
    }
}

/// Where queries start: `QueryBuilder::select([…]).from(DataSource::collection(&c))`.
pub struct QueryBuilder;

impl QueryBuilder {
    /// SELECT these results (none: the whole document).
    pub fn select<I: IntoIterator<Item = SelectResult>>(results: I) -> Select {
        Select { results: results.into_iter().collect(), distinct: false }
    }

    /// SELECT DISTINCT these results.
    pub fn select_distinct<I: IntoIterator<Item = SelectResult>>(results: I) -> Select {
        Select { results: results.into_iter().collect(), distinct: true }
    }
}

/// The SELECT clause, waiting for its data source.
#[derive(Debug, Clone)]
pub struct Select {
    results: Vec<SelectResult>,
    distinct: bool,
}

impl Select {
    /// FROM `source`.
    pub fn from(self, source: DataSource) -> BuilderQuery {
        BuilderQuery {
            select: self,
            source,
            joins: Vec::new(),
            condition: None,
            group_by: Vec::new(),
            having: None,
            order_by: Vec::new(),
            limit: None,
            offset: None,
        }
    }
}

/// A query being built; [`build`](BuilderQuery::build) compiles it.
#[derive(Debug, Clone)]
pub struct BuilderQuery {
    select: Select,
    source: DataSource,
    joins: Vec<Join>,
    condition: Option<Expression>,
    group_by: Vec<Expression>,
    having: Option<Expression>,
    order_by: Vec<Ordering>,
    limit: Option<Expression>,
    offset: Option<Expression>,
}

impl BuilderQuery {
    /// Adds joins after those added before.
    pub fn join<I: IntoIterator<Item = Join>>(mut self, joins: I) -> Self {
        self.joins.extend(joins);
        self
    }
    /// WHERE `condition`.
    pub fn where_(self, condition: impl Into<Expression>) -> Self { BuilderQuery { condition: Some(condition.into()), ..self } }
    /// GROUP BY these expressions.
    pub fn group_by<I: IntoIterator<Item = Expression>>(self, expressions: I) -> Self {
        BuilderQuery { group_by: expressions.into_iter().collect(), ..self }
    }
    /// HAVING `condition` (with GROUP BY).
    pub fn having(self, condition: impl Into<Expression>) -> Self { BuilderQuery { having: Some(condition.into()), ..self } }
    /// ORDER BY these orderings.
    pub fn order_by<I: IntoIterator<Item = Ordering>>(self, orderings: I) -> Self {
        BuilderQuery { order_by: orderings.into_iter().collect(), ..self }
    }
    /// LIMIT `limit` (an integer or a parameter).
    pub fn limit(self, limit: impl Into<Expression>) -> Self { BuilderQuery { limit: Some(limit.into()), offset: None, ..self } }
    /// LIMIT `limit` OFFSET `offset`.
    pub fn limit_offset(self, limit: impl Into<Expression>, offset: impl Into<Expression>) -> Self {
        BuilderQuery { limit: Some(limit.into()), offset: Some(offset.into()), ..self }
    }

    /// The query in LiteCore's JSON query language; a mistake made while building is an
    /// [`ErrorKind::InvalidQuery`] error.
    pub fn to_json(&self) -> Result<Value> {
        let what = self.select.results.iter().map(SelectResult::to_json).collect::<Result<Vec<_>>>()?;
        let mut from = vec![self.source.to_json()];
        for join in &self.joins {
            from.push(join.to_json()?);
        }
        let mut query = json!({"WHAT": what, "FROM": from});
        if self.select.distinct {
            query["DISTINCT"] = Value::from(true);
        }
        let clauses = [("WHERE", &self.condition), ("HAVING", &self.having), ("LIMIT", &self.limit), ("OFFSET", &self.offset)];
        for (clause, expression) in clauses {
            if let Some(expression) = expression {
                query[clause] = expression.to_json()?;
            }
        }
        if !self.group_by.is_empty() {
            let items = self.group_by.iter().map(|item| item.to_json().map(in_shorthand_position));
            query["GROUP_BY"] = Value::Array(items.collect::<Result<_>>()?);
        }
        if !self.order_by.is_empty() {
            query["ORDER_BY"] = Value::Array(self.order_by.iter().map(Ordering::to_json).collect::<Result<_>>()?);
        }
        Ok(query)
    }

    /// Compiles the query, in the database of its data source.
    pub fn build(&self) -> Result<Query> {
        self.source.database.create_json_query(&self.to_json()?.to_string())
    }
}
