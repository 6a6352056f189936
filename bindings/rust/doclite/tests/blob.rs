//! Blobs: made from bytes and from a reader, set in documents and saved with them, read
//! whole and through a stream with seeks, found again from a document's or a query row's
//! metadata; content stored once per digest; a rolled-back transaction and compaction
//! leave none behind; the Couchbase Lite guide's predictive query over a photo blob; and
//! the errors of bad metadata, bad seeks and closed databases.

mod common;

use std::collections::HashSet;
use std::io::{self, Read, Seek, SeekFrom};

use common::TestDatabase;
use doclite::{Blob, BlobReader, Database, Document, ErrorKind, MaintenanceType};
use serde_json::{json, Map, Value};

const HELLO_DIGEST: &str = "sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=";

/// Saves document `id` of the default collection with `blob` in its property `key`.
fn save_with_blob(db: &Database, id: &str, key: &str, blob: &Blob) -> doclite::Result<Document> {
    let mut document = Document::with_id(id)?;
    document.set_blob(key, blob)?;
    db.default_collection()?.save(&mut document)?;
    Ok(document)
}

/// The blob in property `key` of the stored document `id`.
fn stored_blob(db: &Database, id: &str, key: &str) -> doclite::Result<Option<Blob>> {
    let document = db.default_collection()?.document(id)?.expect("the document is saved");
    document.blob(key)
}

#[test]
fn blobs_round_trip_through_documents() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-round-trip");
    let cases: [(&str, Option<&str>, &[u8], &str); 3] = [
        ("empty", None, b"", "sha1-2jmj7l5rSw0yVb/vlWAYkK/YBwk="),
        ("one", Some("application/octet-stream"), b"x", "sha1-EfatjsUqKYSrqv18O1FlA3hcIHI="),
        ("small", Some("text/plain"), b"hello", HELLO_DIGEST),
    ];
    for (id, content_type, content, digest) in cases {
        let blob = Blob::new(content_type, content)?;
        assert_eq!((blob.length(), blob.content_type(), blob.digest()), (content.len() as u64, content_type, digest));
        assert_eq!(blob.content()?, content, "a new blob's content is in memory");

        let mut document = Document::with_id(id)?;
        document.set_blob("data", &blob)?;
        assert_eq!(document.blob("data")?.as_ref(), Some(&blob), "an unsaved document gives its blob back");
        db.default_collection()?.save(&mut document)?;

        let stored = stored_blob(&db, id, "data")?.expect("a blob");
        assert_eq!(stored, blob);
        assert_eq!((stored.length(), stored.content_type(), stored.digest()), (content.len() as u64, content_type, digest));
        assert_eq!(stored.content()?, content, "the stored content");
        let mut streamed = Vec::new();
        stored.open_stream()?.read_to_end(&mut streamed).expect("the stream reads");
        assert_eq!(streamed, content);
    }

    // The same content from a reader, in any pieces, is the same blob.
    let read = Blob::from_reader(&db, Some("text/plain"), io::Cursor::new(b"hello"))?;
    assert_eq!((read.digest(), read.length(), read.content()?), (HELLO_DIGEST, 5, b"hello".to_vec()));
    let empty = Blob::from_reader(&db, None, io::empty())?;
    assert_eq!((empty.length(), empty.content()?), (0, Vec::new()));
    assert_eq!(empty, Blob::new(None, b"")?);

    // Clone is another reference; equality and hashing go by digest, not by type.
    let small = stored_blob(&db, "small", "data")?.expect("a blob");
    assert_eq!(small.clone(), small);
    assert_eq!(Blob::new(Some("image/png"), b"hello")?, small, "equal content, another type");
    assert_ne!(Blob::new(Some("text/plain"), b"hello!")?, small);
    let distinct: HashSet<Blob> = [small.clone(), read, Blob::new(None, b"x")?].into_iter().collect();
    assert_eq!(distinct.len(), 2);
    assert_eq!(
        format!("{small:?}"),
        format!("Blob {{ content_type: Some(\"text/plain\"), length: 5, digest: \"{HELLO_DIGEST}\" }}")
    );

    // A property that is not a blob, or no property: None.
    let mut document = Document::from_value(Some("plain"), &json!({"name": "Grand", "dict": {"digest": HELLO_DIGEST}}))?;
    db.default_collection()?.save(&mut document)?;
    assert_eq!(document.blob("name")?, None);
    assert_eq!(document.blob("dict")?, None);
    assert_eq!(document.blob("absent")?, None);
    Ok(())
}

