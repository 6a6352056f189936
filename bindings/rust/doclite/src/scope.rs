//! [`Scope`]: a namespace of collections in a database.

use doclite_sys as sys;

use crate::collection::Collection;
use crate::database::Database;
use crate::error::Result;
use crate::ffi::{self, c_string, loaded, optional_handle, owned_string, Handle};

/// A scope of a database: a namespace of collections (Couchbase Lite's `Scope`), from
/// [`Database::default_scope`], [`Database::scope`], [`Database::scopes`] or
/// [`Collection::scope`]. A scope exists while it holds a collection (`_default` always).
///
/// Cloning gives another reference to it; it may be used from several threads at once,
/// and keeps its database open while it lives.
///
/// ```
/// # let dir = std::env::temp_dir().join(format!("doclite-doc-scope-{}", std::process::id()));
/// # let db = doclite::Database::open("scope", &doclite::DatabaseConfiguration::in_directory(&dir)).unwrap();
/// db.create_collection("hotels", Some("inventory"))?;
/// db.create_collection("airlines", Some("inventory"))?;
/// let inventory = db.scope("inventory")?.expect("it holds collections");
/// let mut names = inventory.collection_names()?;
/// names.sort();
/// assert_eq!(names, ["airlines", "hotels"]);
/// let hotels = inventory.collection("hotels")?.expect("created above");
/// assert_eq!(hotels.full_name(), "inventory.hotels");
/// assert!(inventory.collection("cars")?.is_none());
/// # db.delete()?;
/// # Ok::<(), doclite::Error>(())
/// ```
#[derive(Clone)]
pub struct Scope {
    handle: Handle<sys::CBLScope>,
    database: Database,
}

// Safety: a scope handle names its scope; its calls read the database's collections, which
// the C API allows from several threads at once.
unsafe impl Send for Scope {}
unsafe impl Sync for Scope {}

impl Scope {
    pub(crate) fn new(handle: Handle<sys::CBLScope>, database: Database) -> Scope {
        Scope { handle, database }
    }

    /// The database the scope belongs to.
    pub fn database(&self) -> &Database {
        &self.database
    }

    /// The scope's name.
    pub fn name(&self) -> &str {
        // Safety: the name lives as long as the handle `self` holds.
        unsafe { ffi::borrow_str(loaded().CBLScope_Name(self.handle.as_ptr())) }.unwrap_or_default()
    }

    /// The names of the scope's collections.
    pub fn collection_names(&self) -> Result<Vec<String>> {
        // Safety: a live handle.
        let names = owned_string(|error| unsafe { loaded().CBLScope_CollectionNames(self.handle.as_ptr(), error) })?;
        Ok(serde_json::from_str(&names)?)
    }

    /// The collection `name` of the scope, or `None` when there is none.
    pub fn collection(&self, name: &str) -> Result<Option<Collection>> {
        let name = c_string(name, "the collection name")?;
        // Safety: a live handle; the name outlives the call; the collection comes back +1.
        let handle = optional_handle(|error| unsafe { loaded().CBLScope_Collection(self.handle.as_ptr(), name.as_ptr(), error) })?;
        Ok(handle.map(|handle| Collection::new(handle, self.database.clone())))
    }

    /// The scope's collections, by name.
    pub fn collections(&self) -> Result<Vec<Collection>> {
        let mut collections = Vec::new();
        for name in self.collection_names()? {
            // (A collection deleted meanwhile is left out.)
            collections.extend(self.collection(&name)?);
        }
        Ok(collections)
    }
}

impl std::fmt::Debug for Scope {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Scope").field("name", &self.name()).finish()
    }
}
