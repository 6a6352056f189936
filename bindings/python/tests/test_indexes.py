"""Array and predictive indexes: the same rows with and without them, plans that read
them, a model called once per saved document and never by a query, and mistakes
raised as the package's exceptions."""

import threading

import pytest

import doclite

BLUE = "SELECT META(d).id, t FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id"
HOME = "SELECT META(d).id, c.city FROM _ AS d UNNEST d.contacts AS c WHERE c.type = 'home' ORDER BY META(d).id"


def rows(db, query):
    return [row.to_dict() for row in db.query(query)]


@pytest.fixture
def people(db):
    db.default_collection().save_many({
        "p1": {"tags": ["red", "blue"], "contacts": [{"type": "home", "city": "Paris"}, {"type": "work", "city": "Rome"}]},
        "p2": {"tags": ["blue", "green"], "contacts": [{"type": "work", "city": "Oslo"}]},
        "p3": {"tags": ["green"], "contacts": [{"type": "home", "city": "Lima"}]},
        "p4": {"name": "no arrays"},
    })
    return db


def test_an_array_index_answers_an_unnest_query_with_the_same_rows(people):
    coll = people.default_collection()
    before = rows(people, BLUE)
    assert before == [{"id": "p1", "t": "blue"}, {"id": "p2", "t": "blue"}]
    plan = people.create_query(BLUE).explain()
    assert "doc_each" in plan and "USING INDEX arr" not in plan

    coll.create_array_index("byTag", "tags")
    assert rows(people, BLUE) == before
    plan = people.create_query(BLUE).explain()
    assert "USING INDEX arr" in plan and "doc_each" not in plan, plan

    # Kept as documents change.
    coll["p5"] = {"tags": ["blue"]}
    coll["p1"] = {"tags": ["red"]}
    del coll["p2"]
    assert rows(people, BLUE) == [{"id": "p5", "t": "blue"}]
    coll.create_array_index("byTag", "tags")   # the same definition again: a no-op
    assert coll.indexes() == ["byTag"]


def test_an_array_index_on_element_expressions(people):
    coll = people.default_collection()
    before = rows(people, HOME)
    assert before == [{"id": "p1", "city": "Paris"}, {"id": "p3", "city": "Lima"}]
    coll.create_array_index("byContact", "contacts", "type, city")
    assert rows(people, HOME) == before
    plan = people.create_query(HOME).explain()
    assert "USING INDEX arr" in plan and "doc_each" not in plan, plan

    # A list of SQL++ expressions, and a JSON array in the JSON query language, define it too.
    coll.create_array_index("byContactList", "contacts", ["type", "city"])
    coll.create_array_index("byContactJSON", "contacts", [[".type"], [".city"]], expression_language="json")
    coll.create_array_index("byTagJSON", "tags", expression_language="json")
    assert rows(people, HOME) == before
    assert rows(people, BLUE) == [{"id": "p1", "t": "blue"}, {"id": "p2", "t": "blue"}]
    assert coll.indexes() == ["byContact", "byContactJSON", "byContactList", "byTagJSON"]
    coll.delete_index("byContactJSON")
    assert "byContactJSON" not in coll.indexes()


class CountingModel:
    """A sentiment model that counts its calls (from any of the library's threads)."""

    def __init__(self):
        self.calls = 0
        self._lock = threading.Lock()

    def __call__(self, input):
        with self._lock:
            self.calls += 1
        text = input.get("text")
        if text is None:
            return None
        return {"label": "positive" if "good" in text else "negative", "length": len(text)}


@pytest.fixture
def model():
    counting = CountingModel()
    doclite.register_model("countedSentiment", counting)
    yield counting
    doclite.unregister_model("countedSentiment")


PREDICTED = ("SELECT META().id, PREDICTION(countedSentiment, {'text': text}) AS p FROM _ ORDER BY META().id")
POSITIVE = ("SELECT META().id FROM _ WHERE PREDICTION(countedSentiment, {'text': text}, label) = 'positive'"
            " ORDER BY META().id")


