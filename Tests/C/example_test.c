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
    CHECK_OK(CBLDocument_SetJSON(doc, "{\"name\": \"Grand\", \"rooms\": 42}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(hotels, doc, &err), err);
    CHECK(CBLDocument_Sequence(doc) == 1);
    CHECK(strncmp(CBLDocument_RevisionID(doc), "1-", 2) == 0);
    CBL_Release(doc);

    const CBLDocument* read = CBLCollection_GetDocument(hotels, "h1", &err);
    CHECK_OK(read != NULL, err);
    char* json = CBLDocument_CreateJSON(read);
    CHECK(json && strcmp(json, "{\"name\":\"Grand\",\"rooms\":42}") == 0);
    CBL_FreeString(json);
    CBL_Release(read);

    CHECK(CBLCollection_GetDocument(hotels, "missing", &err) == NULL && err.code == 0);
    CBL_Release(hotels);
    close_database(db);
    return test_finish("example_test");
}
