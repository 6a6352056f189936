"""Blobs: content round trips, the metadata dict in documents and query rows, content
stored once per digest, a 20 MB stream written from a file and read back in pieces with
seeks, a rolled-back batch and compaction, errors, and the guide's image classifier
reading a photo blob from its input."""

import base64
import hashlib
import io
import random
import sqlite3

import pytest

import doclite
from doclite import Blob, MaintenanceType


def digest_of(data):
    return "sha1-" + base64.b64encode(hashlib.sha1(data).digest()).decode("ascii")


def stored_blob_count(db):
    """How many contents the database file stores (its blobs table, read with sqlite3)."""
    connection = sqlite3.connect(f"file:{db.path}?mode=ro", uri=True)
    try:
        return connection.execute("SELECT count(*) FROM blobs").fetchone()[0]
    finally:
        connection.close()


@pytest.mark.parametrize("data", [b"", b"\x00", b"hello", bytes(range(256)) * 40], ids=["empty", "1 byte", "5 bytes", "10 KB"])
def test_a_blob_round_trips_through_a_document(db, data):
    docs = db.default_collection()
    blob = Blob("application/octet-stream", data)
    assert (blob.length, blob.content_type, blob.digest, blob.content) == (len(data), "application/octet-stream",
                                                                            digest_of(data), data)
    assert blob.properties == {"@type": "blob", "content_type": "application/octet-stream",
                               "digest": digest_of(data), "length": len(data)}
    docs.save(doclite.Document("d").set_blob("file", blob))
    read = docs["d"].get_blob("file")
    assert read == blob and read is not blob
    assert (read.length, read.content_type, read.content) == (len(data), "application/octet-stream", data)
    with read.open_stream() as stream:
        assert stream.read() == data
        assert stream.read(10) == b""


def test_the_document_and_query_rows_hold_the_metadata_dict(db):
    docs = db.default_collection()
    photo = Blob("image/jpeg", b"hello")
    assert photo.digest == "sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00="   # (Couchbase Lite's digest of "hello")
    assert photo.to_json() == ('{"@type":"blob","content_type":"image/jpeg",'
                               '"digest":"sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=","length":5}')
    saved = docs.save({"name": "cat", "photo": photo, "album": {"pages": [photo]}}, id="cat")
    assert saved.get_blob("photo") is photo
    assert '"@type":"blob"' in saved.to_json()

    document = docs["cat"]
    assert document["photo"] == photo.properties
    assert document["album"]["pages"][0] == photo.properties
    assert document.get_blob("photo") == photo
    assert document.get_blob("name") is None and document.get_blob("absent") is None

    row, = db.query("SELECT name, photo, album.pages[0] AS nested, photo.length AS length FROM _")
    assert row["photo"] == photo.properties and row["nested"] == photo.properties and row["length"] == 5
    assert db.get_blob(row["photo"]).content == b"hello"
    rows = db.query("SELECT META().id FROM _ WHERE photo.digest = $photo.digest AND photo = $photo", {"photo": photo})
    assert [row["id"] for row in rows] == ["cat"]

    # A Document made here (not read from a collection) holding metadata cannot say which database to read.
    with pytest.raises(doclite.InvalidParameterError, match="Database.get_blob"):
        doclite.Document("x", {"photo": photo.properties}).get_blob("photo")


def test_blobs_without_a_content_type_compare_by_content(db):
    first, second, other = Blob(None, b"same"), Blob("text/plain", b"same"), Blob(None, b"other")
    assert first.content_type is None and "content_type" not in first.properties
    assert first == second and first != other and hash(first) == hash(second)
    assert first != first.properties and len({first, second, other}) == 2
    assert repr(second) == f"<doclite.Blob text/plain; 4 bytes; {digest_of(b'same')}>"
    assert Blob.is_blob(first.properties) and not Blob.is_blob({"@type": "blob"}) and not Blob.is_blob("x")


def test_equal_content_is_stored_once(db):
    docs = db.default_collection()
    docs["a"] = {"photo": Blob("image/png", b"one picture")}
    docs.save_many({"b": {"photo": Blob("image/x-png", b"one picture")}, "c": {"photo": Blob("image/png", b"another")}})
    assert docs["a"]["photo"]["digest"] == docs["b"]["photo"]["digest"] == digest_of(b"one picture")
    assert docs["a"].get_blob("photo") == docs["b"].get_blob("photo")
    assert docs["b"].get_blob("photo").content_type == "image/x-png"
    assert stored_blob_count(db) == 2