#[test]
fn the_metadata_is_in_the_document_and_in_query_rows() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-metadata");
    let blob = Blob::new(Some("text/plain"), b"hello")?;
    let metadata = json!({"@type": "blob", "content_type": "text/plain", "digest": HELLO_DIGEST, "length": 5});
    assert_eq!(
        blob.to_json(),
        format!(r#"{{"@type":"blob","content_type":"text/plain","digest":"{HELLO_DIGEST}","length":5}}"#)
    );
    assert_eq!(Value::Object(blob.properties()), metadata);
    let untyped = Blob::new(None, b"hello")?;
    assert_eq!(Value::Object(untyped.properties()), json!({"@type": "blob", "digest": HELLO_DIGEST, "length": 5}));

    let mut document = Document::from_value(Some("d"), &json!({"name": "greeting"}))?;
    document.set_blob("photo", &blob)?;
    db.default_collection()?.save(&mut document)?;
    let saved: Value = db.default_collection()?.get("d")?.expect("saved");
    assert_eq!(saved, json!({"name": "greeting", "photo": metadata}));
    assert_eq!(document.properties()["photo"], metadata);

    // A query row holds the metadata dictionary, which the database turns back into the blob.
    let query = db.create_query("SELECT name, photo, photo.digest AS digest FROM _")?;
    let row = query.execute()?.next().expect("a row")?;
    assert_eq!(row.get::<Value>("photo")?, metadata);
    assert_eq!(row.get::<String>("digest")?, HELLO_DIGEST);
    let found = db.get_blob(row.get_ref("photo")?.expect("not MISSING"))?.expect("stored");
    assert_eq!((found.content_type(), found.content()?), (Some("text/plain"), b"hello".to_vec()));
    // Any serde form of it, or its JSON text, does as well.
    let as_map: Map<String, Value> = row.get("photo")?;
    assert_eq!(db.get_blob(&as_map)?, Some(blob.clone()));
    assert_eq!(db.get_blob_json(&blob.to_json())?, Some(blob.clone()));
    #[derive(serde::Serialize)]
    struct Metadata<'a> {
        #[serde(rename = "@type")]
        kind: &'a str,
        digest: &'a str,
        length: u64,
    }
    let typed = db.get_blob(&Metadata { kind: "blob", digest: HELLO_DIGEST, length: 5 })?.expect("stored");
    assert_eq!(typed.content()?, b"hello");

    // Nested: a blob saved first, its metadata anywhere in the properties.
    let nested = Blob::new(Some("image/png"), b"nested content")?;
    db.save_blob(&nested)?;
    db.default_collection()?.put("n", &json!({"album": {"photos": [nested.properties()]}}))?;
    let row = db.create_query("SELECT album.photos[0] AS photo FROM _ WHERE META().id = 'n'")?.execute()?.next().expect("a row")?;
    assert_eq!(db.get_blob(&row.get::<Value>("photo")?)?.expect("stored").content()?, b"nested content");
    Ok(())
}

