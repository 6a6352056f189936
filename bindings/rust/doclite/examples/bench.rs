//! The standard benchmark's insert and iteration (100,000 hotels of
//! `../shared/bench`) through the safe crate, next to the same loops written in C
//! against the header (`bench_loops.c`, compiled here) and the C loop's iteration
//! made from Rust through `doclite-sys` (the raw calls), in the same run, rounds
//! interleaved; prints the medians and the ratio Rust ÷ C, and the C iteration
//! next to relational SQLite reading the same five columns from a table (C ÷ R).
//!
//! ```sh
//! cd bindings/rust
//! cargo --config debian-registry.toml run --offline --release --example bench -- --rounds 5
//! ```

use std::path::{Path, PathBuf};
use std::process::Command;
use std::time::Instant;

use std::ffi::{CStr, CString};

use doclite::{Database, DatabaseConfiguration, Document};
use doclite_sys as sys;
use serde::{Deserialize, Serialize};

/// A hotel of the standard data.
#[derive(Serialize, Deserialize)]
struct Hotel {
    #[serde(rename = "type")]
    kind: String,
    name: String,
    city: String,
    rating: f64,
    price: i64,
    tags: Vec<String>,
    description: String,
    address: Address,
}

#[derive(Serialize, Deserialize)]
struct Address {
    street: String,
    zip: String,
}

/// The five columns the iteration reads, by title.
#[derive(Deserialize)]
struct Listing {
    name: String,
    city: String,
    price: i64,
    rating: f64,
    #[serde(rename = "type")]
    kind: String,
}

/// The iteration's query, the same in C.
const QUERY: &str = "SELECT name, city, price, rating, type FROM _";

type Outcome<T> = Result<T, Box<dyn std::error::Error>>;

