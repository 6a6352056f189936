"""A database file someone else made (docs/security.md), tampered with Python's sqlite3
module as an attacker would: refused with CorruptDataError, the model never called;
a damaged body is CorruptDataError from a read and from a query."""

import sqlite3

import pytest

import doclite


def make_file(path):
    with doclite.open(path) as db:
        docs = db.default_collection()
        for n in range(3):
            docs[f"d{n}"] = {"n": n, "secret": f"pin {n}"}


def tamper(path, *statements):
    connection = sqlite3.connect(f"{path}.doclite")
    connection.execute("PRAGMA writable_schema = ON")
    for statement in statements:
        connection.execute(statement)
    connection.commit()
    connection.close()


def test_a_trigger_calling_the_model_is_refused(tmp_path):
    calls = []
    doclite.register_model("victim", lambda input: calls.append(input) or {"label": "secret"})
    try:
        path = tmp_path / "victim"
        make_file(path)
        tamper(path, "CREATE TRIGGER evil AFTER INSERT ON kv_1 BEGIN "
                     "SELECT doc_prediction('victim', doc_value(new.body, 'secret')); DELETE FROM kv_1; END")
        with pytest.raises(doclite.CorruptDataError, match="trigger 'evil', which DocLite did not write") as caught:
            doclite.open(path)
        assert caught.value.code == 15
        assert calls == []
    finally:
        doclite.unregister_model("victim")


def test_a_damaged_body_is_an_error_not_a_document(tmp_path):
    path = tmp_path / "victim"
    make_file(path)
    tamper(path, "UPDATE kv_1 SET body = 'just text' WHERE key = 'd0'")
    with doclite.open(path) as db:
        docs = db.default_collection()
        with pytest.raises(doclite.CorruptDataError, match="document 'd0' in collection '_default._default' has a damaged body"):
            docs["d0"]
        with pytest.raises(doclite.CorruptDataError, match="damaged body"):
            list(db.query("SELECT META().id, * FROM _"))
        assert docs["d1"]["n"] == 1


def test_a_file_that_is_not_a_doclite_database(tmp_path):
    connection = sqlite3.connect(tmp_path / "other.doclite")
    connection.execute("CREATE TABLE notes (text)")
    connection.commit()
    connection.close()
    with pytest.raises(doclite.CorruptDataError, match="not a DocLite database"):
        doclite.open(tmp_path / "other")
