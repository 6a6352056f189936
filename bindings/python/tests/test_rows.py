"""Rows cross from the library in blocks (CBLResultSet_NextRowsMarshal): every kind
of value comes back exactly as a document holds it, MISSING apart from null."""

import doclite

VALUES = [
    None, True, False, 0, 1, -1, 2 ** 31 - 1, -2 ** 31, 2 ** 31, -2 ** 31 - 1, 2 ** 32, 2 ** 53 + 1,
    2 ** 63 - 1, -2 ** 63, 2 ** 63, 2 ** 64 - 1, 0.5, -1e300, 1.7976931348623157e308, 5e-324, 0.1 + 0.2,
    "", "plain", "ünïcödé 漢字 🎉", "nul\x00inside", "x" * 70_000,
    [], [1, "two", [3.5, None], {"k": False}], {}, {"a": {"b": [1, {"c": "d"}]}, "é": 2 ** 63},
]


def test_every_kind_of_value_round_trips(db):
    collection = db.default_collection()
    collection.save_many((f"v{index:02d}", {"v": value, "i": index}) for index, value in enumerate(VALUES))
    rows = db.query("SELECT v, i, nothing FROM _ ORDER BY i").all()
    assert [row[0] for row in rows] == VALUES
    for row, value in zip(rows, VALUES):
        assert type(row[0]) is type(value), (row[0], value)
        assert row.keys() == ["v", "i"]   # (nothing is MISSING)
        assert row.missing_mask == 0b100


def test_blocks_and_next_share_one_run(db):
    db.default_collection().save_many((f"d{n:04d}", {"n": n}) for n in range(1200))
    results = db.query("SELECT n FROM _ ORDER BY n")
    results.block = 500
    first = [next(results)["n"] for _ in range(3)]
    rest = [row["n"] for row in results]
    assert first + rest == list(range(1200))
    assert list(results) == []
