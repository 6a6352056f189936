"""Stopping a query while it runs (issue 36): Ctrl-C, Query.interrupt() and
ResultSet.interrupt() from another thread, and a progress handler."""

import os
import subprocess
import sys
import textwrap
import threading

import pytest

import doclite

# A three-way join of 300 documents: 27 million rows to count, minutes of work unless stopped.
ENDLESS = "SELECT COUNT(*) AS n FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n - 1000"


@pytest.fixture
def numbers(db):
    collection = db.default_collection()
    collection.save_many((f"d{n}", {"n": n}) for n in range(300))
    return db


def test_ctrl_c_raises_keyboard_interrupt_within_100_ms(tmp_path):
    # In a process of its own: SIGINT to itself, as Ctrl-C sends it, from another thread
    # once the progress handler's first call (made every PROGRESS_STEPS steps, as without
    # a handler) shows the query running; the handler lets the query go on.
    script = textwrap.dedent(f"""
        import os, signal, threading, time
        import doclite
        db = doclite.open({str(tmp_path / "ctrl-c")!r})
        db.default_collection().save_many((f"d{{n}}", {{"n": n}}) for n in range(300))
        query = db.create_query({ENDLESS!r})
        running = threading.Event()
        def on_progress():
            running.set()
            return False
        query.set_progress_handler(on_progress)
        sent = []
        def press_ctrl_c():
            if running.wait(60):
                sent.append(time.perf_counter())
                os.kill(os.getpid(), signal.SIGINT)
        threading.Thread(target=press_ctrl_c, daemon=True).start()
        try:
            query.execute().all()
            print("not interrupted")
        except KeyboardInterrupt:
            print("KeyboardInterrupt", (time.perf_counter() - sent[0]) * 1000)
        db.close()
    """)
    done = subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, timeout=120,
                          env=dict(os.environ))
    assert done.returncode == 0, done.stderr
    word, milliseconds = done.stdout.split()
    assert word == "KeyboardInterrupt"
    assert float(milliseconds) < 100, f"Ctrl-C took {milliseconds} ms"


def test_interrupt_from_another_thread(numbers):
    query = numbers.create_query(ENDLESS)
    # The other thread interrupts once the progress handler's first call shows the query
    # running; the handler itself lets the query go on.
    running = threading.Event()

    def on_progress():
        running.set()
        return False

    query.set_progress_handler(on_progress, 1000)

    def interrupt_when_running():
        if running.wait(60):
            query.interrupt()

    interrupter = threading.Thread(target=interrupt_when_running)
    interrupter.start()
    with pytest.raises(doclite.QueryInterruptedError, match="interrupted") as raised:
        query.execute().all()
    interrupter.join()
    assert (raised.value.domain, raised.value.code) == (3, 9)
    # A later run is not affected.
    query = numbers.create_query("SELECT COUNT(*) AS n FROM _")
    query.interrupt()
    assert [row["n"] for row in query.execute()] == [300]


def test_progress_handler_stops_the_query(numbers):
    query = numbers.create_query(ENDLESS)
    calls = []

    def enough():
        calls.append(1)
        return len(calls) >= 3   # (true stops, as sqlite3's)

    query.set_progress_handler(enough, 10_000)
    with pytest.raises(doclite.QueryInterruptedError):
        query.execute()
    assert len(calls) == 3

    def fails():
        raise ValueError("stop here")

    query.set_progress_handler(fails, 1000)
    with pytest.raises(ValueError, match="stop here"):
        query.execute()

    query.set_progress_handler(None)
    few = numbers.create_query("SELECT n FROM _ WHERE n < 3 ORDER BY n")
    few.set_progress_handler(lambda: False, 1)
    assert [row["n"] for row in few.execute()] == [0, 1, 2]


def test_progress_handler_arguments_are_checked(numbers):
    query = numbers.create_query("SELECT n FROM _")
    with pytest.raises(TypeError):
        query.set_progress_handler(5)
    with pytest.raises(ValueError):
        query.set_progress_handler(lambda: False, 0)


def test_result_set_interrupt(numbers):
    results = numbers.create_query("SELECT n FROM _ ORDER BY n").execute()
    results.block = 1
    assert next(results)["n"] == 0
    results.interrupt()
    with pytest.raises(doclite.QueryInterruptedError):
        next(results)