#[test]
fn equal_content_is_stored_once() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-once");
    let docs = db.default_collection()?;
    save_with_blob(&db, "a", "photo", &Blob::new(Some("image/jpeg"), b"the same picture")?)?;
    save_with_blob(&db, "b", "image", &Blob::new(Some("image/png"), b"the same picture")?)?;
    let (a, b) = (stored_blob(&db, "a", "photo")?.expect("a blob"), stored_blob(&db, "b", "image")?.expect("a blob"));
    assert_eq!(a.digest(), b.digest());
    assert_eq!((a.content_type(), b.content_type()), (Some("image/jpeg"), Some("image/png")));
    let a_properties = docs.document("a")?.expect("saved").properties()["photo"].clone();
    let b_properties = docs.document("b")?.expect("saved").properties()["image"].clone();
    assert_eq!(db.get_blob(&a_properties)?.expect("stored").content()?, b"the same picture");
    assert_eq!(db.get_blob(&b_properties)?.expect("stored").content()?, b"the same picture");

    // One copy of the content, kept while a document refers to it: deleting one document
    // and compacting leaves it for the other; deleting both lets compaction delete it.
    assert!(docs.delete("a")?);
    db.perform_maintenance(MaintenanceType::Compact)?;
    assert_eq!(db.get_blob(&a_properties)?.expect("still stored for b").content()?, b"the same picture");
    assert_eq!(b.content()?, b"the same picture");
    assert!(docs.delete("b")?);
    db.perform_maintenance(MaintenanceType::Compact)?;
    assert_eq!(db.get_blob(&a_properties)?, None);
    assert_eq!(db.get_blob(&b_properties)?, None);
    assert!(b.content().is_err(), "the content is gone");
    Ok(())
}

/// `length` bytes of a pattern, made as they are read (never held whole).
struct Pattern {
    position: u64,
    length: u64,
}

fn pattern_byte(i: u64) -> u8 {
    ((i * 31) ^ (i >> 12)) as u8
}

impl Read for Pattern {
    fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
        // Odd-sized pieces, never more than 40,001 bytes, so the writer sees many sizes.
        let count = (buffer.len() as u64).min(self.length - self.position).min(40_001) as usize;
        for (offset, byte) in buffer[..count].iter_mut().enumerate() {
            *byte = pattern_byte(self.position + offset as u64);
        }
        self.position += count as u64;
        Ok(count)
    }
}

/// Reads `count` bytes at the reader's position and checks them against the pattern.
fn expect_pattern(reader: &mut BlobReader, count: usize) {
    let start = reader.stream_position().expect("a position");
    let mut bytes = vec![0; count];
    reader.read_exact(&mut bytes).expect("the bytes are there");
    assert!(bytes.iter().enumerate().all(|(i, &byte)| byte == pattern_byte(start + i as u64)), "bytes at {start}");
}

#[test]
fn a_large_blob_streams_in_and_out() -> doclite::Result<()> {
    const LENGTH: u64 = 20 * 1024 * 1024 + 7;
    let db = TestDatabase::new("blob-stream");
    let blob = Blob::from_reader(&db, Some("application/octet-stream"), Pattern { position: 0, length: LENGTH })?;
    assert_eq!(blob.length(), LENGTH);
    save_with_blob(&db, "large", "data", &blob)?;
    let stored = stored_blob(&db, "large", "data")?.expect("a blob");
    assert_eq!((stored.length(), stored.digest()), (LENGTH, blob.digest()));

    // The whole content in odd-sized reads.
    let mut reader = stored.open_stream()?;
    assert_eq!((reader.length(), reader.position()), (LENGTH, 0));
    let mut buffer = vec![0u8; 99_991];
    let mut total: u64 = 0;
    loop {
        let count = reader.read(&mut buffer).expect("the stream reads");
        if count == 0 {
            break;
        }
        assert!(
            buffer[..count].iter().enumerate().all(|(i, &byte)| byte == pattern_byte(total + i as u64)),
            "bytes at {total}"
        );
        total += count as u64;
    }
    assert_eq!((total, reader.position()), (LENGTH, LENGTH));

    // Seeks from the end, the current position and the start.
    assert_eq!(reader.seek(SeekFrom::End(-10)).expect("a seek"), LENGTH - 10);
    assert_eq!(reader.seek(SeekFrom::Current(-5)).expect("a seek"), LENGTH - 15);
    let mut tail = Vec::new();
    assert_eq!(reader.read_to_end(&mut tail).expect("the tail"), 15);
    assert!(tail.iter().enumerate().all(|(i, &byte)| byte == pattern_byte(LENGTH - 15 + i as u64)));
    assert_eq!(reader.seek(SeekFrom::Start(12_345_677)).expect("a seek"), 12_345_677);
    expect_pattern(&mut reader, 1_000_003);
    assert_eq!(reader.seek(SeekFrom::Current(3)).expect("a seek"), 12_345_677 + 1_000_003 + 3);
    expect_pattern(&mut reader, 17);
    reader.rewind().expect("a rewind");
    expect_pattern(&mut reader, 3);
    assert_eq!(reader.seek(SeekFrom::End(0)).expect("a seek"), LENGTH);
    assert_eq!(reader.read(&mut buffer).expect("the end"), 0);

    // A stream of the new blob (content in its staged file) reads the same.
    let mut new_reader = blob.open_stream()?;
    new_reader.seek(SeekFrom::End(-1_000_000)).expect("a seek");
    expect_pattern(&mut new_reader, 1_000_000);
    drop((reader, new_reader));
    Ok(())
}

