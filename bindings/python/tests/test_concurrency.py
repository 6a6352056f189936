"""Documents' revisions and concurrency control (issue 36): Document.revision_id and
sequence, and Collection.save / delete with ConcurrencyControl.FAIL_ON_CONFLICT
(C's CBLCollection_SaveDocumentWithConcurrencyControl and
CBLCollection_DeleteDocumentWithConcurrencyControl)."""

import pytest

import doclite
from doclite import ConcurrencyControl, ConflictError, Document, NotFoundError

FAIL = ConcurrencyControl.FAIL_ON_CONFLICT


def test_revision_and_sequence_of_read_and_saved_documents(db):
    hotels = db.create_collection("hotels")   # (made in each test: the db fixture checks that nothing outlives it)
    new = Document("h1", {"name": "Grand"})
    assert (new.revision_id, new.sequence) == (None, 0)
    saved = hotels.save(new)
    assert saved.revision_id.startswith("1-") and saved.sequence == 1
    assert (new.revision_id, new.sequence) == (saved.revision_id, saved.sequence)   # the Document given is updated
    read = hotels["h1"]
    assert (read.revision_id, read.sequence) == (saved.revision_id, 1)
    read["stars"] = 5
    hotels.save(read)
    assert read.revision_id.startswith("2-") and read.sequence == 2
    assert hotels.get("h1").revision_id == read.revision_id
    hotels["h2"] = {"name": "Petit"}
    assert hotels["h2"].sequence == 3   # (the collection's sequence grows with each change)


def test_a_stale_save_fails_on_conflict_and_changes_nothing(db):
    hotels = db.create_collection("hotels")
    hotels["h1"] = {"rooms": 10}
    mine, theirs = hotels["h1"], hotels["h1"]
    theirs["rooms"] = 11
    hotels.save(theirs, concurrency_control=FAIL)   # (up to date: saved)
    mine["rooms"] = 12
    with pytest.raises(ConflictError) as raised:
        hotels.save(mine, concurrency_control=FAIL)
    assert raised.value.code == 8 and "'h1'" in str(raised.value)
    assert hotels["h1"]["rooms"] == 11 and mine.revision_id != theirs.revision_id
    hotels.save(mine)   # the last write wins by default
    assert hotels["h1"]["rooms"] == 12


def test_a_new_document_fails_on_conflict_when_its_id_is_taken(db):
    hotels = db.create_collection("hotels")
    hotels["h1"] = {"rooms": 10}
    with pytest.raises(ConflictError):
        hotels.save({"rooms": 1}, id="h1", concurrency_control=FAIL)
    with pytest.raises(ConflictError):
        hotels.save(Document("h1", {"rooms": 2}), concurrency_control=FAIL)
    assert hotels["h1"]["rooms"] == 10
    assert hotels.save({"rooms": 3}, id="h2", concurrency_control=FAIL).revision_id.startswith("1-")
    assert hotels.save({"rooms": 4}, concurrency_control=FAIL).id   # (a new ID cannot conflict)


def test_a_save_after_the_document_was_deleted_fails_on_conflict(db):
    hotels = db.create_collection("hotels")
    hotels["h1"] = {"rooms": 10}
    read = hotels["h1"]
    del hotels["h1"]
    with pytest.raises(ConflictError):
        hotels.save(read, concurrency_control=FAIL)
    assert "h1" not in hotels


def test_a_document_from_another_collection_is_new_here(db):
    hotels = db.create_collection("hotels")
    other = db.create_collection("other")
    other["h1"] = {"rooms": 1}
    moved = other["h1"]
    hotels.save(moved, concurrency_control=FAIL)   # (no h1 in hotels: a new document)
    assert hotels["h1"]["rooms"] == 1 and moved.revision_id == hotels["h1"].revision_id
    hotels["h1"] = {"rooms": 2}
    with pytest.raises(ConflictError):
        hotels.save(other["h1"], concurrency_control=FAIL)


def test_delete_with_concurrency_control(db):
    hotels = db.create_collection("hotels")
    hotels["h1"] = {"rooms": 10}
    stale, fresh = hotels["h1"], hotels["h1"]
    hotels.save(fresh)
    with pytest.raises(ConflictError):
        hotels.delete(stale, FAIL)
    assert "h1" in hotels
    hotels.delete(fresh, concurrency_control=FAIL)
    assert "h1" not in hotels and (fresh.revision_id, fresh.sequence) == (None, 0)
    hotels.save(fresh, concurrency_control=FAIL)   # saved again: a new document over the tombstone
    assert hotels["h1"].revision_id.startswith("4-")   # (1 saved, 2 saved, 3 deleted)
    with pytest.raises(ConflictError):
        hotels.delete(stale, FAIL)
    with pytest.raises(TypeError):
        hotels.delete("h1", FAIL)   # (the revision to check is the Document's)
    hotels.delete(stale)   # the last write wins by default, given an ID or a Document
    assert "h1" not in hotels
    with pytest.raises(ConflictError):
        hotels.delete(fresh, FAIL)   # (deleted since it was read)
    with pytest.raises(NotFoundError):
        hotels.delete(Document("h9"), FAIL)
    with pytest.raises(NotFoundError):
        hotels.delete(Document(None), FAIL)


def test_a_conflict_stores_no_blob(db):
    hotels = db.create_collection("hotels")
    hotels["h1"] = {"rooms": 10}
    stale = hotels["h1"]
    hotels["h1"] = {"rooms": 11}
    stale.set_blob("photo", doclite.Blob("image/jpeg", b"\xff\xd8 photo"))
    with pytest.raises(ConflictError):
        hotels.save(stale, concurrency_control=FAIL)
    assert db.get_blob(stale["photo"]) is None   # (the blob's storing was rolled back with the save)


def test_bad_concurrency_control(db):
    hotels = db.create_collection("hotels")
    with pytest.raises(ValueError):
        hotels.save({"a": 1}, id="h1", concurrency_control=7)
    assert ConcurrencyControl(1) is FAIL and int(ConcurrencyControl.LAST_WRITE_WINS) == 0