fn main() -> Outcome<()> {
    let (mut rounds, mut count) = (5, 100_000);
    let arguments: Vec<String> = std::env::args().skip(1).collect();
    for pair in arguments.chunks(2) {
        match (pair[0].as_str(), pair.get(1).map(|value| value.parse::<usize>())) {
            ("--rounds", Some(Ok(value))) => rounds = value,
            ("--docs", Some(Ok(value))) => count = value,
            _ => return Err("usage: bench [--rounds N] [--docs N]".into()),
        }
    }
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../../..").canonicalize()?;
    let data = standard_hotels(&root, count)?;
    let lines: Vec<String> = std::fs::read_to_string(&data)?.lines().map(str::to_owned).collect();
    let hotels = lines.iter().map(|line| serde_json::from_str(line)).collect::<Result<Vec<Hotel>, _>>()?;
    let work = std::env::temp_dir().join(format!("doclite-rust-bench-{}", std::process::id()));
    std::fs::create_dir_all(&work)?;
    let loops = compile_c_loops(&work)?;

    let names = [
        "insert C",
        "insert Rust",
        "insert Rust save_many",
        "insert Rust put",
        "iterate C",
        "iterate raw doclite-sys",
        "iterate Rust rows::<T>()",
        "iterate Rust Row::get",
        "iterate relational SQLite (R)",
    ];
    let mut times: Vec<Vec<f64>> = vec![Vec::new(); names.len()];
    for _ in 0..rounds {
        let (c_dir, rust_dir) = (fresh(&work, "c")?, fresh(&work, "rust")?);
        let (many_dir, put_dir) = (fresh(&work, "many")?, fresh(&work, "put")?);
        times[0].push(run_c(&loops, &["insert", data.to_str().unwrap(), c_dir.to_str().unwrap()], count)?);
        times[1].push(insert_each(&rust_dir, &hotels)?);
        times[2].push(insert_many(&many_dir, &hotels)?);
        times[3].push(insert_put(&put_dir, &hotels)?);
        times[4].push(run_c(&loops, &["iterate", c_dir.to_str().unwrap()], count)?);
        times[5].push(iterate_raw(&rust_dir, count)?);
        times[6].push(iterate_typed(&rust_dir, count)?);
        times[7].push(iterate_rows(&rust_dir, count)?);
        let r_dir = fresh(&work, "r")?;
        times[8].push(run_c(&loops, &["relational", data.to_str().unwrap(), r_dir.to_str().unwrap()], count)?);
    }
    std::fs::remove_dir_all(&work)?;

    let median: Vec<f64> = times.iter_mut().map(|values| {
        values.sort_by(f64::total_cmp);
        values[values.len() / 2]
    }).collect();
    println!("DocLite from Rust: {count} hotels, {rounds} rounds, medians of wall time (ms)\n");
    println!("| scenario | C loop | Rust | Rust ÷ C | goal |");
    println!("|---|---|---|---|---|");
    let row = |name: &str, c: f64, rust: f64, goal: &str| {
        println!("| {name} | {:.1} | {:.1} | {:.2}× | {goal} |", c * 1e3, rust * 1e3, rust / c);
    };
    row("insert, a `Document` per call (one transaction)", median[0], median[1], "≤ 1.15×");
    row("insert, `put` per document (one transaction)", median[0], median[3], "≤ 1.15×");
    row("insert, `save_many` (one transaction)", median[0], median[2], "≤ 1.15×");
    row(&format!("iterate {count} rows of five columns: raw doclite-sys calls (the C loop's)"), median[4], median[5], "");
    row(&format!("iterate {count} rows of five columns: `rows::<T>()`"), median[4], median[6], "≤ 1.1×");
    row(&format!("iterate {count} rows of five columns: `Row::get` per column"), median[4], median[7], "≤ 1.1×");
    println!("\nIteration through the crate ÷ the raw doclite-sys calls: rows::<T>() {:.2}×, Row::get {:.2}×",
             median[6] / median[5], median[7] / median[5]);
    println!("C iteration {:.1} ms; relational SQLite (sqlite3_step + sqlite3_column_* over a table of the five columns) {:.1} ms: \
              C ÷ R {:.2}× (goal ≤ 1.2×)", median[4] * 1e3, median[8] * 1e3, median[4] / median[8]);
    for (name, values) in names.iter().zip(&times) {
        let listed: Vec<String> = values.iter().map(|v| format!("{:.1}", v * 1e3)).collect();
        println!("{name}: {}", listed.join(" "));
    }
    Ok(())
}

/// The standard data, generated by `../shared/bench/gen_hotels.py` when absent.
fn standard_hotels(root: &Path, count: usize) -> Outcome<PathBuf> {
    let data = root.join(format!("Benchmarks/data/hotels_{count}.jsonl"));
    if !data.exists() {
        let generator = root.join("../shared/bench/gen_hotels.py");
        if !generator.exists() {
            return Err(format!("skipped: {} not found (the standard data comes from it)", generator.display()).into());
        }
        std::fs::create_dir_all(data.parent().unwrap())?;
        let status = Command::new("python3").arg(&generator).arg(count.to_string()).arg(&data).status()?;
        if !status.success() {
            return Err(format!("{} failed", generator.display()).into());
        }
    }
    Ok(data)
}

/// `bench_loops.c` compiled against the header and the library the crate loads.
fn compile_c_loops(work: &Path) -> Outcome<PathBuf> {
    let include = Path::new(doclite_sys::HEADER_PATH).parent().unwrap();
    let library = Path::new(doclite_sys::BUILD_LIBRARY_PATH).parent().unwrap();
    let binary = work.join("bench_loops");
    let status = Command::new("cc")
        .args(["-O2", "-o"])
        .arg(&binary)
        .arg(Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/bench_loops.c"))
        .arg(format!("-I{}", include.display()))
        .arg(format!("-L{}", library.display()))
        .arg(format!("-Wl,-rpath,{}", library.display()))
        .arg("-ldoclite")
        .arg("-lsqlite3")
        .status()?;
    if !status.success() {
        return Err("compiling bench_loops.c failed".into());
    }
    Ok(binary)
}

fn fresh(work: &Path, name: &str) -> Outcome<PathBuf> {
    let dir = work.join(name);
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir)?;
    Ok(dir)
}