def test_a_20_mb_stream_written_from_a_file_is_read_back_in_pieces(db, tmp_path):
    data = random.Random(19).randbytes(20 * 1024 * 1024 + 7)
    path = tmp_path / "video.bin"
    path.write_bytes(data)

    class Recording(io.RawIOBase):
        """The file, recording the size of each read the blob asks for."""
        def __init__(self, file):
            self.file, self.sizes = file, []

        def readable(self):
            return True

        def readinto(self, buffer):
            self.sizes.append(len(buffer))
            return self.file.readinto(buffer)

    with open(path, "rb") as file:
        source = Recording(file)
        blob = Blob.from_stream("video/mp4", source, db)
    assert max(source.sizes) <= 1024 * 1024 and len(source.sizes) > 20, "read in chunks, never whole"
    assert (blob.length, blob.digest) == (len(data), digest_of(data))
    db.default_collection()["movie"] = {"title": "waves", "video": blob}
    del blob

    stored = db.default_collection()["movie"].get_blob("video")
    assert stored.length == len(data)
    with stored.open_stream() as stream:
        assert isinstance(stream, io.RawIOBase) and stream.readable() and stream.seekable()
        position, sizes = 0, [1, 4095, 65537, 12345, 3, 999_983]
        for step in range(40):
            piece = stream.read(sizes[step % len(sizes)])
            assert piece == data[position:position + len(piece)] and piece
            position += len(piece)
            assert stream.tell() == position
        assert stream.seek(1_000_003) == 1_000_003 and stream.read(17) == data[1_000_003:1_000_020]
        assert stream.seek(-5, io.SEEK_CUR) == 1_000_015 and stream.read(5) == data[1_000_015:1_000_020]
        assert stream.seek(-10, io.SEEK_END) == len(data) - 10
        assert stream.read(100) == data[-10:] and stream.read(100) == b""
        stream.seek(7 * 1024 * 1024 + 1)
        buffer = bytearray(300_001)
        assert stream.readinto(buffer) == len(buffer) and buffer == data[7 * 1024 * 1024 + 1:][:len(buffer)]
        stream.seek(0)
        assert hashlib.sha1(stream.read()).digest() == hashlib.sha1(data).digest()

    # From a file by its path, and from a stream that has only read(): the same content.
    assert Blob.from_file("video/mp4", path, db) == stored

    class ReadOnly:
        def __init__(self, data):
            self.stream = io.BytesIO(data)

        def read(self, size):
            return self.stream.read(size)

    assert Blob.from_stream(None, ReadOnly(data[:300_000]), db).content == data[:300_000]


def test_a_rolled_back_batch_leaves_no_blob(db):
    docs = db.default_collection()
    photo, loose = Blob("image/jpeg", b"rolled back"), Blob("text/plain", b"saved alone, rolled back")
    with pytest.raises(RuntimeError):
        with db.batch():
            docs["p"] = {"photo": photo}
            db.save_blob(loose)
            assert db.get_blob(photo.properties) == photo   # (visible inside the batch)
            raise RuntimeError("undo")
    assert docs.get("p") is None
    assert db.get_blob(photo.properties) is None and db.get_blob(loose.properties) is None
    assert stored_blob_count(db) == 0
    with db.batch():
        docs["p"] = {"photo": photo}
    assert db.get_blob(photo.properties).content == b"rolled back"


def test_compaction_deletes_the_blobs_no_document_refers_to(db):
    docs = db.default_collection()
    kept, dropped, loose = Blob(None, b"kept"), Blob(None, b"dropped"), Blob(None, b"loose")
    docs["keep"] = {"photo": kept}
    docs["drop"] = {"photo": dropped}
    docs["shares"] = {"photo": Blob(None, b"dropped")}   # the same content, in another document
    db.save_blob(loose)
    docs.delete("drop")
    db.perform_maintenance(MaintenanceType.COMPACT)
    assert db.get_blob(dropped.properties) == dropped   # still referred to by "shares"
    assert db.get_blob(loose.properties) is None       # saved by save_blob, never referred to
    docs.purge("shares")
    db.perform_maintenance(MaintenanceType.COMPACT)
    assert db.get_blob(dropped.properties) is None
    assert db.get_blob(kept.properties).content == b"kept"
    db.perform_maintenance(MaintenanceType.INTEGRITY_CHECK)


