/* Keys that differ only in Unicode normalisation — "\u00e9" (precomposed) and
   "e\u0301" — are two keys, each with its own value, through every C path:
   an unsaved document's JSON, a saved one's, a whole-document result column,
   property columns (JSON query and builder), column titles and row JSON. */
#include "test_support.h"

#define PRE "\xC3\xA9"  /* é, U+00E9 */
#define DE "e\xCC\x81"  /* e + U+0301 */

static const char* const document = "{\"" PRE "\": 1, \"" DE "\": 2}";
static const char* const sorted = "{\"" DE "\":2,\"" PRE "\":1}";   /* keys in byte order */

/* Whether `json` holds exactly the two members, in any order. */
static bool has_both(const char* json) {
    return json && strlen(json) == strlen(sorted) && strstr(json, "\"" PRE "\":1") && strstr(json, "\"" DE "\":2");
}

int main(void) {
    CBLDatabase* db = open_database(test_directory("canonical_keys"), "keys");
    CBLError err;
    CBLCollection* items = db ? CBLDatabase_DefaultCollection(db, &err) : NULL;
    if (!items) {
        fprintf(stderr, "cannot set up the database\n");
        return 1;
    }
    uint64_t start = CBL_InstanceCount();

    CBLDocument* doc = CBLDocument_CreateWithID("doc", &err);
    CHECK_OK(doc && CBLDocument_SetJSON(doc, document, &err), err);
    char* json = CBLDocument_CreateJSON(doc);
    CHECK_STR(json, sorted);   /* unsaved */
    CBL_FreeString(json);
    CHECK_OK(CBLCollection_SaveDocument(items, doc, &err), err);
    CBL_Release(doc);
    json = read_json(items, "doc");
    CHECK(has_both(json));     /* saved */
    CBL_FreeString(json);

    int position;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".\"], [\"." PRE "\"], [\"." DE "\"], [\"AS\", [\"." PRE "\"], \"" PRE "\"], [\"AS\", [\"." DE "\"], \"" DE "\"]]}",
        &position, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rows = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rows != NULL, err);
    if (rows && CBLResultSet_Next(rows, &err)) {
        CHECK(has_both(CBLResultSet_JSONAtIndex(rows, 0)));   /* whole document */
        CHECK(CBLResultSet_IntAtIndex(rows, 1) == 1);
        CHECK(CBLResultSet_IntAtIndex(rows, 2) == 2);
        CHECK(CBLResultSet_IntForKey(rows, PRE) == 1);         /* titles by bytes */
        CHECK(CBLResultSet_IntForKey(rows, DE) == 2);
        char* row = CBLResultSet_CreateRowDictJSON(rows);
        CHECK(row && strstr(row, "\"" PRE "\":1") && strstr(row, "\"" DE "\":2"));
        CBL_FreeString(row);
    } else {
        CHECK(!"no row");
    }
    CBL_Release(rows);
    CBL_Release(query);

    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property(PRE), CBLQuerySelectResult_Property(DE)}, 2, false,
        CBLQueryDataSource_Collection(items), NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    if (query) {
        CHECK(CBLQuery_ColumnCount(query) == 2);
        CHECK_STR(CBLQuery_ColumnName(query, 0), PRE);
        CHECK_STR(CBLQuery_ColumnName(query, 1), DE);
        CHECK_ROWS(query, false, sorted);
    }
    CBL_Release(query);

    CHECK(CBL_InstanceCount() == start);
    CBL_Release(items);
    close_database(db);
    return test_finish("canonical_keys_test");
}