#[test]
fn a_rolled_back_transaction_stores_no_blob() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-rollback");
    let saved = Blob::new(None, b"rolled back")?;
    let in_document = Blob::new(None, b"rolled back with its document")?;
    let transaction = db.transaction()?;
    db.save_blob(&saved)?;
    save_with_blob(&db, "d", "data", &in_document)?;
    transaction.rollback()?;
    assert_eq!(db.get_blob(&saved.properties())?, None);
    assert_eq!(db.get_blob(&in_document.properties())?, None);
    assert!(db.default_collection()?.document("d")?.is_none());

    // Committed, both are stored.
    db.in_batch(|| {
        db.save_blob(&saved)?;
        save_with_blob(&db, "d", "data", &in_document).map(drop)
    })?;
    assert_eq!(db.get_blob(&saved.properties())?.expect("stored").content()?, b"rolled back");
    assert_eq!(stored_blob(&db, "d", "data")?.expect("a blob").content()?, b"rolled back with its document");
    Ok(())
}

#[test]
fn compaction_deletes_the_blob_of_a_deleted_document() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-compact");
    let docs = db.default_collection()?;
    save_with_blob(&db, "kept", "data", &Blob::new(Some("text/plain"), b"kept")?)?;
    save_with_blob(&db, "deleted", "data", &Blob::new(Some("text/plain"), b"deleted")?)?;
    let saved_only = Blob::new(None, b"saved, never referred to")?;
    db.save_blob(&saved_only)?;
    let kept = docs.document("kept")?.expect("saved").properties()["data"].clone();
    let deleted = docs.document("deleted")?.expect("saved").properties()["data"].clone();

    assert!(docs.delete("deleted")?);
    assert!(db.get_blob(&deleted)?.is_some(), "deleting alone keeps the content until compaction");
    db.perform_maintenance(MaintenanceType::Compact)?;
    assert_eq!(db.get_blob(&deleted)?, None);
    assert_eq!(db.get_blob(&saved_only.properties())?, None);
    assert_eq!(db.get_blob(&kept)?.expect("still referred to").content()?, b"kept");
    Ok(())
}

