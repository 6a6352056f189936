"""Sync through a PostgreSQL server the tests start (scripts/postgres-server in the
source tree); skipped, saying why, when PostgreSQL or the script is not there."""

import gc
import pathlib
import subprocess
import threading
import uuid

import pytest

import doclite

SCRIPT = pathlib.Path(__file__).resolve().parents[3] / "scripts" / "postgres-server"


@pytest.fixture(scope="module")
def server(tmp_path_factory):
    """The superuser's connection string to a fresh database of a private server."""
    if not SCRIPT.exists():
        pytest.skip(f"{SCRIPT} is not there (tests run outside the source tree)")
    directory = pathlib.Path("/tmp") / f"doclite-py-pg-{uuid.uuid4().hex[:8]}"
    started = subprocess.run([str(SCRIPT), "start", str(directory)], capture_output=True, text=True)
    if started.returncode == 3:
        pytest.skip(started.stderr.strip())
    assert started.returncode == 0, started.stderr
    admin = started.stdout.strip()
    yield admin
    subprocess.run([str(SCRIPT), "stop", str(directory)], capture_output=True)
    subprocess.run(["rm", "-rf", str(directory)])


@pytest.fixture
def database_url(server):
    """A fresh server database with DocLite's schema; the test must leave no library handle behind."""
    gc.collect()   # (what earlier tests left to the collector is theirs)
    before = doclite.instance_count()
    name = "py_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", server, "-qc", f"CREATE DATABASE {name}"], check=True)
    url = server.replace("dbname=postgres", f"dbname={name}")
    doclite.initialize_server(url)
    yield url
    gc.collect()
    assert doclite.instance_count() == before


def test_two_databases_converge_through_the_server(tmp_path, database_url):
    with doclite.open(tmp_path / "a") as a, doclite.open(tmp_path / "b") as b:
        a_docs, b_docs = a.default_collection(), b.default_collection()
        for i in range(25):
            a_docs[f"doc-{i}"] = {"n": i, "city": "Paris"}
        pushed = []
        with doclite.Replicator([a_docs], database_url, type="push") as replicator:
            token = replicator.add_document_listener(lambda documents: pushed.extend(documents))
            status = replicator.run()
            token.remove()
        assert status.activity == "stopped" and status.error is None
        assert status.document_count == 25 and status.complete == 1.0
        assert sorted(d.id for d in pushed) == sorted(f"doc-{i}" for i in range(25))
        with doclite.Replicator([b_docs], database_url) as replicator:
            replicator.run()
        assert b_docs["doc-7"].properties == {"n": 7, "city": "Paris"}
        assert len(b_docs) == 25

        del b_docs["doc-3"]
        b_docs["from-b"] = {"from": "b"}
        with doclite.Replicator([b_docs], database_url) as replicator:
            replicator.run()
        levels, stopped = [], threading.Event()

        def on_status(status):
            levels.append(status.activity)
            if status.activity == "stopped":
                stopped.set()

        with doclite.Replicator([a_docs], database_url) as replicator:
            replicator.add_change_listener(on_status)
            replicator.run()
            # The listener is called on the library's thread, possibly after run() returned.
            assert stopped.wait(5), f"no stopped status reached the listener: {levels}"
        assert "doc-3" not in a_docs and a_docs["from-b"].properties == {"from": "b"}
        assert levels[0] == "connecting" and levels[-1] == "stopped"


def test_pending_documents_and_a_continuous_replicator(tmp_path, database_url):
    with doclite.open(tmp_path / "a") as a, doclite.open(tmp_path / "b") as b:
        a_docs, b_docs = a.default_collection(), b.default_collection()
        a_docs["one"] = {"v": 1}
        with doclite.Replicator([a_docs], database_url, type="push") as pusher:
            assert pusher.pending_document_ids(a_docs) == {"one"}
            assert pusher.is_document_pending("one", a_docs)
            pusher.run()
            assert pusher.pending_document_ids(a_docs) == set()
        arrived = threading.Event()
        token = b_docs.add_change_listener(lambda change: "two" in change.document_ids and arrived.set())
        with doclite.Replicator([b_docs], database_url, continuous=True) as follower:
            follower.start()
            a_docs["two"] = {"v": 2}
            with doclite.Replicator([a_docs], database_url, type="push") as pusher:
                pusher.run()
            assert arrived.wait(5), "the continuous replicator did not pull the change"
        token.remove()
        assert b_docs["two"].properties == {"v": 2}


def test_bad_input_is_an_error(tmp_path, database_url):
    with pytest.raises(doclite.DocLiteError) as bad_url:
        doclite.Replicator([], "postgresql://[bad")
    assert bad_url.value.domain == 5 and bad_url.value.code == 4
    with doclite.open(tmp_path / "a") as a:
        docs = a.default_collection()
        with pytest.raises(ValueError):
            doclite.Replicator([docs], database_url, type="sideways")
        with pytest.raises(doclite.InvalidParameterError):
            doclite.Replicator([], database_url)
        wrong = database_url.rsplit("password=", 1)[0] + "password=wrong"
        docs["kept"] = {"v": 1}
        with doclite.Replicator([docs], wrong) as replicator:
            with pytest.raises(doclite.DocLiteError) as refused:
                replicator.run()
        assert refused.value.domain == 6 and refused.value.code == 401
        assert docs["kept"].properties == {"v": 1}


