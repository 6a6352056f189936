//! A database in a folder of its own, deleted with the value.

use std::path::PathBuf;

use doclite::{Database, DatabaseConfiguration};

/// An open database in a new temporary folder; dropping it deletes both.
pub struct TestDatabase {
    pub db: Database,
    directory: PathBuf,
}

impl TestDatabase {
    /// A new database named `name`, in a folder no other test uses.
    pub fn new(name: &str) -> TestDatabase {
        let directory = std::env::temp_dir().join(format!("doclite-rust-{}-{name}", std::process::id()));
        let _ = std::fs::remove_dir_all(&directory);
        let db = Database::open(name, &DatabaseConfiguration::in_directory(&directory)).expect("the test database opens");
        TestDatabase { db, directory }
    }

    #[allow(dead_code)] // (not every test file uses it)
    pub fn directory(&self) -> &std::path::Path {
        &self.directory
    }
}

impl std::ops::Deref for TestDatabase {
    type Target = Database;
    fn deref(&self) -> &Database {
        &self.db
    }
}

impl Drop for TestDatabase {
    fn drop(&mut self) {
        let _ = self.db.close();
        let _ = std::fs::remove_dir_all(&self.directory);
    }
}
