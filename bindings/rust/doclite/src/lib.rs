//! DocLite for Rust: an embedded JSON document database with Couchbase Lite's data
//! model and queries (SQL++ for Mobile, LiteCore's JSON query language and the
//! QueryBuilder), stored in SQLite.
//!
//! ```
//! use doclite::{Database, DatabaseConfiguration};
//! use serde::{Deserialize, Serialize};
//!
//! #[derive(Serialize, Deserialize, Debug, PartialEq)]
//! struct Hotel { name: String, city: String, rooms: u32 }
//!
//! # let dir = std::env::temp_dir().join(format!("doclite-doc-crate-{}", std::process::id()));
//! let db = Database::open("travel", &DatabaseConfiguration::in_directory(&dir))?;
//! let hotels = db.create_collection("hotels", Some("inventory"))?;
//! hotels.put("h1", &Hotel { name: "Grand".into(), city: "Paris".into(), rooms: 120 })?;
//! hotels.put("h2", &Hotel { name: "Inn".into(), city: "Lyon".into(), rooms: 8 })?;
//!
//! let hotel: Hotel = hotels.get("h1")?.expect("saved above");
//! assert_eq!(hotel.rooms, 120);
//!
//! let mut query = db.create_query(
//!     "SELECT name, city FROM inventory.hotels WHERE rooms >= $min ORDER BY name")?;
//! query.set_parameters(&serde_json::json!({"min": 100}))?;
//! for row in query.execute()? {
//!     let row = row?;
//!     println!("{} in {}", row.get::<String>("name")?, row.get::<String>(1)?);
//! }
//! // Or each row straight into a type: by column title, or a tuple by position.
//! #[derive(Deserialize)]
//! struct Listing { name: String, city: String }
//! for listing in query.execute()?.rows::<Listing>() {
//!     let listing = listing?;
//!     assert_eq!((listing.name.as_str(), listing.city.as_str()), ("Grand", "Paris"));
//! }
//! # db.delete()?;
//! # Ok::<(), doclite::Error>(())
//! ```
//!
//! Every handle is reference-counted by DocLite and released when its Rust value is
//! dropped; nothing needs freeing by hand. Errors are [`Error`] values with DocLite's
//! code and message, never panics. [`Database`], [`Scope`] and [`Collection`] may be shared
//! between threads; a [`Transaction`] stays on the thread that began it.
//!
//! Binary content (an image, a file) goes in a [`Blob`], which a document refers to by its
//! metadata and the database stores once per digest; a [`BlobReader`] streams it back.

mod blob;
mod boundary;
mod builder;
mod collection;
mod conformance;
mod database;
mod document;
mod error;
mod ffi;
mod index;
mod index_updater;
mod json;
mod listener;
mod notifications;
mod predicate;
mod prediction;
mod progress;
mod query;
mod registry;
mod replicator;
mod rows;
mod scope;

pub use blob::{Blob, BlobReader};
pub use builder::{
    ArrayExpression, ArrayExpressionIn, ArrayExpressionSatisfies, ArrayFunction, BuilderQuery, Collation, DataSource,
    Expression, FullTextFunction, Function, Join, Meta, Ordering, QueryBuilder, Select, SelectResult,
};
pub use collection::{Collection, ConcurrencyControl};
#[doc(hidden)]
pub use conformance::run_conformance;
pub use database::{Database, DatabaseConfiguration, MaintenanceType, Transaction};
pub use document::Document;
pub use error::{Error, ErrorKind, Result};
pub use index::{
    ArrayIndexConfiguration, DistanceMetric, FullTextIndexConfiguration, PredictiveIndexConfiguration, ScalarQuantizerType,
    ValueIndexConfiguration, VectorEncoding, VectorIndexConfiguration,
};
pub use index_updater::{IndexUpdater, QueryIndex};
pub use listener::{CollectionChange, ListenerToken};
pub use predicate::PredicateQueryBuilder;
pub use prediction::{register_model, unregister_model};
pub use query::{ColumnIndex, DeserializedRows, Interrupter, Query, QueryChange, ResultSet, Row};
pub use replicator::{
    initialize_server, ActivityLevel, ConflictResolver, DocumentFlags, ReplicatedDocument, ReplicationFilter, Replicator, ReplicatorOptions,
    ReplicatorStatus, ReplicatorType, Resolution,
};
pub use scope::Scope;

/// The version of the loaded DocLite library (`"0.1.0"`).
pub fn version() -> Result<String> {
    let lib = ffi::lib()?;
    // Safety: the version string is static in the library.
    Ok(unsafe { ffi::copy_string(lib.CBL_Version()) }.unwrap_or_default())
}

/// The number of live DocLite handles of every type (for leak tests): back to its
/// starting value once every database, document, query and token is dropped.
pub fn instance_count() -> Result<u64> {
    // Safety: no arguments.
    Ok(unsafe { ffi::lib()?.CBL_InstanceCount() })
}