#[test]
fn mistakes_are_errors() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-errors");
    // Metadata that describes no blob.
    for bad in [json!({"digest": "sha1-x"}), json!({"@type": "blob", "digest": "not a digest"}), json!({"@type": "blob"})] {
        let error = db.get_blob(&bad).unwrap_err();
        assert_eq!((error.kind(), error.domain(), error.code()), (ErrorKind::InvalidParameter, 1, 9), "{bad}: {error}");
    }
    // JSON that is no object at all (as a JSON string given for its text would be).
    for bad in [json!("{\"@type\": \"blob\"}"), json!([1]), json!(null)] {
        let error = db.get_blob(&bad).unwrap_err();
        assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{bad}: {error}");
        assert!(error.message().contains("JSON object"), "{error}");
    }
    assert!(db.get_blob(&json!({"digest": "sha1-x"})).unwrap_err().message().contains("not a blob"));
    let error = db.get_blob_json("{not json").unwrap_err();
    assert_ne!(error.code(), 0);
    // A digest of content the database does not hold: None.
    assert_eq!(db.get_blob(&Blob::new(None, b"never saved")?.properties())?, None);

    // NUL bytes in names.
    assert_eq!(Blob::new(Some("text/\0plain"), b"x").unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert_eq!(Blob::from_reader(&db, Some("\0"), io::empty()).unwrap_err().kind(), ErrorKind::InvalidParameter);
    let mut document = Document::new()?;
    let blob = Blob::new(Some("text/plain"), b"hello")?;
    assert_eq!(document.set_blob("a\0b", &blob).unwrap_err().kind(), ErrorKind::InvalidParameter);
    assert_eq!(document.blob("a\0b").unwrap_err().kind(), ErrorKind::InvalidParameter);

    // Seeks outside the content: an io::Error holding DocLite's.
    let mut reader = blob.open_stream()?;
    reader.seek(SeekFrom::Start(2)).expect("a seek");
    for bad in [SeekFrom::Current(-3), SeekFrom::End(-6), SeekFrom::End(1), SeekFrom::Start(u64::MAX)] {
        let error = reader.seek(bad).unwrap_err();
        assert_eq!(error.kind(), io::ErrorKind::InvalidInput, "{bad:?}");
        let inner = error.get_ref().and_then(|inner| inner.downcast_ref::<doclite::Error>()).expect("DocLite's error");
        assert_eq!(inner.kind(), ErrorKind::InvalidParameter, "{bad:?}: {inner}");
    }
    assert!(reader.seek(SeekFrom::Current(-3)).unwrap_err().to_string().contains("before the start"));
    assert_eq!(reader.position(), 2, "a failed seek does not move");
    let mut rest = String::new();
    reader.read_to_string(&mut rest).expect("the rest");
    assert_eq!(rest, "llo");

    // A reader that fails: an Io error; what was staged is discarded.
    struct Failing(usize);
    impl Read for Failing {
        fn read(&mut self, buffer: &mut [u8]) -> io::Result<usize> {
            self.0 += 1;
            match self.0 {
                1 => Ok(buffer.len().min(1000)),
                2 => Err(io::ErrorKind::Interrupted.into()),
                3 => Ok(buffer.len().min(10)),
                _ => Err(io::Error::new(io::ErrorKind::Other, "the camera went away")),
            }
        }
    }
    let error = Blob::from_reader(&db, None, Failing(0)).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::Io);
    assert!(error.message().contains("the camera went away"), "{error}");

    // Once the database is closed: no stored content, no new writer; new blobs still read.
    save_with_blob(&db, "d", "data", &blob)?;
    let stored = stored_blob(&db, "d", "data")?.expect("a blob");
    db.close()?;
    assert_eq!(stored.content().unwrap_err().kind(), ErrorKind::NotOpen);
    assert_eq!(stored.open_stream().unwrap_err().kind(), ErrorKind::NotOpen);
    assert_eq!(Blob::from_reader(&db, None, io::empty()).unwrap_err().kind(), ErrorKind::NotOpen);
    assert_eq!(db.save_blob(&blob).unwrap_err().kind(), ErrorKind::NotOpen);
    assert_eq!(blob.content()?, b"hello");
    Ok(())
}

#[test]
fn blobs_are_shared_between_threads() -> doclite::Result<()> {
    fn send_sync<T: Send + Sync>() {}
    fn send<T: Send>() {}
    send_sync::<Blob>();
    send::<BlobReader>();

    let db = TestDatabase::new("blob-threads");
    save_with_blob(&db, "d", "data", &Blob::new(None, &[7u8; 100_000])?)?;
    let blob = stored_blob(&db, "d", "data")?.expect("a blob");
    std::thread::scope(|scope| {
        let workers: Vec<_> = (0..4)
            .map(|_| scope.spawn(|| (0..20).all(|_| blob.content().is_ok_and(|content| content == [7u8; 100_000]))))
            .collect();
        assert!(workers.into_iter().all(|worker| worker.join().expect("no panic")));
    });
    let mut reader = blob.open_stream()?;
    reader.seek(SeekFrom::Start(99_990)).expect("a seek");
    let rest = std::thread::spawn(move || {
        let mut rest = Vec::new();
        reader.read_to_end(&mut rest).map(|_| rest)
    })
    .join()
    .expect("no panic")
    .expect("the rest");
    assert_eq!(rest, [7u8; 10]);
    Ok(())
}

