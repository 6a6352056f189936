"""The 1.x query builder from Python: the wiki page's examples, reduce functions
against Python's own statistics, contexts, and errors with their part and place."""

import random
import statistics

import pytest

import doclite

POSTS = {
    "p1": {"type": "post", "title": "Introducing CBLQueryBuilder", "author": "Jens Alfke", "date": "2014-12-11",
           "body": "Yo", "tags": ["couchbase lite", "iOS", "queries", "views", "API"]},
    "p2": {"type": "post", "title": "Views", "author": "Jens Alfke", "date": "2014-10-01", "body": "Map", "tags": ["views", "iOS"]},
    "p3": {"type": "post", "title": "Replication", "author": "Traun", "date": "2015-01-20", "body": "Sync", "tags": ["sync"]},
    "c1": {"type": "comment", "title": "Nice", "date": "2014-12-12", "tags": ["iOS"]},
    "b1": {"type": "book", "title": "A", "price": 10},
    "b2": {"type": "book", "title": "B", "price": 25.5},
}


@pytest.fixture
def blog(db):
    db.default_collection().save_many(POSTS)
    return db


def test_the_tag_query_of_the_wiki_page(blog):
    builder = doclite.PredicateQueryBuilder(blog, ["title", "body", "author", "date"],
                                            "type == 'post' and tags contains $TAG", ["-date"])
    assert [row.value for row in builder.run({"TAG": "iOS"})] == [
        ["Introducing CBLQueryBuilder", "Yo", "Jens Alfke", "2014-12-11"], ["Views", "Map", "Jens Alfke", "2014-10-01"]]
    assert [row["title"] for row in builder.run({"TAG": "sync"})] == ["Replication"]
    query = builder.create_query({"TAG": "views"})
    assert query.columns == ["title", "body", "author", "date"] and len(list(query.execute())) == 2
    with pytest.raises(doclite.InvalidQueryParameterError, match=r"\$TAG"):
        builder.run()
    assert "variables: $TAG" in builder.explanation


def test_the_average_of_the_wiki_page(blog):
    rows = list(doclite.PredicateQueryBuilder(blog, ["average(price)"], "type == 'book'").run())
    assert [row.value for row in rows] == [17.75]   # one item selected: the row's value is it


def test_median_and_stddev_agree_with_pythons_statistics(db):
    numbers = random.Random(7).choices([random.Random(8).uniform(-1e3, 1e3) for _ in range(500)] + list(range(-50, 50)), k=2001)
    db.default_collection().save_many({f"n{i}": {"x": x} for i, x in enumerate(numbers)})
    (row,) = doclite.PredicateQueryBuilder(db, ["median(x)", "stddev(x)", "count(x)"]).run()
    assert row.value == [statistics.median(numbers), statistics.stdev(numbers), 2001]


def test_operators_from_python(blog):
    def titles(where, context=None):
        return sorted(row.value for row in doclite.PredicateQueryBuilder(blog, ["title"], where).run(context))
    assert titles("title BEGINSWITH[c] $P", {"P": "intro"}) == ["Introducing CBLQueryBuilder"]
    assert titles("ANY tags ==[c] 'ios' AND NOT type == 'comment'") == ["Introducing CBLQueryBuilder", "Views"]
    assert titles("price BETWEEN $R", {"R": [20, 30]}) == ["B"]
    assert titles("tags.@count > 1") == ["Introducing CBLQueryBuilder", "Views"]


def test_mistakes_name_their_part_and_place(blog):
    with pytest.raises(doclite.InvalidQueryError, match="where: predicate error at character 8") as caught:
        doclite.PredicateQueryBuilder(blog, ["title"], "type ==")
    assert caught.value.position == 7
    with pytest.raises(doclite.InvalidQueryError, match="select item 2: "):
        doclite.PredicateQueryBuilder(blog, ["title", "nosuch(x)"], "TRUEPREDICATE")
    with pytest.raises(TypeError):
        doclite.PredicateQueryBuilder(blog, "title", "TRUEPREDICATE")
