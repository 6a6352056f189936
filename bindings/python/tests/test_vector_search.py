"""Vector search from Python: Couchbase Lite's guide (its index configuration, its SQL++
query, a hybrid one, the builder form), every metric against distances computed here, and
mistakes raised as the package's exceptions."""

import math

import pytest

import doclite
from doclite import DistanceMetric, Expression, Function, Ordering, QueryBuilder, SelectResult, DataSource, VectorEncoding

COLORS = {
    "maroon": ([0.5, 0, 0.1], 0.9), "red": ([1, 0, 0], 1.0), "rose": ([0.9, 0.2, 0.25], 0.4),
    "salmon": ([0.98, 0.5, 0.45], 0.53), "orange": ([1, 0.65, 0], 1.0), "pink": ([1, 0.75, 0.8], 0.25),
    "grey": ([0.5, 0.5, 0.5], 0.0), "blue": ([0, 0, 1], 1.0),
}
TARGET = [0.9, 0.1, 0.1]


@pytest.fixture
def colors(db):
    """The collection "colors" holds COLORS, one document without a vector and one with 2 items.
    (The test gets the collection from `db`: a fixture's value outlives `db`'s teardown, which counts handles.)"""
    collection = db.create_collection("colors")
    collection.save_many({name: {"color": name, "vector": vector, "saturation": saturation}
                          for name, (vector, saturation) in COLORS.items()})
    collection.save_many({"nothing": {"color": "nothing"}, "wrong": {"color": "wrong", "vector": [1, 2]}})
    return db


def colors_of(db, sqlpp, **parameters):
    return [row["color"] for row in db.query(sqlpp, parameters or {"vector": TARGET})]


def test_the_guides_vector_search(colors):
    db, colors = colors, colors.collection("colors")
    colors.create_vector_index("colors_index", "vector", dimensions=3, centroids=100, metric=DistanceMetric.COSINE,
                               encoding=VectorEncoding.none(), num_probes=8, min_training_size=2500, max_training_size=5000)
    sql = "SELECT META().id, color FROM _default.colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 4"
    assert colors_of(db, sql) == ["maroon", "red", "rose", "salmon"]
    assert "vec" in db.create_query(sql).explain()
    hybrid = "SELECT color FROM colors WHERE saturation > 0.5 ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector)"
    assert colors_of(db, hybrid) == ["maroon", "red", "salmon", "orange", "blue"]
    built = (QueryBuilder.select(SelectResult.property("color")).from_(DataSource.collection(colors))
             .order_by(Ordering.expression(Function.approx_vector_distance(Expression.property("vector"), Expression.parameter("vector"))))
             .limit(Expression.int(3)))
    assert [row["color"] for row in built.execute({"vector": TARGET})] == ["maroon", "red", "rose"]


@pytest.mark.parametrize("metric", list(DistanceMetric))
def test_every_metric_against_distances_computed_here(colors, metric):
    db, colors = colors, colors.collection("colors")
    def distance(vector):
        dot = sum(a * b for a, b in zip(vector, TARGET))
        squared = sum((a - b) ** 2 for a, b in zip(vector, TARGET))
        norms = math.sqrt(sum(a * a for a in vector) * sum(b * b for b in TARGET))
        return {DistanceMetric.EUCLIDEAN_SQUARED: squared, DistanceMetric.EUCLIDEAN: math.sqrt(squared),
                DistanceMetric.COSINE: 1 - dot / norms, DistanceMetric.DOT: -dot}[metric]
    expected = sorted(COLORS, key=lambda name: distance(COLORS[name][0]))[:5]
    colors.create_vector_index("v", "vector", 3, 2, metric=metric)
    rows = list(db.query("SELECT color, APPROX_VECTOR_DISTANCE(vector, $vector) AS d FROM colors ORDER BY d LIMIT 5", {"vector": TARGET}))
    assert [row["color"] for row in rows] == expected
    for row in rows:
        assert row["d"] == pytest.approx(distance(COLORS[row["color"]][0]), rel=1e-5, abs=1e-6)


