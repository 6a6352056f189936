/* Array indexes through the C ABI: an UNNEST query over an indexed array reads
   the index (its plan shows it) and returns the rows it returns without it; the
   SQL++ and JSON forms of the configuration; mistakes are errors. */
#include "test_support.h"

static const char* const UNNEST_QUERY =
    "SELECT META(d).id AS id, c.city AS city FROM _ AS d UNNEST d.contacts AS c"
    " WHERE c.type = 'home' ORDER BY c.city";

static char* rows(CBLDatabase* db, const char* sqlpp, size_t* count, char** plan) {
    CBLError err;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sqlpp, NULL, &err);
    CHECK_OK(query != NULL, err);
    char* text = query_rows_text(query, count, NULL);
    if (plan) *plan = CBLQuery_Explain(query, &err);
    CBL_Release(query);
    return text;
}

int main(void) {
    uint64_t instances = CBL_InstanceCount();
    CBLDatabase* db = open_database(test_directory("array_index"), "a");
    CBLError err;
    CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
    save_json(docs, "a", "{\"tags\": [\"red\", \"blue\"], \"contacts\": [{\"type\": \"home\", \"city\": \"Oslo\"}, {\"type\": \"work\", \"city\": \"Bergen\"}]}");
    save_json(docs, "b", "{\"tags\": [\"blue\", true], \"contacts\": [{\"type\": \"home\", \"city\": \"Bergen\"}]}");
    save_json(docs, "c", "{\"tags\": \"solo\"}");

    size_t scannedCount = 0, indexedCount = 0;
    char* plan = NULL;
    char* scanned = rows(db, UNNEST_QUERY, &scannedCount, &plan);
    CHECK(scannedCount == 2 && plan && strstr(plan, "doc_each"));
    CBL_FreeString(plan);

    CBLArrayIndexConfiguration contacts = {kCBLN1QLLanguage, "contacts", "type, city"};
    CHECK_OK(CBLCollection_CreateArrayIndex(docs, "contacts", contacts, &err), err);
    char* indexed = rows(db, UNNEST_QUERY, &indexedCount, &plan);
    CHECK(indexedCount == scannedCount && scanned && indexed && strcmp(scanned, indexed) == 0);
    CHECK(plan && strstr(plan, "USING INDEX arr") && !strstr(plan, "doc_each"));
    CBL_FreeString(plan);
    free(indexed);
    free(scanned);

    /* The JSON form, indexing the elements themselves; kept as documents change. */
    CBLArrayIndexConfiguration tags = {kCBLJSONLanguage, "tags", NULL};
    CHECK_OK(CBLCollection_CreateArrayIndex(docs, "tags", tags, &err), err);
    save_json(docs, "d", "{\"tags\": [\"blue\"]}");
    size_t count = 0;
    char* blue = rows(db, "SELECT META(d).id FROM _ AS d UNNEST d.tags AS t WHERE t = 'blue' ORDER BY META(d).id", &count, &plan);
    CHECK(count == 3 && plan && strstr(plan, "arr1_"));
    CBL_FreeString(plan);
    free(blue);
    char* names = CBLCollection_GetIndexNames(docs, &err);
    CHECK_STR(names, "[\"contacts\",\"tags\"]");
    CBL_FreeString(names);

    /* Mistakes. */
    CBLArrayIndexConfiguration nested = {kCBLN1QLLanguage, "contacts[].phones", NULL};
    CHECK(!CBLCollection_CreateArrayIndex(docs, "nested", nested, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorUnsupported, "nested arrays");
    CBLArrayIndexConfiguration noPath = {kCBLN1QLLanguage, NULL, NULL};
    CHECK(!CBLCollection_CreateArrayIndex(docs, "none", noPath, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "path");
    CBLArrayIndexConfiguration badExpression = {kCBLN1QLLanguage, "tags", "(("};
    CHECK(!CBLCollection_CreateArrayIndex(docs, "bad", badExpression, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidQuery);
    CHECK(!CBLCollection_CreateArrayIndex(NULL, "x", tags, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    CBL_Release(docs);
    close_database(db);
    CHECK(CBL_InstanceCount() == instances);
    return test_finish("array_index_test");
}
