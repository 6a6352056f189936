/* Queries through the C ABI: JSON queries with parameters, every value type
   read by index and by key (MISSING told from null), whole rows as JSON,
   explain, value indexes, SQL++ queries and indexes, and errors with positions. */
#include "test_support.h"

static CBLQuery* create_query(CBLDatabase* db, const char* json) {
    CBLError err;
    int position = 99;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage, json, &position, &err);
    CHECK_OK(query != NULL, err);
    return query;
}

static void test_parameterized_query_reads_every_type(CBLDatabase* db) {
    CBLError err;
    CBLQuery* query = create_query(db,
        "{\"WHAT\": [[\"._id\"], [\".s\"], [\".i\"], [\".d\"], [\".b\"], [\".n\"], [\".gone\"], [\".a\"], [\".o\"],"
        "            [\"AS\", [\">\", [\".i\"], [\"$min\"]], \"big\"]],"
        " \"WHERE\": [\"AND\", [\">=\", [\".i\"], [\"$min\"]], [\"=\", [\".kind\"], [\"$kind\"]]],"
        " \"ORDER_BY\": [[\".i\"]]}");
    CHECK(CBLQuery_ColumnCount(query) == 10);
    CHECK_STR(CBLQuery_ColumnName(query, 0), "id");
    CHECK_STR(CBLQuery_ColumnName(query, 9), "big");
    CHECK(CBLQuery_ColumnName(query, 10) == NULL);

    CHECK_OK(CBLQuery_SetParameters(query, "{\"min\": 2, \"kind\": \"t\"}", &err), err);
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CHECK(CBLResultSet_TypeAtIndex(rs, 0) == kCBLValueMissing);   /* before the first row */

    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d2");
    CHECK(CBLResultSet_TypeAtIndex(rs, 1) == kCBLValueString);
    CHECK_STR(CBLResultSet_StringForKey(rs, "s"), "two");
    CHECK(CBLResultSet_TypeForKey(rs, "i") == kCBLValueInteger);
    CHECK(CBLResultSet_IntAtIndex(rs, 2) == 2);
    CHECK(CBLResultSet_TypeAtIndex(rs, 3) == kCBLValueDouble);
    CHECK(CBLResultSet_DoubleForKey(rs, "d") == 2.5);
    CHECK(CBLResultSet_TypeAtIndex(rs, 4) == kCBLValueBoolean);
    CHECK(CBLResultSet_BoolForKey(rs, "b") == true);
    CHECK(CBLResultSet_TypeAtIndex(rs, 5) == kCBLValueNull);
    CHECK_STR(CBLResultSet_JSONAtIndex(rs, 5), "null");
    CHECK(CBLResultSet_TypeAtIndex(rs, 6) == kCBLValueMissing);
    CHECK(CBLResultSet_JSONForKey(rs, "gone") == NULL);
    CHECK(CBLResultSet_TypeAtIndex(rs, 7) == kCBLValueArray);
    CHECK_STR(CBLResultSet_JSONAtIndex(rs, 7), "[1,\"x\",null]");
    CHECK(CBLResultSet_TypeForKey(rs, "o") == kCBLValueDict);
    CHECK_STR(CBLResultSet_JSONForKey(rs, "o"), "{\"k\":[true]}");
    CHECK(CBLResultSet_TypeAtIndex(rs, 9) == kCBLValueBoolean && CBLResultSet_BoolAtIndex(rs, 9) == false);
    CHECK(CBLResultSet_StringAtIndex(rs, 2) == NULL);     /* not a string */
    CHECK(CBLResultSet_IntForKey(rs, "s") == 0);
    CHECK(CBLResultSet_TypeAtIndex(rs, 42) == kCBLValueMissing);
    CHECK(CBLResultSet_TypeForKey(rs, "nope") == kCBLValueMissing);

    char* dict = CBLResultSet_CreateRowDictJSON(rs);
    CHECK_STR(dict, "{\"a\":[1,\"x\",null],\"b\":true,\"big\":false,\"d\":2.5,\"i\":2,\"id\":\"d2\",\"n\":null,\"o\":{\"k\":[true]},\"s\":\"two\"}");
    CBL_FreeString(dict);
    char* array = CBLResultSet_CreateRowArrayJSON(rs);
    CHECK_STR(array, "[\"d2\",\"two\",2,2.5,true,null,null,[1,\"x\",null],{\"k\":[true]},false]");
    CBL_FreeString(array);

    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d3");
    CHECK(CBLResultSet_BoolAtIndex(rs, 9) == true);
    CHECK(CBLResultSet_TypeAtIndex(rs, 4) == kCBLValueMissing);
    err = poisoned_error();
    CHECK(!CBLResultSet_Next(rs, &err));
    CHECK(err.code == 0);
    CHECK(CBLResultSet_CreateRowDictJSON(rs) == NULL);
    CBL_Release(rs);

    /* New parameters, a second run; releasing the query first keeps the result set valid. */
    CHECK_OK(CBLQuery_SetParameters(query, "{\"min\": 0, \"kind\": \"u\"}", &err), err);
    rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CBL_Release(query);
    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d1");
    CHECK(!CBLResultSet_Next(rs, &err) && err.code == 0);
    CBL_Release(rs);
}

