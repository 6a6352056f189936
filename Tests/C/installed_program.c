/* A program built against the installed DocLite (header and library found
 * through pkg-config or find_package): opens a database in the directory
 * given as argv[1], saves a document and reads it back. Exit 0 on success. */
#include <doclite.h>
#include <stdio.h>
#include <string.h>

static int fail(const char* what, CBLError* err) {
    char* message = CBLError_Message(err);
    fprintf(stderr, "installed_program: %s failed: %s\n", what, message ? message : "?");
    CBL_FreeString(message);
    return 1;
}

int main(int argc, char** argv) {
    if (argc != 2) {
        fprintf(stderr, "usage: %s <directory>\n", argv[0]);
        return 2;
    }
    CBLError err;
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = argv[1];
    CBLDatabase* db = CBLDatabase_Open("installed", &config, &err);
    if (!db) return fail("open", &err);
    CBLCollection* coll = CBLDatabase_DefaultCollection(db, &err);
    if (!coll) return fail("default collection", &err);
    CBLDocument* doc = CBLDocument_CreateWithID("doc", &err);
    if (!doc || !CBLDocument_SetJSON(doc, "{\"installed\":true}", &err)) return fail("create", &err);
    if (!CBLCollection_SaveDocument(coll, doc, &err)) return fail("save", &err);
    CBL_Release(doc);

    const CBLDocument* read = CBLCollection_GetDocument(coll, "doc", &err);
    if (!read) return fail("read", &err);
    char* json = CBLDocument_CreateJSON(read);
    int ok = json && strcmp(json, "{\"installed\":true}") == 0;
    CBL_FreeString(json);
    CBL_Release(read);
    CBL_Release(coll);
    if (!CBLDatabase_Close(db, &err)) return fail("close", &err);
    CBL_Release(db);
    if (!ok || CBL_InstanceCount() != 0) {
        fprintf(stderr, "installed_program: wrong content or leaked handles\n");
        return 1;
    }
    printf("installed_program: ok\n");
    return 0;
}
