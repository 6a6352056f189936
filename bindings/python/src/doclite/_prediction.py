"""Predictive models: Python callables that queries call with
PREDICTION(model, input[, path]), registered by name for the whole process."""

import json
import threading
from typing import Any, Callable, Dict, Optional

from ._ffi import ffi, lib

ffi.cdef("void* malloc(size_t size);")
_libc = ffi.dlopen(None)

_models = {}   # name → the C callbacks and handle kept alive while registered
_models_lock = threading.Lock()


def register_model(name: str, model: Callable[[Dict[str, Any]], Optional[Dict[str, Any]]]) -> None:
    """Registers `model` as `name` (replacing one of that name): queries call it with the
    input dict and read its dict, or MISSING when it returns None. It runs on the
    library's threads while a query holds its database, so it must not use a database;
    an exception it raises is reported like a listener's and reads as MISSING."""
    if not callable(model):
        raise TypeError("a model is a callable taking a dict and returning a dict or None")

    @ffi.callback("char*(void*, const char*)")
    def predict(context, input_json):
        try:
            output = model(json.loads(ffi.string(input_json).decode("utf-8")))
            if output is None:
                return ffi.NULL
            if not isinstance(output, dict):
                raise TypeError(f"model {name!r} returned a {type(output).__name__}, not a dict")
            text = json.dumps(output, allow_nan=False).encode("utf-8")
        except Exception as exception:   # reaches the user, never C
            from . import listener_error as report
            report(exception)
            return ffi.NULL
        buffer = ffi.cast("char*", _libc.malloc(len(text) + 1))   # DocLite frees it
        if buffer == ffi.NULL:
            return ffi.NULL
        ffi.memmove(buffer, text + b"\0", len(text) + 1)
        return buffer

    @ffi.callback("void(void*)")
    def unregistered(context):
        with _models_lock:
            entry = _models.get(name)
            if entry is not None and entry[0] is predict:
                del _models[name]

    with _models_lock:
        _models[name] = (predict, unregistered)
    descriptor = ffi.new("CBLPredictiveModel*", {"context": ffi.NULL, "prediction": predict, "unregistered": unregistered})
    lib.CBL_RegisterPredictiveModel(name.encode("utf-8"), descriptor[0])


def unregister_model(name: str) -> None:
    """Unregisters the model `name`: queries calling it then fail, naming it."""
    lib.CBL_UnregisterPredictiveModel(name.encode("utf-8"))
