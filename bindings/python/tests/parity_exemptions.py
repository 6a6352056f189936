"""The C functions of include/doclite.h that a binding does not call, each with the reason
(issue 36's API parity). tests/test_parity.py fails on a header function that a binding
neither calls nor names here, and on a name here that the binding calls or the header no
longer declares. Review a change to this file as a change to the bindings' API.

A reason says where the binding's user finds the capability instead, or why there is
none to find. "TODO(rust): …" marks a capability the Rust crate lacks and should have.
"""

import csv
import os
from typing import Dict, List


def _builder_functions() -> List[str]:
    """C's CBLQueryFunction_* and CBLQueryArrayFunction_* of the builders' one table (codegen/query-functions.tsv, beside
    the header in a source checkout; without it the parity check does not run)."""
    table = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "..", "..", "codegen", "query-functions.tsv")
    if not os.path.isfile(table):
        return []
    with open(table, newline="") as file:
        rows = csv.DictReader((line for line in file if not line.startswith("#")), delimiter="\t")
        return [f"CBLQuery{row['class']}_{row['name']}" for row in rows]


def _each(names: List[str], reason: str) -> Dict[str, str]:
    """`reason` for each of `names` (one shared reason for a family of functions)."""
    return dict.fromkeys(names, reason)


# ---- Neither binding calls these, for the same reason ----------------------------------------

_COMMON: Dict[str, str] = {
    **_each(["CBLDatabaseConfiguration_Default"],
            "the bindings fill CBLDatabaseConfiguration themselves, with its defaults (the current "
            "directory, no full sync) when the caller gives none"),
    **_each(["CBL_Now"],
            "the host language's clock gives the same milliseconds since 1970 (Python: "
            "time.time_ns() // 1_000_000; Rust: SystemTime::now())"),
    **_each(["CBLPredicateQueryBuilder_Run"],
            "the predicate builder's create_query(context) then execute() is all that C's _Run does "
            "(Python also has PredicateQueryBuilder.run)"),
    **_each(["CBLResultSet_Next",
             "CBLResultSet_TypeAtIndex", "CBLResultSet_TypeForKey", "CBLResultSet_BoolAtIndex", "CBLResultSet_BoolForKey",
             "CBLResultSet_IntAtIndex", "CBLResultSet_IntForKey", "CBLResultSet_DoubleAtIndex",
             "CBLResultSet_DoubleForKey", "CBLResultSet_StringAtIndex", "CBLResultSet_StringForKey",
             "CBLResultSet_JSONAtIndex", "CBLResultSet_JSONForKey", "CBLResultSet_CreateRowDictJSON",
             "CBLResultSet_CreateRowArrayJSON"],
            "C's row-at-a-time, column-at-a-time reading: the bindings read whole rows, a block at a time "
            "in one call (CBLResultSet_NextRowsMarshal), and their Row gives each column by index or title, "
            "typed by the host language"),
    **_each(["CBLResultSet_NextRowsJSON"],
            "both bindings read the same block of rows in marshal form (CBLResultSet_NextRowsMarshal: no JSON "
            "text to write in C nor to parse); the JSON form is for other callers"),
    **_each(["CBLQuery_SetQueryParameters", "CBLQueryParameters_New", "CBLQueryParameters_Copy",
             "CBLQueryParameters_SetString", "CBLQueryParameters_SetInt", "CBLQueryParameters_SetDouble",
             "CBLQueryParameters_SetFloat", "CBLQueryParameters_SetBool", "CBLQueryParameters_SetDate",
             "CBLQueryParameters_SetNull", "CBLQueryParameters_SetJSON"],
            "C's typed parameter objects: the bindings set a query's parameters from a dict (Python) or a "
            "Serialize value (Rust) as one JSON object with CBLQuery_SetParameters, which holds every value "
            "these setters make"),
    **_each([
        "CBLQueryBuilder_New", "CBLQueryBuilder_Create", "CBLQueryBuilder_Select", "CBLQueryBuilder_SetDistinct",
        "CBLQueryBuilder_From", "CBLQueryBuilder_Join", "CBLQueryBuilder_Where", "CBLQueryBuilder_GroupBy",
        "CBLQueryBuilder_Having", "CBLQueryBuilder_OrderBy", "CBLQueryBuilder_Limit", "CBLQueryBuilder_Build",
        "CBLQueryArrayExpression_Any", "CBLQueryArrayExpression_AnyAndEvery", "CBLQueryArrayExpression_Every",
        "CBLQueryArrayExpression_Variable",
        "CBLQueryCollation_ASCII", "CBLQueryCollation_Unicode", "CBLQueryDataSource_Collection",
        "CBLQueryDataSource_CollectionAs", "CBLQueryDataSource_Database", "CBLQueryDataSource_DatabaseAs",
        "CBLQueryExpression_Add", "CBLQueryExpression_All", "CBLQueryExpression_And", "CBLQueryExpression_Array",
        "CBLQueryExpression_Between", "CBLQueryExpression_Bool", "CBLQueryExpression_Collate",
        "CBLQueryExpression_Date", "CBLQueryExpression_Dictionary", "CBLQueryExpression_Divide",
        "CBLQueryExpression_Double", "CBLQueryExpression_EqualTo", "CBLQueryExpression_Float",
        "CBLQueryExpression_GreaterThan", "CBLQueryExpression_GreaterThanOrEqualTo", "CBLQueryExpression_In",
        "CBLQueryExpression_Int", "CBLQueryExpression_Is", "CBLQueryExpression_IsNot",
        "CBLQueryExpression_IsNotValued", "CBLQueryExpression_IsValued", "CBLQueryExpression_LessThan",
        "CBLQueryExpression_LessThanOrEqualTo", "CBLQueryExpression_Like", "CBLQueryExpression_Modulo",
        "CBLQueryExpression_Multiply", "CBLQueryExpression_Negated", "CBLQueryExpression_Not",
        "CBLQueryExpression_NotEqualTo", "CBLQueryExpression_Null", "CBLQueryExpression_Or",
        "CBLQueryExpression_Parameter", "CBLQueryExpression_Property", "CBLQueryExpression_PropertyFrom",
        "CBLQueryExpression_Regex", "CBLQueryExpression_String", "CBLQueryExpression_Subtract",
        "CBLQueryFullTextFunction_Match", "CBLQueryFullTextFunction_Rank", *_builder_functions(),
        "CBLQueryJoin_CrossJoin", "CBLQueryJoin_Join",
        "CBLQueryJoin_LeftJoin", "CBLQueryLimit_Limit", "CBLQueryLimit_LimitOffset", "CBLQueryMeta_Expiration",
        "CBLQueryMeta_ID", "CBLQueryMeta_IsDeleted", "CBLQueryMeta_RevisionID", "CBLQueryMeta_Sequence",
        "CBLQueryOrdering_Ascending", "CBLQueryOrdering_Descend", "CBLQueryOrdering_Descending",
        "CBLQueryOrdering_Expression", "CBLQueryOrdering_Property", "CBLQuerySelectResult_All",
        "CBLQuerySelectResult_Expression", "CBLQuerySelectResult_ExpressionAs", "CBLQuerySelectResult_Property"],
        "query-builder handles: each binding's QueryBuilder (Expression, Function, ArrayFunction, "
        "ArrayExpression, FullTextFunction, Meta, Collation, SelectResult, DataSource, Join, Ordering) writes "
        "LiteCore's JSON query itself, compiled once by CBLDatabase_CreateQuery with kCBLJSONLanguage, "
        "instead of a library call and a handle per part"),
}

