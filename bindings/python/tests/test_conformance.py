"""The public conformance corpus through the Python package: the library's runner
(CBLConformance_Run) loads each case, the package runs its query, and the rows must
be the library's own results, with its one list of known differences."""

import os

import pytest

from doclite import _conformance

CASES = os.path.join(os.path.dirname(__file__), "..", "..", "..", "..", "shared", "conformance", "cases.jsonl")


def test_the_corpus_gives_the_librarys_results():
    if not os.path.exists(CASES):
        pytest.skip(f"{os.path.abspath(CASES)} is not there (the shared folder is not beside the repository)")
    report = _conformance.run(CASES)
    assert report["unexpected"] == [], report["unexpected"]
    # The TZ cases need UTC; nothing else is skipped.
    assert all("TZ" in case["reason"] for case in report["skipped"]), report["skipped"]
    assert report["passed"] >= 215, report["summary"]
    print(f"conformance through Python: {report['summary']}")


def test_a_runner_error_is_an_error():
    with pytest.raises(Exception, match="cases"):
        _conformance.run("/nonexistent/cases.jsonl")
