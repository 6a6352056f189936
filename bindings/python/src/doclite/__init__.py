"""DocLite for Python: an embedded JSON document database with Couchbase
Lite's query language (SQL++ and LiteCore's JSON queries).

    import doclite
    with doclite.open("data/travel") as db:
        hotels = db.create_collection("hotels", scope="inventory")
        hotels["hotel-1"] = {"name": "Grand", "city": "Paris"}
        for row in db.query("SELECT name FROM inventory.hotels WHERE city = $city", {"city": "Paris"}):
            print(row["name"])
"""

from ._builder import (ArrayExpression, ArrayFunction, BuiltQuery, Collation, DataSource, Expression, FullTextFunction,
                       Function, Join, Meta, Ordering, QueryBuilder, SelectResult)
from ._blob import Blob, BlobReadStream
from ._database import (Collection, ConcurrencyControl, Database, Document, MaintenanceType, Scope, database_exists,
                        delete_database, open)
from ._errors import (BadDocumentIDError, BusyError, ConflictError, CorruptDataError, DocLiteError, InvalidJSONError,
                      InvalidParameterError, InvalidQueryError, InvalidQueryParameterError, NotFoundError,
                      NotOpenError, QueryInterruptedError, UnsupportedError)
from ._ffi import borrowed_text as _borrowed_text, lib as _lib
from ._listeners import CollectionChange, ListenerToken, QueryChange, listener_error
from ._predicate import PredicateQueryBuilder
from ._prediction import register_model, unregister_model
from ._query import Query, ResultSet, Row
from ._replicator import DocumentFlags, ReplicatedDocument, Replicator, ReplicatorStatus, initialize_server
from ._types import JSONObject, JSONValue
from ._vector import DistanceMetric, IndexUpdater, QueryIndex, VectorEncoding

__version__: str = _borrowed_text(_lib.CBL_Version()) or ""

__all__ = [
    "open", "database_exists", "delete_database", "register_model", "unregister_model", "Database", "Scope",
    "Collection", "Document", "ConcurrencyControl", "Blob", "BlobReadStream", "MaintenanceType", "Query", "ResultSet", "Row",
    "QueryBuilder", "BuiltQuery", "ArrayFunction", "ArrayExpression", "FullTextFunction", "SelectResult", "DataSource", "Join", "Expression", "Meta", "Function", "Ordering",
    "Collation", "PredicateQueryBuilder", "ListenerToken", "CollectionChange", "QueryChange", "listener_error",
    "DocLiteError", "NotOpenError", "NotFoundError", "ConflictError", "InvalidParameterError", "BadDocumentIDError",
    "InvalidQueryError", "InvalidQueryParameterError", "InvalidJSONError", "BusyError", "CorruptDataError", "UnsupportedError",
    "QueryInterruptedError", "JSONValue", "JSONObject", "instance_count",
    "Replicator", "ReplicatorStatus", "ReplicatedDocument", "DocumentFlags", "initialize_server",
    "DistanceMetric", "VectorEncoding", "QueryIndex", "IndexUpdater",
]


def instance_count() -> int:
    """The number of live library handles (for leak tests)."""
    count: int = _lib.CBL_InstanceCount()
    return count