/// Runs the C loop; it prints its seconds and the documents or rows it handled.
fn run_c(loops: &Path, arguments: &[&str], expected: usize) -> Outcome<f64> {
    let output = Command::new(loops).args(arguments).output()?;
    let text = String::from_utf8(output.stdout)?;
    let mut fields = text.split_whitespace();
    match (output.status.success(), fields.next().map(str::parse::<f64>), fields.next().map(str::parse::<usize>)) {
        (true, Some(Ok(seconds)), Some(Ok(n))) if n == expected => Ok(seconds),
        _ => Err(format!("bench_loops {arguments:?}: {text} {}", String::from_utf8_lossy(&output.stderr)).into()),
    }
}

fn open(dir: &Path) -> doclite::Result<Database> {
    Database::open("bench", &DatabaseConfiguration::in_directory(dir))
}

/// The C loop's work through the crate: a `Document` per hotel, saved, in one transaction.
fn insert_each(dir: &Path, hotels: &[Hotel]) -> Outcome<f64> {
    let db = open(dir)?;
    let collection = db.default_collection()?;
    let start = Instant::now();
    db.in_batch(|| {
        for (i, hotel) in hotels.iter().enumerate() {
            let mut document = Document::with_id(&format!("doc-{i:08}"))?;
            document.set_properties(hotel)?;
            collection.save(&mut document)?;
        }
        Ok::<_, doclite::Error>(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    db.close()?;
    Ok(seconds)
}

/// The same documents through `save_many`, 1,000 per call, in one transaction.
fn insert_many(dir: &Path, hotels: &[Hotel]) -> Outcome<f64> {
    let db = open(dir)?;
    let collection = db.default_collection()?;
    let start = Instant::now();
    db.in_batch(|| {
        for (block, chunk) in hotels.chunks(1000).enumerate() {
            collection.save_many(chunk.iter().enumerate().map(|(i, hotel)| (format!("doc-{:08}", block * 1000 + i), hotel)))?;
        }
        Ok::<_, doclite::Error>(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    db.close()?;
    Ok(seconds)
}

/// The same documents through `put`, one call per hotel, in one transaction.
fn insert_put(dir: &Path, hotels: &[Hotel]) -> Outcome<f64> {
    let db = open(dir)?;
    let collection = db.default_collection()?;
    let start = Instant::now();
    db.in_batch(|| {
        for (i, hotel) in hotels.iter().enumerate() {
            collection.put(&format!("doc-{i:08}"), hotel)?;
        }
        Ok::<_, doclite::Error>(())
    })?;
    let seconds = start.elapsed().as_secs_f64();
    db.close()?;
    Ok(seconds)
}

/// The checksum every iteration prints, so that no loop skips its work.
fn report(count: usize, length: usize, prices: i64, ratings: f64, expected: usize) -> Outcome<()> {
    eprintln!("(checksum {length} {prices} {ratings:.2})");
    if count != expected {
        return Err(format!("read {count} rows, expected {expected}").into());
    }
    Ok(())
}

/// Every row decoded into a struct of the five columns (`ResultSet::rows`).
fn iterate_typed(dir: &Path, expected: usize) -> Outcome<f64> {
    let db = open(dir)?;
    let query = db.create_query(QUERY)?;
    let start = Instant::now();
    let (mut count, mut length, mut prices, mut ratings) = (0, 0, 0i64, 0.0);
    for listing in query.execute()?.rows::<Listing>() {
        let listing = listing?;
        prices += listing.price;
        ratings += listing.rating;
        length += listing.name.len() + listing.city.len() + listing.kind.len();
        count += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    report(count, length, prices, ratings, expected)?;
    db.close()?;
    Ok(seconds)
}

/// Every row of five columns, read column by column by type as the C loop reads them (`Row::get`).
fn iterate_rows(dir: &Path, expected: usize) -> Outcome<f64> {
    let db = open(dir)?;
    let query = db.create_query(QUERY)?;
    let start = Instant::now();
    let (mut count, mut length, mut prices, mut ratings) = (0, 0, 0i64, 0.0);
    for row in query.execute()? {
        let row = row?;
        let (name, city) = (row.get::<String>(0)?, row.get::<String>(1)?);
        prices += row.get::<i64>(2)?;
        ratings += row.get::<f64>(3)?;
        let kind = row.get::<String>(4)?;
        length += name.len() + city.len() + kind.len();
        count += 1;
    }
    let seconds = start.elapsed().as_secs_f64();
    report(count, length, prices, ratings, expected)?;
    db.close()?;
    Ok(seconds)
}

/// The C loop's calls, made from Rust through doclite-sys: a call per row and per column,
/// the strings copied into `String`s as the crate gives them.
fn iterate_raw(dir: &Path, expected: usize) -> Outcome<f64> {
    let lib = sys::library()?;
    let fail = |what: &str, error: &sys::CBLError| -> Box<dyn std::error::Error> {
        format!("{what}: DocLite error {} in domain {}", error.code, error.domain).into()
    };
    let text = |pointer: *const std::ffi::c_char| -> Outcome<String> {
        if pointer.is_null() {
            return Err("a string column is not a string".into());
        }
        // Safety: DocLite's borrowed string, valid until the result set moves on.
        Ok(unsafe { CStr::from_ptr(pointer) }.to_str()?.to_owned())
    };
    let (directory, name, query_text) = (CString::new(dir.to_str().unwrap())?, CString::new("bench")?, CString::new(QUERY)?);
    let mut error = sys::CBLError { domain: 0, code: 0, internal_info: 0 };
    // Safety: each handle is used while live and released once; the strings outlive their calls.
    unsafe {
        let mut config: sys::CBLDatabaseConfiguration = std::mem::zeroed();
        config.directory = directory.as_ptr();
        let db = lib.CBLDatabase_Open(name.as_ptr(), &config, &mut error);
        if db.is_null() {
            return Err(fail("open", &error));
        }
        let query = lib.CBLDatabase_CreateQuery(db, sys::kCBLN1QLLanguage as _, query_text.as_ptr(), std::ptr::null_mut(), &mut error);
        if query.is_null() {
            return Err(fail("query", &error));
        }
        let start = Instant::now();
        let rows = lib.CBLQuery_Execute(query, &mut error);
        if rows.is_null() {
            return Err(fail("execute", &error));
        }
        let (mut count, mut length, mut prices, mut ratings) = (0, 0, 0i64, 0.0);
        while lib.CBLResultSet_Next(rows, &mut error) {
            let (name, city) = (text(lib.CBLResultSet_StringAtIndex(rows, 0))?, text(lib.CBLResultSet_StringAtIndex(rows, 1))?);
            prices += lib.CBLResultSet_IntAtIndex(rows, 2);
            ratings += lib.CBLResultSet_DoubleAtIndex(rows, 3);
            let kind = text(lib.CBLResultSet_StringAtIndex(rows, 4))?;
            length += name.len() + city.len() + kind.len();
            count += 1;
        }
        if error.code != 0 {
            return Err(fail("next", &error));
        }
        let seconds = start.elapsed().as_secs_f64();
        lib.CBL_Release(rows as *const _);
        lib.CBL_Release(query as *const _);
        lib.CBLDatabase_Close(db, &mut error);
        lib.CBL_Release(db as *const _);
        report(count, length, prices, ratings, expected)?;
        Ok(seconds)
    }
}
