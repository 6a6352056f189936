"""Predictive models from Python: a callable called by PREDICTION() in SQL++ and
the builder, None as MISSING, an exception failing the query (and an indexed save,
which changes nothing), and an unregistered model's error."""

import pytest

import doclite
from doclite import DataSource, Expression, Function, QueryBuilder, SelectResult


def sentiment(input):
    text = input.get("text")
    if text is None:
        return None
    if text == "boom":
        raise ValueError("the model failed")
    score = sum(word in ("good", "great") for word in text.lower().split()) - ("awful" in text.lower())
    return {"label": "positive" if score >= 0 else "negative", "score": score}


@pytest.fixture
def reviews(db):
    db.default_collection().save_many({"r1": {"text": "great room good food"}, "r2": {"text": "awful noise"},
                                       "r3": {"stars": 4}, "r4": {"text": "boom"}})
    doclite.register_model("sentiment", sentiment)
    yield db
    doclite.unregister_model("sentiment")


def test_a_python_model_answers_queries(reviews):
    rows = reviews.query("SELECT META().id, PREDICTION(sentiment, {'text': text}, label) AS label,"
                         " PREDICTION(sentiment, {'text': text}) AS p FROM _ WHERE META().id != 'r4' ORDER BY META().id")
    assert [(row["id"], row.get("label"), row.get("p")) for row in rows] == [
        ("r1", "positive", {"label": "positive", "score": 2}), ("r2", "negative", {"label": "negative", "score": -1}),
        ("r3", None, None)]
    built = (QueryBuilder.select(SelectResult.expression(Function.prediction("sentiment", {"text": Expression.property("text")})))
             .from_(DataSource.database(reviews)).where(Expression.property("text") == "awful noise"))
    assert [row[0] for row in built.execute()] == [{"label": "negative", "score": -1}]


def test_an_exception_fails_the_query_and_the_save_that_needs_it(reviews):
    with pytest.raises(doclite.InvalidQueryError, match="predictive model 'sentiment' failed: ValueError: the model failed"):
        list(reviews.query("SELECT PREDICTION(sentiment, {'text': text}, label) AS l FROM _ WHERE META().id = 'r4'"))
    reviews.default_collection().purge("r4")
    reviews.default_collection().create_predictive_index("labels", "sentiment", "{'text': text}", properties=["label"])
    with pytest.raises(doclite.InvalidQueryError, match="ValueError: the model failed"):
        reviews.default_collection().save({"text": "boom"}, id="r5")
    assert reviews.default_collection().get("r5") is None
    rows = reviews.query("SELECT META().id FROM _ WHERE PREDICTION(sentiment, {'text': text}, label) = 'positive'")
    assert [row["id"] for row in rows] == ["r1"]


def test_an_unregistered_model_fails_the_query_naming_it(reviews):
    doclite.unregister_model("sentiment")
    with pytest.raises(doclite.InvalidQueryError, match="no predictive model named 'sentiment'"):
        list(reviews.query("SELECT PREDICTION(sentiment, {'text': text}) FROM _"))
    with pytest.raises(TypeError):
        doclite.register_model("x", 42)


def test_a_model_registered_again_replaces_the_first_safely(reviews):
    import gc
    doclite.register_model("sentiment", lambda input: {"label": "first"})
    doclite.register_model("sentiment", lambda input: {"label": "second"})   # the first one's callbacks end here
    gc.collect()
    rows = reviews.query("SELECT PREDICTION(sentiment, {'text': text}, label) AS l FROM _ WHERE META().id = 'r1'")
    assert [row["l"] for row in rows] == ["second"]
