"""Predictive models: Python callables that queries call with
PREDICTION(model, input[, path]), registered by name for the whole process."""

import itertools
import json
import threading
from typing import Any, Callable, Dict, Optional, Tuple

from ._ffi import c_callback, ffi, json_text, lib, libc as _libc, text
from ._types import JSONObject

_models: Dict[int, Tuple[Any, Any]] = {}   # registration number → its C callbacks, alive until the library calls `unregistered`
_models_lock = threading.Lock()
_registrations = itertools.count()


def register_model(name: str, model: Callable[[JSONObject], Optional[JSONObject]]) -> None:
    """Registers `model` as `name` (replacing one of that name): queries call it with the
    input dict and read its dict, or MISSING when it returns None. It runs on the
    library's threads (possibly several at once) while a query holds its database, so it
    must not change a database or use another one; it may read that database's blobs:
    `db.get_blob(input["photo"]).content` for a blob's metadata in the input. An exception
    it raises fails the query with InvalidQueryError naming the model, the exception's type
    and message; a save whose predictive or value index needs the prediction then fails
    and changes nothing."""
    if not callable(model):
        raise TypeError("a model is a callable taking a dict and returning a dict or None")
    name_text = text(name, "the model name")

    @c_callback("char*(void*, const char*)")
    def predict(context: Any, input_json: Any) -> Any:
        try:
            output = model(json.loads(ffi.string(input_json).decode("utf-8")))
            if output is None:
                return ffi.NULL
            if not isinstance(output, dict):
                raise TypeError(f"model {name!r} returned a {type(output).__name__}, not a dict")
            result = json_text(output, f"model {name!r}'s prediction")
        except Exception as exception:   # a JSON string: DocLite fails the query with it
            result = json.dumps(f"{type(exception).__name__}: {exception}").encode("utf-8")   # (ASCII)
        buffer = ffi.cast("char*", _libc.malloc(len(result) + 1))   # DocLite frees it
        if buffer == ffi.NULL:
            return ffi.NULL
        ffi.memmove(buffer, result + b"\0", len(result) + 1)
        return buffer

    registration = next(_registrations)

    @c_callback("void(void*)")
    def unregistered(context: Any) -> None:
        # The library's last use of this registration (replaced or unregistered, no call running).
        with _models_lock:
            _models.pop(registration, None)

    with _models_lock:
        _models[registration] = (predict, unregistered)
    descriptor = ffi.new("CBLPredictiveModel*", {"context": ffi.NULL, "prediction": predict, "unregistered": unregistered})
    lib.CBL_RegisterPredictiveModel(name_text, descriptor[0])


def unregister_model(name: str) -> None:
    """Unregisters the model `name`: queries calling it then fail, naming it."""
    lib.CBL_UnregisterPredictiveModel(text(name, "the model name"))