def test_without_an_index_the_search_is_exact(colors):
    db = colors
    sql = "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector, 'cosine') LIMIT 2"
    assert colors_of(db, sql) == ["maroon", "red"]


def test_mistakes_are_exceptions(colors):
    db, colors = colors, colors.collection("colors")
    for dimensions, message in [(0, "dimensions 0 is too small"), (5000, "dimensions 5000 is too large")]:
        with pytest.raises(doclite.InvalidParameterError, match=message):
            colors.create_vector_index("v", "vector", dimensions, 8)
    with pytest.raises(doclite.InvalidParameterError, match="must divide the dimensions"):
        colors.create_vector_index("v", "vector", 3, 8, encoding=VectorEncoding.product_quantizer(2, 8))
    with pytest.raises(doclite.InvalidParameterError, match="scalar quantizer type 5"):
        colors.create_vector_index("v", "vector", 3, 8, encoding=VectorEncoding.scalar_quantizer(5))
    with pytest.raises(doclite.InvalidParameterError, match="from 0 to 4294967295"):
        colors.create_vector_index("v", "vector", -3, 8)
    with pytest.raises(doclite.InvalidParameterError, match="DistanceMetric"):
        colors.create_vector_index("v", "vector", 3, 8, metric="cosine")
    assert colors.indexes() == []
    colors.create_vector_index("v", "vector", 3, 8, encoding=VectorEncoding.scalar_quantizer(4))
    with pytest.raises(doclite.InvalidQueryError, match="does not match the index's metric"):
        db.create_query("SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector, 'dot') LIMIT 3")
    with pytest.raises(doclite.InvalidQueryError, match="a LIMIT must be given"):
        db.create_query("SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector)")
    with pytest.raises(doclite.InvalidQueryError, match="the target vector has 2 dimensions"):
        colors_of(db, "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 3", vector=[1, 2])
    assert VectorEncoding.product_quantizer(2, 8) == VectorEncoding.product_quantizer(2, 8)
    assert repr(VectorEncoding.scalar_quantizer()) == "VectorEncoding.scalar_quantizer(8)"


def test_a_lazy_index_filled_by_the_application(colors):
    db, colors = colors, colors.collection("colors")
    colors.create_vector_index("by_name", "color", 3, 2, metric=DistanceMetric.COSINE, is_lazy=True)
    index = colors.get_index("by_name")
    assert index.name == "by_name" and colors.get_index("none") is None
    sql = "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(color, $vector, 'cosine') LIMIT 3"
    assert colors_of(db, sql) == []
    skipped = 0
    while True:
        updater = index.begin_update(4)
        if updater is None:
            break
        assert len(updater) <= 4
        for i, name in enumerate(updater):
            if name == "red" and not skipped:
                updater.skip_vector(i)
                skipped += 1
            else:
                updater.set_vector(i, COLORS[name][0] if name in COLORS else None)
        updater.finish()
        with pytest.raises(doclite.NotOpenError):
            updater.finish()
    assert skipped == 1
    assert colors_of(db, sql) == ["maroon", "red", "rose"]

    colors["late"] = {"color": "late"}
    updater = index.begin_update(10)
    assert list(updater) == ["late"] and updater[-1] == "late"
    with pytest.raises(IndexError):
        updater[1]
    with pytest.raises(doclite.InvalidParameterError, match="Inconsistent vector dimensions"):
        updater.set_vector(0, [1, 2])
    with pytest.raises(doclite.InvalidParameterError, match="finite numbers"):
        updater.set_vector(0, [1, float("nan"), 2])
    with pytest.raises(doclite.InvalidParameterError, match="out of range"):
        updater.skip_vector(1)
    with pytest.raises(doclite.UnsupportedError, match="Cannot finish"):
        updater.finish()
    del updater
    with pytest.raises(doclite.InvalidParameterError):
        index.begin_update(0)
    colors.create_vector_index("eager", "vector", 3, 2)
    with pytest.raises(doclite.UnsupportedError, match="not a lazy vector index"):
        colors.get_index("eager").begin_update(5)
