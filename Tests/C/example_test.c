/* The worked example at the top of doclite.h, as a test. */
#include "test_support.h"

int main(void) {
    CBLError err;
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = test_directory("example");
    CBLDatabase* db = CBLDatabase_Open("hotels", &config, &err);
    CHECK_OK(db != NULL, err);
    CBLCollection* hotels = CBLDatabase_CreateCollection(db, "hotels", NULL, &err);
    CHECK_OK(hotels != NULL, err);
    CBLDocument* doc = CBLDocument_CreateWithID("h1", &err);
    CHECK_OK(doc != NULL, err);
    CHECK_OK(CBLDocument_SetJSON(doc, "{\"name\": \"Grand\", \"rooms\": 42, \"city\": \"paris\"}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(hotels, doc, &err), err);
    CHECK(CBLDocument_Sequence(doc) == 1);
    CHECK(strncmp(CBLDocument_RevisionID(doc), "1-", 2) == 0);
    CBL_Release(doc);

    const CBLDocument* read = CBLCollection_GetDocument(hotels, "h1", &err);
    CHECK_OK(read != NULL, err);
    char* json = CBLDocument_CreateJSON(read);
    CHECK(json && strcmp(json, "{\"name\":\"Grand\",\"rooms\":42,\"city\":\"paris\"}") == 0);
    CBL_FreeString(json);
    CBL_Release(read);

    CBLCollection* cities = CBLDatabase_CreateCollection(db, "cities", NULL, &err);
    CHECK_OK(cities != NULL, err);
    CBLDocument* paris = CBLDocument_CreateWithID("paris", &err);
    CHECK_OK(CBLDocument_SetJSON(paris, "{\"country\": \"France\"}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(cities, paris, &err), err);
    CBL_Release(paris);
    CHECK(save_json(hotels, "h2", "{\"name\": \"Ritz\", \"rooms\": 142, \"city\": \"paris\"}"));
    CHECK(save_json(hotels, "h3", "{\"name\": \"Nowhere Inn\", \"rooms\": 500, \"city\": \"atlantis\"}"));
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".h.name\"], [\".c.country\"]],"
        " \"FROM\": [{\"COLLECTION\": \"hotels\", \"AS\": \"h\"},"
        "          {\"COLLECTION\": \"cities\", \"AS\": \"c\", \"JOIN\": \"INNER\","
        "           \"ON\": [\"=\", [\".h.city\"], [\".c._id\"]]}],"
        " \"ORDER_BY\": [[\"DESC\", [\".h.rooms\"]]], \"LIMIT\": 10}", NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rows = CBLQuery_Execute(query, &err);
    CHECK_OK(rows != NULL, err);
    char printed[256] = "";
    while (CBLResultSet_Next(rows, &err)) {
        size_t used = strlen(printed);
        snprintf(printed + used, sizeof printed - used, "%s, %s\n",
                 CBLResultSet_StringAtIndex(rows, 0), CBLResultSet_StringForKey(rows, "country"));
    }
    CHECK(err.code == 0);
    CHECK_STR(printed, "Ritz, France\nGrand, France\n");
    CBL_Release(rows);
    CBL_Release(query);
    CBL_Release(cities);

    CHECK(CBLCollection_GetDocument(hotels, "missing", &err) == NULL && err.code == 0);
    CBL_Release(hotels);
    close_database(db);
    return test_finish("example_test");
}