def test_filters_and_a_conflict_resolver(tmp_path, database_url):
    with doclite.open(tmp_path / "a") as a, doclite.open(tmp_path / "b") as b:
        a_docs, b_docs = a.default_collection(), b.default_collection()
        a_docs["shared"] = {"v": 0}
        a_docs["private"] = {"secret": True}
        not_private = lambda document, flags: document.id != "private" and not flags
        with doclite.Replicator([a_docs], database_url, type="push", push_filter=not_private) as replicator:
            replicator.run()
        with doclite.Replicator([b_docs], database_url, pull_filter=lambda document, flags: document["v"] == 0) as replicator:
            replicator.run()
        assert "private" not in b_docs and b_docs["shared"].properties == {"v": 0}

        a_docs["shared"] = {"v": 1, "by": "a"}
        b_docs["shared"] = {"v": 2, "by": "b"}
        with doclite.Replicator([a_docs], database_url, type="push") as replicator:
            replicator.run()
        calls = []

        def merge(document_id, local, remote):
            calls.append((document_id, local["by"], remote["by"]))
            return {"v": local["v"] + remote["v"], "by": "both"}

        with doclite.Replicator([b_docs], database_url, conflict_resolver=merge) as replicator:
            replicator.run()
        with doclite.Replicator([a_docs], database_url, type="pull") as replicator:
            replicator.run()
        assert calls == [("shared", "b", "a")]
        assert b_docs["shared"].properties == a_docs["shared"].properties == {"v": 3, "by": "both"}


def test_two_databases_sync_without_a_server(tmp_path):
    with doclite.open(tmp_path / "a") as a, doclite.open(tmp_path / "b") as b:
        a.default_collection()["memo"] = {"from": "a"}
        b.default_collection()["note"] = {"from": "b"}
        with doclite.Replicator([a.default_collection()], b) as replicator:
            replicator.run()
        assert sorted(a.default_collection()) == sorted(b.default_collection()) == ["memo", "note"]
        with doclite.Replicator([a.default_collection()], a) as itself, pytest.raises(doclite.DocLiteError, match="with itself"):
            itself.run()


def test_a_revoked_channel_purges_or_only_reports(tmp_path, database_url, server):
    role = "py_reader_" + uuid.uuid4().hex[:8]
    subprocess.run(["psql", database_url, "-qc", f"CREATE ROLE {role} LOGIN PASSWORD 'pw'; GRANT doclite_sync TO {role}; "
                    f"INSERT INTO doclite.channel_access VALUES ('{role}', 'team')"], check=True)
    reader_url = f"{database_url} user={role} password=pw"
    with doclite.open(tmp_path / "owner") as owner, doclite.open(tmp_path / "purging") as purging, \
            doclite.open(tmp_path / "keeping") as keeping:
        owner.default_collection()["plan"] = {"channels": "team"}
        with doclite.Replicator([owner.default_collection()], database_url, type="push") as replicator:
            replicator.run()
        for reader in (purging, keeping):
            with doclite.Replicator([reader.default_collection()], reader_url) as replicator:
                replicator.run()
            assert "plan" in reader.default_collection()

        subprocess.run(["psql", database_url, "-qc", f"DELETE FROM doclite.channel_access WHERE role = '{role}'"], check=True)
        with doclite.Replicator([purging.default_collection()], reader_url) as replicator:
            replicator.run()
        assert "plan" not in purging.default_collection()
        removed, reported = [], threading.Event()

        def on_documents(documents):
            removed.extend(d.id for d in documents if d.access_removed)
            if removed:
                reported.set()

        with doclite.Replicator([keeping.default_collection()], reader_url, auto_purge=False) as replicator:
            replicator.add_document_listener(on_documents)
            replicator.run()
            # The listener is called on the library's thread, possibly after run() returned.
            assert reported.wait(5), "the listener was told of no document whose access was removed"
        assert removed == ["plan"] and "plan" in keeping.default_collection()

        # The pull filter is asked before a purge, with ACCESS_REMOVED, and may keep the document.
        subprocess.run(["psql", database_url, "-qc", f"INSERT INTO doclite.channel_access VALUES ('{role}', 'team')"], check=True)
        with doclite.Replicator([purging.default_collection()], reader_url) as replicator:
            replicator.run()
        subprocess.run(["psql", database_url, "-qc", f"DELETE FROM doclite.channel_access WHERE role = '{role}'"], check=True)
        asked = []

        def keep_removed(document, flags):
            asked.append((document.id, flags))
            return flags != doclite.DocumentFlags.ACCESS_REMOVED

        with doclite.Replicator([purging.default_collection()], reader_url, pull_filter=keep_removed) as replicator:
            replicator.run()
        assert asked == [("plan", doclite.DocumentFlags.ACCESS_REMOVED)] and "plan" in purging.default_collection()
