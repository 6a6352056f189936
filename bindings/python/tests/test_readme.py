"""The Python examples of the READMEs run as written."""

import os
import pathlib
import re

import pytest

HERE = pathlib.Path(__file__).resolve().parent
READMES = [HERE.parent / "README.md", HERE.parents[2] / "README.md"]


@pytest.mark.parametrize("readme", READMES, ids=["bindings/python/README.md", "README.md"])
def test_the_python_example_runs(readme, tmp_path, monkeypatch, capsys):
    blocks = re.findall(r"```python\n(.*?)```", readme.read_text(encoding="utf-8"), re.DOTALL)
    assert blocks, f"no Python example in {readme}"
    monkeypatch.chdir(tmp_path)
    os.makedirs("data", exist_ok=True)
    for block in blocks:
        exec(compile(block, str(readme), "exec"), {"__name__": "readme_example"})
    assert "Grand" in capsys.readouterr().out
