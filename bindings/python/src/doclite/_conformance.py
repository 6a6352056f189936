"""The query conformance corpus through this package (the library's CBLConformance_Run):
the library loads each case's database, this package runs the case's query as it runs
any query, and the library compares the rows, with its one list of known differences."""

import json
from typing import Any, Dict, List, Optional

from ._database import Database
from ._errors import DocLiteError, error_from, new_error
from ._ffi import c_callback, ffi, lib, owned_text, text


def run(cases_file: str) -> Dict[str, Any]:
    """The report of the corpus `cases_file` (JSON lines, its data beside it): `passed`,
    `failed` and `skipped` (dicts of `id` and `message` or `reason`), `unexpected` (each
    failure that is not a known difference, each known difference that passes) and
    `summary`."""
    replies: List[Any] = []   # (the last reply, alive until the library's next call)

    @c_callback("const char*(void*, CBLDatabase*, const char*, const char*)")
    def run_query(_context: Any, handle: Any, query: Any, parameters: Any) -> Any:
        reply = _reply(handle, ffi.string(query).decode("utf-8"),
                       None if parameters == ffi.NULL else ffi.string(parameters).decode("utf-8"))
        replies[:] = [ffi.new("char[]", reply.encode("utf-8"))]
        return replies[0]

    error = new_error()
    report = owned_text(lib.CBLConformance_Run(text(cases_file, "the cases file"), run_query, ffi.NULL, error))
    if report is None:
        raise error_from(error)
    result: Dict[str, Any] = json.loads(report)
    return result


def _reply(handle: Any, query_text: str, parameters_text: Optional[str]) -> str:
    """The rows of `query_text` (JSON: a JSON query, or a string of SQL++) on the lent
    database, or the error it raised, in CBLConformance_Run's form."""
    database = Database._borrowing(handle)
    try:
        query = json.loads(query_text)
        parameters = None if parameters_text is None else json.loads(parameters_text)
        with database.create_query(query, "sqlpp" if isinstance(query, str) else "json") as compiled:
            rows = list(compiled.execute(parameters))
            return json.dumps({"columns": compiled.columns, "rows": [row.to_list() for row in rows],
                               "missing": [row.missing_mask for row in rows]})
    except DocLiteError as error:
        return json.dumps({"error": {"domain": error.domain, "code": error.code, "message": str(error)}})
    except Exception as error:   # (a fault of this package: reported as the case's failure, not lost in cffi)
        return json.dumps({"error": {"domain": 1, "code": 0, "message": f"{type(error).__name__}: {error}"}})
    finally:
        if database._handle is not None:
            database._handle.release()