# ---- The Python package -------------------------------------------------------------------------

PYTHON: Dict[str, str] = {
    **_COMMON,
    **_each(["CBL_VersionNumber"],
            "the package's cffi module is made from the header in the same build as the library the wheel "
            "ships, so there is no other version to compare; doclite.__version__ is CBL_Version's text"),
    **_each(["CBLCollection_Name", "CBLCollection_ScopeName"],
            "Python keeps the names it opened the collection by (Collection.name, Collection.scope_name), "
            "the same text as the library's"),
    **_each(["CBLDocument_MutableCopy"],
            "a Python Document is a dict of properties and its revision, copied as any object is "
            "(Document(doc.id, doc.properties)); no document handle outlives a call"),
    **_each(["CBLDocument_SetBlob", "CBLDocument_GetBlob"],
            "Document.set_blob / get_blob work on the properties dict: a Blob is saved as its metadata "
            "(CBLBlob_CreateJSON) with its content stored by CBLDatabase_SaveBlob, and read back with "
            "CBLDatabase_GetBlob"),
}

# ---- The Rust crate -------------------------------------------------------------------------------

RUST: Dict[str, str] = {
    **_COMMON,
    **_each(["CBLCollection_SaveDocument", "CBLCollection_DeleteDocument"],
            "the crate saves and deletes through the …WithConcurrencyControl forms; the last write wins "
            "with kCBLConcurrencyControlLastWriteWins, which is what these do"),
    **_each(["CBLDocument_Create"],
            "CBLDocument_CreateWithID with a NULL ID makes the same document with an automatic ID"),
}
