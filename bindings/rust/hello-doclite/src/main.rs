//! A program that depends on the `doclite` crate and nothing else: it saves two
//! hotels in a database in the folder given as its argument, runs a SQL++ query and
//! prints the rows. Its binary runs as built, with no library path set.

use doclite::{Database, DatabaseConfiguration};
use serde_json::json;

fn main() -> Result<(), doclite::Error> {
    let directory = std::env::args().nth(1).expect("usage: hello-doclite DIRECTORY");
    let db = Database::open("hello", &DatabaseConfiguration::in_directory(&directory))?;
    let hotels = db.create_collection("hotels", None)?;
    hotels.save_many([
        ("h1", json!({"name": "Grand", "rooms": 120})),
        ("h2", json!({"name": "Inn", "rooms": 8})),
    ])?;
    let query = db.create_query("SELECT name, rooms FROM hotels ORDER BY rooms DESC")?;
    for row in query.execute()? {
        let row = row?;
        println!("{} {}", row.get::<String>("name")?, row.get::<i64>("rooms")?);
    }
    println!("DocLite {}", doclite::version()?);
    db.delete()
}
