"""The package is typed (issue 36): it ships py.typed, `mypy --strict` passes on its source
and on examples/typed_example.py, a program using the main API, and that program runs."""

import importlib.util
import os
import subprocess
import sys
import tempfile

import pytest

import doclite

PROJECT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))   # bindings/python
SOURCE = os.path.join(PROJECT, "src", "doclite")
EXAMPLE = os.path.join(PROJECT, "examples", "typed_example.py")
# mypy's cache, kept between runs (outside the source tree) so that a second run takes a second.
CACHE = os.path.join(tempfile.gettempdir(), f"doclite-mypy-cache-{os.getuid() if hasattr(os, 'getuid') else 0}")


def mypy(*targets):
    """Runs `python -m mypy --strict` with the package's configuration (pyproject.toml's
    [tool.mypy]: the package found in src/) on `targets`; its output, asserting it passed."""
    if importlib.util.find_spec("mypy") is None:
        pytest.skip("mypy is not installed: the typing checks did not run "
                    "(pip install mypy, or the package's [test] extra, which has it)")
    result = subprocess.run([sys.executable, "-m", "mypy", "--strict", "--config-file",
                             os.path.join(PROJECT, "pyproject.toml"), "--cache-dir", CACHE, *targets],
                            cwd=PROJECT, capture_output=True, text=True)
    assert result.returncode == 0, f"mypy --strict {' '.join(targets)} failed:\n{result.stdout}{result.stderr}"
    return result.stdout


def test_package_is_marked_typed():
    assert os.path.isfile(os.path.join(SOURCE, "py.typed"))
    assert os.path.isfile(os.path.join(SOURCE, "_doclite_cffi.pyi"))   # (the build-time cffi module's types)
    if "site-packages" in doclite.__file__:   # an installed wheel carries the marker too
        assert os.path.isfile(os.path.join(os.path.dirname(doclite.__file__), "py.typed"))


def test_mypy_strict_on_the_package():
    assert "Success" in mypy(SOURCE)


def test_mypy_strict_on_the_typed_example():
    assert "Success" in mypy(EXAMPLE)


def test_the_typed_example_runs(tmp_path):
    # The example imports the doclite these tests import (an installed one, or a build's copy).
    package_parent = os.path.dirname(os.path.dirname(os.path.abspath(doclite.__file__)))
    environment = dict(os.environ, PYTHONPATH=os.pathsep.join(filter(None, [package_parent,
                                                                            os.environ.get("PYTHONPATH")])))
    result = subprocess.run([sys.executable, EXAMPLE, str(tmp_path)], capture_output=True, text=True,
                            env=environment, timeout=120)
    assert result.returncode == 0, result.stdout + result.stderr
    assert result.stdout.splitlines() == [
        "changed: h1, h2, h3",
        "sqlpp: Grand, Petit",
        "builder: Bristol (LONDON), Grand (PARIS)",
        "rooms: 13",
        "collections: _default._default, inventory.hotels",
    ]
    assert os.path.isfile(tmp_path / "travel.doclite")
