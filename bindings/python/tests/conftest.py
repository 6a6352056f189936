import pytest

import doclite


@pytest.fixture
def db(tmp_path):
    """A fresh database, closed after the test; the test must leave no library handle behind."""
    before = doclite.instance_count()
    database = doclite.open(tmp_path / "test")
    yield database
    database.close()
    import gc
    gc.collect()
    assert doclite.instance_count() == before
