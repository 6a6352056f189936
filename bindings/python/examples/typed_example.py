"""A typed DocLite program: `mypy --strict` checks it (tests/test_typing.py), and it runs.

    python typed_example.py [DIRECTORY]

It makes a database in DIRECTORY (a new temporary directory when none is given, deleted
afterwards), saves and reads documents, queries them with SQL++ and the QueryBuilder,
reads rows by column, listens for changes, indexes and uses the revision of a document
to save it without overwriting another writer's change.
"""

import sys
import tempfile
from typing import Dict, List, Optional

import doclite
from doclite import (CollectionChange, ConcurrencyControl, ConflictError, DataSource, Expression, Function,
                     JSONObject, Ordering, QueryBuilder, Row, SelectResult)


def hotel_names(rows: List[Row]) -> List[str]:
    """The `name` column of each row."""
    return [str(row["name"]) for row in rows]


def run(directory: str) -> Dict[str, List[str]]:
    """Runs the example in `directory`; what it found, by step."""
    found: Dict[str, List[str]] = {}
    with doclite.open(f"{directory}/travel") as db:
        hotels = db.create_collection("hotels", scope="inventory")

        # A listener: the IDs of the documents each commit changes.
        changed: List[str] = []

        def on_change(change: CollectionChange) -> None:
            changed.extend(change.document_ids)

        with hotels.add_change_listener(on_change):
            # Documents: saved from dicts, in one transaction.
            with db.batch():
                hotels["h1"] = {"name": "Grand", "city": "Paris", "rooms": 120}
                hotels["h2"] = {"name": "Petit", "city": "Paris", "rooms": 12}
                hotels.save({"name": "Bristol", "city": "London", "rooms": 80}, id="h3")
        found["changed"] = sorted(changed)

        # Reading a document; its properties are JSON values.
        grand = hotels["h1"]
        rooms: int = grand["rooms"]
        assert rooms == 120 and grand.revision_id is not None

        # A value index, and a SQL++ query with parameters; rows read by column title and index.
        hotels.create_value_index("by_city", ["city", "rooms"])
        assert "by_city" in hotels.indexes()
        query = db.create_query("SELECT name, rooms FROM inventory.hotels WHERE city = $city ORDER BY rooms DESC")
        rows = query.execute({"city": "Paris"}).all()
        found["sqlpp"] = hotel_names(rows)
        assert rows[0][1] == 120 and rows[0].to_dict() == {"name": "Grand", "rooms": 120}
        parameters: Optional[JSONObject] = query.parameters
        assert parameters == {"city": "Paris"}

        # The same query with the QueryBuilder.
        built = (QueryBuilder.select(SelectResult.property("name"),
                                     SelectResult.expression(Function.upper(Expression.property("city"))).as_("city"))
                 .from_(DataSource.collection(hotels))
                 .where(Expression.property("rooms") > Expression.parameter("min"))
                 .order_by(Ordering.property("name")))
        found["builder"] = [f"{row['name']} ({row['city']})" for row in built.execute({"min": 50})]

        # Concurrency control: a save from a stale read fails instead of overwriting.
        mine = hotels["h2"]
        theirs = hotels["h2"]
        theirs["rooms"] = 14
        hotels.save(theirs)
        mine["rooms"] = 13
        try:
            hotels.save(mine, concurrency_control=ConcurrencyControl.FAIL_ON_CONFLICT)
        except ConflictError:
            fresh = hotels["h2"]
            fresh["rooms"] = int(fresh["rooms"]) - 1
            hotels.save(fresh, concurrency_control=ConcurrencyControl.FAIL_ON_CONFLICT)
        found["rooms"] = [str(hotels["h2"]["rooms"])]

        # Scopes and collections.
        found["collections"] = [collection.full_name for scope in db.scopes() for collection in scope.collections()]
    return found


def main(argv: List[str]) -> None:
    """Runs the example in the directory argv[1], or in a temporary one."""
    if len(argv) > 1:
        results = run(argv[1])
    else:
        with tempfile.TemporaryDirectory() as directory:
            results = run(directory)
    for step, values in results.items():
        print(f"{step}: {', '.join(values)}")


if __name__ == "__main__":
    main(sys.argv)