static void test_indexes_and_explain(CBLDatabase* db, CBLCollection* collection) {
    CBLError err;
    CBLValueIndexConfiguration config = { kCBLJSONLanguage, "[[\".i\"]]", NULL };
    CHECK_OK(CBLCollection_CreateValueIndex(collection, "byI", config, &err), err);
    CHECK_OK(CBLCollection_CreateValueIndex(collection, "byI", config, &err), err);   /* again: no-op */
    char* names = CBLCollection_GetIndexNames(collection, &err);
    CHECK_STR(names, "[\"byI\"]");
    CBL_FreeString(names);

    CBLQuery* query = create_query(db, "{\"WHAT\": [[\"._id\"]], \"WHERE\": [\"=\", [\".i\"], 3]}");
    char* plan = CBLQuery_Explain(query, &err);
    CHECK_OK(plan != NULL, err);
    CHECK(plan && strstr(plan, "USING INDEX") != NULL);
    CBL_FreeString(plan);
    CBL_Release(query);

    CBLValueIndexConfiguration bad = { kCBLJSONLanguage, "[[\".i\"]", NULL };
    CHECK(!CBLCollection_CreateValueIndex(collection, "bad", bad, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidQuery);
    CHECK_OK(CBLCollection_DeleteIndex(collection, "byI", &err), err);
    names = CBLCollection_GetIndexNames(collection, &err);
    CHECK_STR(names, "[]");
    CBL_FreeString(names);

    /* A full-text index, searched and ranked. */
    CBLFullTextIndexConfiguration text = { kCBLJSONLanguage, "[[\".s\"]]", false, "en", NULL };
    CHECK_OK(CBLCollection_CreateFullTextIndex(collection, "byText", text, &err), err);
    query = create_query(db, "{\"WHAT\": [[\"._id\"], [\"RANK()\", \"byText\"]], \"WHERE\": [\"MATCH()\", \"byText\", \"two\"]}");
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d2");
    CHECK(CBLResultSet_DoubleAtIndex(rs, 1) == 1.0);
    CHECK(!CBLResultSet_Next(rs, &err) && err.code == 0);
    CBL_Release(rs);
    CBL_Release(query);
    text.expressions = NULL;
    CHECK(!CBLCollection_CreateFullTextIndex(collection, "bad", text, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK_OK(CBLCollection_DeleteIndex(collection, "byText", &err), err);
}

static void test_sqlpp(CBLDatabase* db, CBLCollection* collection) {
    CBLError err;
    int position = 99;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT META().id, i FROM _ WHERE kind = $kind AND i >= 2 ORDER BY i DESC", &position, &err);
    CHECK_OK(query != NULL, err);
    CHECK(position == -1);
    CHECK_OK(CBLQuery_SetParameters(query, "{\"kind\": \"t\"}", &err), err);
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringForKey(rs, "id"), "d3");
    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d2");
    CHECK(!CBLResultSet_Next(rs, &err) && err.code == 0);
    CBL_Release(rs);

    /* Any query prints as SQL++, which reads back. */
    char* sqlpp = CBLQuery_CopySQLPP(query, &err);
    CHECK_STR(sqlpp, "SELECT META().id, i FROM _ WHERE ((kind = $kind) AND (i >= 2)) ORDER BY i DESC");
    CBLQuery* again = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sqlpp, NULL, &err);
    CHECK_OK(again != NULL, err);
    CBL_FreeString(sqlpp);
    CBL_Release(again);
    CBL_Release(query);
    query = create_query(db, "{\"WHAT\": [[\".s\"]], \"WHERE\": [\"IS VALUED\", [\".s\"]]}");
    sqlpp = CBLQuery_CopySQLPP(query, &err);
    CHECK_STR(sqlpp, "SELECT s FROM _ AS _doc WHERE (s IS VALUED)");
    CBL_FreeString(sqlpp);
    CBL_Release(query);
    CHECK(CBLQuery_CopySQLPP(NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    /* Indexes from SQL++ expressions: a value index SQLite uses, a partial full-text index. */
    CBLValueIndexConfiguration value = { kCBLN1QLLanguage, "kind, i", NULL };
    CHECK_OK(CBLCollection_CreateValueIndex(collection, "byKind", value, &err), err);
    query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT META().id FROM _ WHERE kind = 'u'", NULL, &err);
    CHECK_OK(query != NULL, err);
    char* plan = CBLQuery_Explain(query, &err);
    CHECK(plan && strstr(plan, "USING INDEX") != NULL);
    CBL_FreeString(plan);
    CBL_Release(query);
    CBLFullTextIndexConfiguration text = { kCBLN1QLLanguage, "s", false, NULL, "kind = 't'" };
    CHECK_OK(CBLCollection_CreateFullTextIndex(collection, "words", text, &err), err);
    query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT META().id FROM _ WHERE MATCH(words, 'two')", NULL, &err);
    CHECK_OK(query != NULL, err);
    rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL && CBLResultSet_Next(rs, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "d2");
    CBL_Release(rs);
    CBL_Release(query);
    value.expressions = "kind,";
    CHECK(!CBLCollection_CreateValueIndex(collection, "bad", value, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "SQL++ syntax error near character 6");
    CHECK_OK(CBLCollection_DeleteIndex(collection, "byKind", &err), err);
    CHECK_OK(CBLCollection_DeleteIndex(collection, "words", &err), err);

    /* Syntax errors give their byte offset. */
    CHECK(CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT i FROM _ WHERE i = = 2", &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "SQL++ syntax error near character 27");
    CHECK(position == 26);
    CHECK(CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT \xff\xfe FROM _", &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "not valid UTF-8");
    CHECK(CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT i WHERE i = 2", &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "needs a FROM clause");
    CHECK(position == -1);
}

/* The calls that move many documents or rows per crossing (for bindings). */
static void test_batch_calls(CBLDatabase* db) {
    CBLError err;
    CBLCollection* batch = CBLDatabase_CreateCollection(db, "batch", NULL, &err);
    CHECK_OK(batch != NULL, err);
    CHECK_OK(CBLCollection_SaveDocumentsJSON(batch, "b1\nb2\nb3\n",
        "{\"n\": 1}\n{\"n\": 2, \"s\": \"x\"}\n{\"n\": 3}\n", &err), err);
    CHECK(CBLCollection_Count(batch) == 3);
    const CBLDocument* doc = CBLCollection_GetDocument(batch, "b2", &err);
    char* json = CBLDocument_CreateJSON(doc);
    CHECK(json && strstr(json, "\"n\":2") && strstr(json, "\"s\":\"x\""));
    CBL_FreeString(json);
    CBL_Release(doc);
    /* All or nothing: a bad second document saves none, and says which. */
    CHECK(!CBLCollection_SaveDocumentsJSON(batch, "c1\nc2", "{\"n\": 4}\n{\"n\": }", &err));
    CHECK_ERROR(err, kCBLFleeceDomain, kCBLFleeceErrorJSON, "document 2:");
    CHECK(CBLCollection_Count(batch) == 3);
    CHECK(!CBLCollection_SaveDocumentsJSON(batch, "c1", "{}\n{}", &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "1 document IDs for 2 document bodies");
    CHECK(!CBLCollection_SaveDocumentsJSON(batch, "_bad", "{}", &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorBadDocID);
    CHECK_OK(CBLCollection_SaveDocumentsJSON(batch, NULL, "{\"n\": 5}", &err), err);   /* a new ID */
    CHECK(CBLCollection_Count(batch) == 4);

    /* Rows in blocks: [missing-columns mask, values…]; [] after the last. */
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT META().id, s, n FROM batch WHERE n < 4 ORDER BY n", NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    char* rows = CBLResultSet_NextRowsJSON(rs, 2, &err);
    CHECK_STR(rows, "[[2,\"b1\",null,1],[0,\"b2\",\"x\",2]]");
    CBL_FreeString(rows);
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "b2");   /* the last row read is the current row */
    rows = CBLResultSet_NextRowsJSON(rs, 100, &err);
    CHECK_STR(rows, "[[2,\"b3\",null,3]]");
    CBL_FreeString(rows);
    rows = CBLResultSet_NextRowsJSON(rs, 100, &err);
    CHECK_STR(rows, "[]");
    CBL_FreeString(rows);
    CBL_Release(rs);
    CHECK(CBLResultSet_NextRowsJSON(rs, 1, &err) == NULL);   /* released */
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    /* The same block in Python's marshal form: '[' count, 'i' int32, 'u' length UTF-8, 'N'. */
    rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    size_t length = 0;
    unsigned char* block = CBLResultSet_NextRowsMarshal(rs, 1, &length, &err);
    static const unsigned char expected[] = {
        '[', 1, 0, 0, 0,
        '[', 4, 0, 0, 0, 'i', 2, 0, 0, 0, 'u', 2, 0, 0, 0, 'b', '1', 'N', 'i', 1, 0, 0, 0};
    CHECK(block != NULL && length == sizeof expected && memcmp(block, expected, length) == 0);
    free(block);
    CBL_Release(rs);
    CHECK(CBLResultSet_NextRowsMarshal(NULL, 1, &length, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBL_Release(query);
    CBL_Release(batch);
}

static void test_errors(CBLDatabase* db) {
    CBLError err;
    int position = 0;
    CHECK(CBLDatabase_CreateQuery(db, kCBLJSONLanguage, "{\"WHAT\": [[\".a\"]}", &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "not valid JSON");
    CHECK(position == 16);
    CHECK(CBLDatabase_CreateQuery(db, kCBLJSONLanguage, "{\"WHERE\": [\"FOO\", 1]}", &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "WHERE: unknown operator 'FOO'");
    CHECK(position == -1);
    CHECK(CBLDatabase_CreateQuery(db, kCBLJSONLanguage, NULL, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLDatabase_CreateQuery(db, 7, "{}", NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "unknown query language");
    CHECK(CBLDatabase_CreateQuery(NULL, kCBLJSONLanguage, "{}", NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    CBLQuery* query = create_query(db, "{\"WHERE\": [\"=\", [\".i\"], [\"$i\"]]}");
    CHECK(!CBLQuery_SetParameters(query, "{\"i\": ", &err));
    CHECK_CODE(err, kCBLFleeceDomain, kCBLFleeceErrorJSON);
    CHECK(!CBLQuery_SetParameters(query, "[1]", &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK_OK(CBLQuery_SetParameters(query, "{\"j\": 1}", &err), err);
    CHECK(CBLQuery_Execute(query, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQueryParam, "unknown query parameter 'j'");
    CHECK_OK(CBLQuery_SetParameters(query, NULL, &err), err);
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CBL_Release(query);
    CBL_Release(rs);

    /* Released and wrong-type handles are errors, never crashes. */
    CHECK(!CBLResultSet_Next(rs, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLQuery_Execute((CBLQuery*)db, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLQuery_ColumnCount(NULL) == 0);
    CHECK(CBLResultSet_TypeAtIndex(NULL, 0) == kCBLValueMissing);
    CHECK(CBLResultSet_StringForKey(rs, "x") == NULL);
}

/* String columns are read in place (SQLite's own text): every string of a row stays valid
   until the result set moves on; a NUL in a value ends its C string (JSON keeps it); the
   same inside a batch, where rows are read ahead and decoded. */
static void test_strings_read_in_place(CBLDatabase* db, CBLCollection* collection) {
    CBLError err;
    save_json(collection, "s1", "{\"kind\": \"str\", \"a\": \"\", \"b\": \"x\\u0000y\","
                                " \"c\": \"a string longer than sixty-three bytes, stored with a four-byte length\"}");
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT a, b, c, upper(c) AS u, META().id FROM _ WHERE kind = 'str'", NULL, &err);
    CHECK_OK(query != NULL, err);
    for (int inBatch = 0; inBatch < 2; inBatch++) {
        if (inBatch) CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
        CBLResultSet* rs = CBLQuery_Execute(query, &err);
        CHECK_OK(rs != NULL && CBLResultSet_Next(rs, &err), err);
        const char* a = CBLResultSet_StringAtIndex(rs, 0);
        const char* b = CBLResultSet_StringAtIndex(rs, 1);
        const char* c = CBLResultSet_StringAtIndex(rs, 2);
        const char* u = CBLResultSet_StringForKey(rs, "u");
        CHECK_STR(CBLResultSet_StringForKey(rs, "id"), "s1");
        CHECK_STR(a, "");
        CHECK_STR(b, "x");
        CHECK_STR(c, "a string longer than sixty-three bytes, stored with a four-byte length");
        CHECK_STR(u, "A STRING LONGER THAN SIXTY-THREE BYTES, STORED WITH A FOUR-BYTE LENGTH");
        CHECK(CBLResultSet_StringAtIndex(rs, 2) == c);   /* the same text, not a new copy */
        CHECK_STR(CBLResultSet_JSONAtIndex(rs, 1), "\"x\\u0000y\"");
        CHECK_STR(CBLResultSet_JSONAtIndex(rs, 0), "\"\"");
        CHECK(CBLResultSet_TypeAtIndex(rs, 1) == kCBLValueString);
        CHECK(CBLResultSet_IntAtIndex(rs, 2) == 0 && CBLResultSet_DoubleAtIndex(rs, 2) == 0);
        char* row = CBLResultSet_CreateRowArrayJSON(rs);
        CHECK(row && strstr(row, "\"x\\u0000y\""));
        CBL_FreeString(row);
        CHECK_STR(a, "");   /* still valid after the other calls */
        CHECK_STR(c, "a string longer than sixty-three bytes, stored with a four-byte length");
        CHECK(!CBLResultSet_Next(rs, &err) && err.code == 0);
        CHECK(CBLResultSet_StringAtIndex(rs, 0) == NULL);
        CBL_Release(rs);
        if (inBatch) CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    }
    CBL_Release(query);
    CHECK_OK(CBLCollection_PurgeDocumentByID(collection, "s1", &err), err);
}

int main(void) {
    CBLDatabase* db = open_database(test_directory("query"), "q");
    CBLError err;
    CBLCollection* collection = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(collection != NULL, err);
    save_json(collection, "d1", "{\"kind\": \"u\", \"i\": 1}");
    save_json(collection, "d2", "{\"kind\": \"t\", \"s\": \"two\", \"i\": 2, \"d\": 2.5, \"b\": true, \"n\": null,"
                                " \"a\": [1, \"x\", null], \"o\": {\"k\": [true]}}");
    save_json(collection, "d3", "{\"kind\": \"t\", \"i\": 3}");

    test_parameterized_query_reads_every_type(db);
    test_indexes_and_explain(db, collection);
    test_sqlpp(db, collection);
    test_batch_calls(db);
    test_errors(db);
    test_strings_read_in_place(db, collection);

    CBL_Release(collection);
    close_database(db);
    return test_finish("query_test");
}