/// The Couchbase Lite guide's predictive query: an image classifier reading each photo
/// blob's content through the database its query runs on.
#[test]
fn a_predictive_model_reads_photo_blobs() -> doclite::Result<()> {
    let db = TestDatabase::new("blob-prediction");
    for (id, image) in [("p1", "four wheels and a roof"), ("p2", "a cat"), ("p3", "one wheel"), ("p4", "")] {
        save_with_blob(&db, id, "photo", &Blob::new(Some("image/jpeg"), image.as_bytes())?)?;
    }
    db.default_collection()?.put("p5", &json!({"photo": "not a blob"}))?;

    let photos: Database = (*db).clone();
    doclite::register_model("ImageClassifier", move |input: &Map<String, Value>| {
        let photo = photos.get_blob(input.get("photo")?).ok()??;
        let content = photo.content().ok()?;
        let car = content.windows(5).any(|window| window == b"wheel");
        let (label, probability) = if car { ("car", 0.9) } else { ("other", 0.6) };
        Some(json!({"label": label, "probability": probability}).as_object()?.clone())
    })?;
    let query = db.create_query(
        "SELECT META().id, PREDICTION(ImageClassifier, {'photo': photo}).label AS label FROM _ \
         WHERE PREDICTION(ImageClassifier, {'photo': photo}).label = 'car' \
         AND PREDICTION(ImageClassifier, {'photo': photo}).probability >= 0.8 ORDER BY META().id",
    )?;
    let cars: Vec<(String, String)> = query.execute()?.map(|row| row?.deserialize()).collect::<doclite::Result<_>>()?;
    assert_eq!(cars, [("p1".to_string(), "car".to_string()), ("p3".to_string(), "car".to_string())]);

    let labels = db.create_query("SELECT META().id, PREDICTION(ImageClassifier, {'photo': photo}, label) FROM _ ORDER BY META().id")?;
    let labels: Vec<(String, Option<String>)> = labels.execute()?.map(|row| row?.deserialize()).collect::<doclite::Result<_>>()?;
    assert_eq!(
        labels,
        [
            ("p1".into(), Some("car".into())),
            ("p2".into(), Some("other".into())),
            ("p3".into(), Some("car".into())),
            ("p4".into(), Some("other".into())),
            ("p5".into(), None), // not a blob: the model answers None, MISSING
        ]
    );
    doclite::unregister_model("ImageClassifier")?;
    Ok(())
}

#[test]
fn a_blob_is_copied_to_another_database_by_setting_it_not_its_metadata() -> doclite::Result<()> {
    let first = TestDatabase::new("blob-copy-from");
    let second = TestDatabase::new("blob-copy-to");
    save_with_blob(&first, "p1", "photo", &Blob::new(Some("text/plain"), b"hello")?)?;
    let read = first.default_collection()?.document("p1")?.expect("saved");

    // Its properties refer to content the second database does not store: an error, nothing saved.
    let error = second.default_collection()?.put("p1", &read.properties()).unwrap_err();
    assert_eq!(error.kind(), ErrorKind::InvalidParameter, "{error}");
    assert!(error.message().contains(&format!("refers to blob {HELLO_DIGEST}")), "{error}");
    assert!(error.message().contains("does not store"), "{error}");
    assert!(second.default_collection()?.document("p1")?.is_none());
    assert!(second.get_blob(&read.properties()["photo"])?.is_none());

    // Setting the blob itself stores its content with the save.
    let photo = read.blob("photo")?.expect("a blob");
    save_with_blob(&second, "p1", "photo", &photo)?;
    let copied = second.get_blob(&second.default_collection()?.document("p1")?.expect("saved").properties()["photo"])?;
    assert_eq!(copied.expect("stored").content()?, b"hello");

    // So does saving the blob first, after which the metadata may go anywhere.
    let third = TestDatabase::new("blob-copy-third");
    third.save_blob(&photo)?;
    third.default_collection()?.put("p1", &json!({"nested": {"photo": photo.properties()}}))?;
    let stored = third.default_collection()?.get::<Value>("p1")?.expect("saved");
    assert_eq!(third.get_blob(&stored["nested"]["photo"])?.expect("stored").content()?, b"hello");
    Ok(())
}