def test_errors(db, tmp_path):
    with pytest.raises(doclite.InvalidParameterError) as raised:
        db.get_blob({"@type": "blob", "digest": "not a digest"})
    assert (raised.value.domain, raised.value.code) == (1, 9) and "not a blob's metadata" in str(raised.value)
    with pytest.raises(doclite.InvalidParameterError):
        db.get_blob({"name": "not a blob"})
    with pytest.raises(TypeError):
        db.get_blob("sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=")
    with pytest.raises(TypeError):
        Blob("text/plain", "text is not bytes")
    with pytest.raises(TypeError):
        doclite.Document("d").set_blob("photo", b"bytes")
    with pytest.raises(TypeError):
        db.save_blob({"@type": "blob"})
    with pytest.raises(TypeError, match="binary"):
        Blob.from_stream(None, io.StringIO("text"), db)
    with pytest.raises(OSError):
        Blob.from_file(None, tmp_path / "missing", db)

    class Failing(io.RawIOBase):
        def readable(self):
            return True

        def readinto(self, buffer):
            raise OSError("the disk went away")

    with pytest.raises(OSError, match="went away"):
        Blob.from_stream(None, Failing(), db)   # (the writer is discarded: the fixture counts handles)

    blob = Blob(None, b"0123456789")
    stream = blob.open_stream()
    with pytest.raises(doclite.InvalidParameterError):
        stream.seek(-1)
    with pytest.raises(doclite.InvalidParameterError):
        stream.seek(11)
    with pytest.raises(ValueError):
        stream.seek(0, 3)
    assert stream.read(3) == b"012"
    stream.close()
    stream.close()
    assert stream.closed
    for operation in (stream.read, lambda: stream.read(1), lambda: stream.readinto(bytearray(1)), stream.tell,
                      lambda: stream.seek(0)):
        with pytest.raises(ValueError, match="closed"):
            operation()

    # A stored blob reads its content from its database: not once it is closed.
    other = doclite.open(tmp_path / "other")
    other.default_collection()["d"] = {"photo": Blob(None, b"stored")}
    stored = other.default_collection()["d"].get_blob("photo")
    other.close()
    with pytest.raises(doclite.NotOpenError, match="closed"):
        stored.content
    with pytest.raises(doclite.NotOpenError):
        stored.open_stream()
    with pytest.raises(doclite.NotOpenError):
        other.get_blob(stored.properties)
    with pytest.raises(doclite.NotOpenError):
        Blob.from_stream(None, io.BytesIO(b"x"), other)


def test_a_blob_of_another_database_is_copied_when_saved(db, tmp_path):
    with doclite.open(tmp_path / "source") as source:
        source.default_collection()["d"] = {"photo": Blob("image/png", b"copied across")}
        photo = source.default_collection()["d"].get_blob("photo")
        db.default_collection()["d"] = {"photo": photo}
        del photo
    assert db.default_collection()["d"].get_blob("photo").content == b"copied across"


def test_the_guides_image_classifier_reads_the_photo_blob(db):
    """Couchbase Lite's predictive query guide: a model labelling an image "car" (when its
    bytes hold b"wheel"), reading the photo through the blob metadata in its input."""
    calls = []

    def image_classifier(input):
        calls.append(input)
        photo = db.get_blob(input["photo"])
        if photo is None:
            return None
        is_car = b"wheel" in photo.content
        return {"label": "car" if is_car else "other", "probability": 0.9 if is_car else 0.6}

    doclite.register_model("ImageClassifier", image_classifier)
    try:
        docs = db.default_collection()
        for id, image in [("p1", b"four wheels and a roof"), ("p2", b"a cat"), ("p3", b"one wheel")]:
            docs.save(doclite.Document(id).set_blob("photo", Blob("image/jpeg", image)))
        rows = db.query("SELECT META().id FROM _ WHERE PREDICTION(ImageClassifier, {'photo': photo}).label = 'car'"
                        " AND PREDICTION(ImageClassifier, {'photo': photo}).probability >= 0.8 ORDER BY META().id")
        assert [row["id"] for row in rows] == ["p1", "p3"]
        assert len(calls) >= 3 and all(Blob.is_blob(input["photo"]) for input in calls)

        # The guide's value index on the prediction's label calls the model as documents are saved.
        docs.create_value_index("value-index-image-classifier", "PREDICTION(ImageClassifier, {'photo': photo}).label")
        docs["p4"] = {"photo": Blob("image/jpeg", b"a steering wheel")}
        rows = db.query("SELECT META().id FROM _ WHERE PREDICTION(ImageClassifier, {'photo': photo}).label = 'car'"
                        " ORDER BY META().id")
        assert [row["id"] for row in rows] == ["p1", "p3", "p4"]
    finally:
        doclite.unregister_model("ImageClassifier")


def test_a_document_copied_into_another_database_keeps_its_blob_or_fails(db, tmp_path):
    # Issue 36: another database's document saved as its properties lost the blob's
    # content without a word. Now that is an error; with the Blob itself, the content
    # is copied in the same transaction.
    photo = Blob("image/png", b"png bytes")
    db.default_collection().save(doclite.Document("d").set_blob("photo", photo))
    original = db.default_collection()["d"]
    with doclite.open(tmp_path / "other") as other:
        target = other.default_collection()
        with pytest.raises(doclite.InvalidParameterError, match=f"refers to blob {photo.digest}, whose content "
                                                                  f"database 'other' does not store"):
            target["d"] = original.properties
        assert "d" not in target
        copy = doclite.Document("d", dict(original.properties))
        copy.set_blob("photo", original.get_blob("photo"))
        target.save(copy)
        assert other.get_blob(photo.properties).content == b"png bytes"
        target["d2"] = original.properties   # (the content is there now)