def test_a_predictive_index_calls_the_model_when_saving_and_never_when_querying(db, model):
    coll = db.default_collection()
    coll.save_many({"r1": {"text": "good food"}, "r2": {"text": "awful noise"}, "r3": {"stars": 4}})
    assert model.calls == 0
    expected = [{"id": "r1", "p": {"label": "positive", "length": 9}},
                {"id": "r2", "p": {"label": "negative", "length": 11}}, {"id": "r3"}]
    assert rows(db, PREDICTED) == expected
    assert model.calls == 3   # without an index: once per row

    coll.create_predictive_index("sentiment", "countedSentiment", "{'text': text}", properties=["label"])
    assert model.calls == 6   # once per document, now
    assert rows(db, PREDICTED) == expected
    assert rows(db, POSITIVE) == [{"id": "r1"}]
    assert model.calls == 6   # the queries read the index
    assert "USING INDEX pred" in db.create_query(POSITIVE).explain()

    coll["r4"] = {"text": "good good"}
    assert model.calls == 7   # saving a document: once
    assert rows(db, POSITIVE) == [{"id": "r1"}, {"id": "r4"}]
    assert model.calls == 7
    coll.create_array_index("byTag", "tags")
    assert coll.indexes() == ["byTag", "sentiment"]

    # Without the model, saving fails (naming it); with it again, saving works.
    doclite.unregister_model("countedSentiment")
    with pytest.raises(doclite.InvalidQueryError, match="countedSentiment"):
        coll["r5"] = {"text": "good"}
    assert "r5" not in coll
    doclite.register_model("countedSentiment", model)
    coll["r5"] = {"text": "good"}
    assert rows(db, POSITIVE) == [{"id": "r1"}, {"id": "r4"}, {"id": "r5"}]

    # Deleted, the index no longer calls the model as documents are saved.
    coll.delete_index("sentiment")
    calls = model.calls
    coll["r6"] = {"text": "good"}
    assert model.calls == calls
    assert coll.indexes() == ["byTag"]


def test_a_predictive_index_defined_in_the_json_query_language(db, model):
    coll = db.default_collection()
    coll.save_many({"r1": {"text": "good food"}, "r2": {"text": "awful noise"}})
    coll.create_predictive_index("sentimentJSON", "countedSentiment", {"text": [".text"]}, properties='["label"]',
                                 expression_language="json")
    assert model.calls == 2
    assert rows(db, POSITIVE) == [{"id": "r1"}]   # the same input in SQL++ reads it
    assert model.calls == 2
    assert coll.indexes() == ["sentimentJSON"]


def test_mistakes_are_exceptions_with_the_library_codes(people, model):
    coll = people.default_collection()
    with pytest.raises(doclite.UnsupportedError, match=r"nested arrays") as error:
        coll.create_array_index("nested", "contacts[].phones")
    assert (error.value.domain, error.value.code) == (1, 19)
    assert isinstance(error.value, doclite.DocLiteError)
    with pytest.raises(doclite.InvalidParameterError) as error:
        coll.create_array_index("noPath", "")
    assert error.value.code == 9
    with pytest.raises(doclite.InvalidQueryError) as error:
        coll.create_array_index("badExpression", "contacts", "type,,")
    assert error.value.code == 23

    with pytest.raises(doclite.InvalidParameterError, match="JSON array of property paths") as error:
        coll.create_predictive_index("badProperties", "countedSentiment", "{'text': text}", properties=["label", 1])
    assert (error.value.domain, error.value.code) == (1, 9)
    with pytest.raises(doclite.InvalidJSONError) as error:
        coll.create_predictive_index("notJSON", "countedSentiment", "{'text': text}", properties="label")
    assert (error.value.domain, error.value.code) == (4, 5)
    with pytest.raises(doclite.InvalidQueryError, match="no predictive model named 'unknownModel'") as error:
        coll.create_predictive_index("noModel", "unknownModel", "{'text': text}")
    assert error.value.code == 23
    with pytest.raises(doclite.InvalidQueryError, match="one input expression"):
        coll.create_predictive_index("twoInputs", "countedSentiment", "text, stars")
    with pytest.raises(ValueError, match="unknown expression language"):
        coll.create_array_index("badLanguage", "tags", expression_language="n1ql")
    with pytest.raises(TypeError):
        coll.create_predictive_index("dictInSQLPP", "countedSentiment", {"text": [".text"]})
    assert coll.indexes() == []
