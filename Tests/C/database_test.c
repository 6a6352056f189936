/* Databases: open/close/reopen, names and paths, deletion, collections,
 * transactions, and calls after close. */
#include <sys/stat.h>

#include "test_support.h"

static char directory[512];

/* Saved data survives close and reopen; sequences continue where they stopped. */
static void test_persistence(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "persist");
    CBLCollection* coll = CBLDatabase_CreateCollection(db, "things", "store", &err);
    CHECK_OK(coll != NULL, err);
    CHECK(save_json(coll, "a", "{\"n\":1}"));
    CBL_Release(coll);
    close_database(db);

    db = open_database(directory, "persist");
    coll = CBLDatabase_Collection(db, "things", "store", &err);
    CHECK_OK(coll != NULL, err);
    char* json = read_json(coll, "a");
    CHECK_STR(json, "{\"n\":1}");
    CBL_FreeString(json);
    CHECK(CBLCollection_Count(coll) == 1);
    CHECK(save_json(coll, "b", "{\"n\":2}"));
    const CBLDocument* b = CBLCollection_GetDocument(coll, "b", &err);
    CHECK_OK(b != NULL, err);
    CHECK(CBLDocument_Sequence(b) == 2);
    CBL_Release(b);
    CBL_Release(coll);
    close_database(db);
}

/* A collection handle keeps its database open after the database handle is released. */
static void test_collection_keeps_database(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "kept");
    CBLCollection* coll = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(coll != NULL, err);
    CBL_Release(db);
    CHECK(save_json(coll, "still", "{\"open\":true}"));
    char* json = read_json(coll, "still");
    CHECK_STR(json, "{\"open\":true}");
    CBL_FreeString(json);
    CBL_Release(coll);
    CHECK(CBL_InstanceCount() == 0);
}

/* Name is borrowed; Path is owned and NULL once closed. */
static void test_name_and_path(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "named");
    CHECK_STR(CBLDatabase_Name(db), "named");
    char expected[600];
    snprintf(expected, sizeof expected, "%s/named.doclite", directory);
    char* path = CBLDatabase_Path(db);
    CHECK_STR(path, expected);
    CHECK(path && access(path, F_OK) == 0);
    CBL_FreeString(path);
    CHECK_OK(CBLDatabase_Close(db, &err), err);
    CHECK(CBLDatabase_Path(db) == NULL);
    CHECK_STR(CBLDatabase_Name(db), "named");
    CBL_Release(db);
}

/* CBL_DatabaseExists, CBL_DeleteDatabase and CBLDatabase_Delete. */
static void test_exists_and_delete(void) {
    CBLError err;
    CHECK(!CBL_DatabaseExists("gone", directory));
    CBLDatabase* db = open_database(directory, "gone");
    CHECK(CBL_DatabaseExists("gone", directory));
    close_database(db);
    CHECK(CBL_DatabaseExists("gone", directory));
    CHECK_OK(CBL_DeleteDatabase("gone", directory, &err), err);
    CHECK(!CBL_DatabaseExists("gone", directory));
    CHECK(!CBL_DeleteDatabase("gone", directory, &err));
    CHECK(err.code == 0); /* no such database: false with code 0, as in couchbase-lite-C */

    /* CBLDatabase_Delete closes and removes the file (and its WAL files). */
    db = open_database(directory, "deleted");
    CBLCollection* coll = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(coll != NULL, err);
    CHECK(save_json(coll, "x", "{}"));
    char* path = CBLDatabase_Path(db);
    CHECK_OK(CBLDatabase_Delete(db, &err), err);
    CHECK(!CBL_DatabaseExists("deleted", directory));
    if (path) {
        char wal[700];
        snprintf(wal, sizeof wal, "%s-wal", path);
        CHECK(access(path, F_OK) != 0 && access(wal, F_OK) != 0);
    }
    CBL_FreeString(path);
    CHECK(CBLCollection_GetDocument(coll, "x", &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CBL_Release(coll);
    CBL_Release(db);

    /* Reopening gives an empty, new database. */
    db = open_database(directory, "deleted");
    coll = CBLDatabase_DefaultCollection(db, &err);
    CHECK(coll && CBLCollection_Count(coll) == 0);
    CBL_Release(coll);
    CHECK_OK(CBLDatabase_Delete(db, &err), err);
    CBL_Release(db);

    /* Bad database names. */
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = directory;
    CHECK(CBLDatabase_Open("a/b", &config, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLDatabase_Open("", &config, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
}

/* Collections: create, look up, list, delete; name rules. */
static void test_collections(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "collections");

    CBLCollection* def = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(def != NULL, err);
    CHECK_STR(CBLCollection_Name(def), "_default");
    CHECK_STR(CBLCollection_ScopeName(def), "_default");

    CBLCollection* c1 = CBLDatabase_CreateCollection(db, "c1", NULL, &err);
    CHECK_OK(c1 != NULL, err);
    CHECK_STR(CBLCollection_Name(c1), "c1");
    CHECK_STR(CBLCollection_ScopeName(c1), "_default");
    CHECK(save_json(c1, "doc", "{\"in\":\"c1\"}"));

    CBLCollection* c2 = CBLDatabase_CreateCollection(db, "c-2%", "scope1", &err);
    CHECK_OK(c2 != NULL, err);
    CHECK_STR(CBLCollection_ScopeName(c2), "scope1");

    /* Creating an existing collection returns it, documents included. */
    CBLCollection* again = CBLDatabase_CreateCollection(db, "c1", NULL, &err);
    CHECK_OK(again != NULL, err);
    CHECK(again && CBLCollection_Count(again) == 1);
    CBL_Release(again);

    /* Lookup: found, and missing (NULL with code 0). */
    CBLCollection* found = CBLDatabase_Collection(db, "c1", "_default", &err);
    CHECK_OK(found != NULL, err);
    CHECK(found && CBLCollection_Count(found) == 1);
    CBL_Release(found);
    err = poisoned_error();
    CHECK(CBLDatabase_Collection(db, "nope", NULL, &err) == NULL);
    CHECK_NO_ERROR(err);
    err = poisoned_error();
    CHECK(CBLDatabase_Collection(db, "c1", "otherscope", &err) == NULL);
    CHECK_NO_ERROR(err);
    /* Each collection keeps its own documents. */
    CHECK(!doc_exists(def, "doc"));

    /* Names, as JSON arrays sorted by name. */
    char* names = CBLDatabase_CollectionNames(db, NULL, &err);
    CHECK_STR(names, "[\"_default\",\"c1\"]");
    CBL_FreeString(names);
    names = CBLDatabase_CollectionNames(db, "scope1", &err);
    CHECK_STR(names, "[\"c-2%\"]");
    CBL_FreeString(names);
    names = CBLDatabase_CollectionNames(db, "noscope", &err);
    CHECK_STR(names, "[]");
    CBL_FreeString(names);

    /* Invalid names and scopes. */
    char long_name[253];
    memset(long_name, 'n', 252);
    long_name[252] = '\0';
    const char* bad_names[] = { "_bad", "%x", "", long_name, "sp ace", "dot.ted" };
    for (size_t i = 0; i < sizeof bad_names / sizeof bad_names[0]; i++) {
        err = poisoned_error();
        CHECK(CBLDatabase_CreateCollection(db, bad_names[i], NULL, &err) == NULL);
        CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "invalid collection name");
        CHECK(CBLDatabase_CreateCollection(db, "ok", bad_names[i], &err) == NULL);
        CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "invalid scope name");
    }
    CHECK(CBLDatabase_CreateCollection(db, NULL, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    long_name[251] = '\0'; /* 251 characters is the limit */
    CBLCollection* longest = CBLDatabase_CreateCollection(db, long_name, NULL, &err);
    CHECK_OK(longest != NULL, err);
    CBL_Release(longest);
    CHECK_OK(CBLDatabase_DeleteCollection(db, long_name, NULL, &err), err);

    /* The default collection cannot be deleted. */
    CHECK(!CBLDatabase_DeleteCollection(db, "_default", NULL, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "default collection");
    CHECK(!CBLDatabase_DeleteCollection(db, "_default", "_default", &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    /* Deleting: the collection and its documents go; old handles fail with NotOpen. */
    CHECK_OK(CBLDatabase_DeleteCollection(db, "c1", NULL, &err), err);
    err = poisoned_error();
    CBLCollection* deleted = CBLDatabase_Collection(db, "c1", NULL, &err);
    CHECK(deleted == NULL);
    CHECK_NO_ERROR(err);
    CBL_Release(deleted);
    const CBLDocument* orphan = CBLCollection_GetDocument(c1, "doc", &err);
    CHECK(orphan == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CBL_Release(orphan);
    CHECK(CBLCollection_Count(c1) == 0);
    names = CBLDatabase_CollectionNames(db, NULL, &err);
    CHECK_STR(names, "[\"_default\"]");
    CBL_FreeString(names);
    /* Deleting a missing collection is not an error. */
    CHECK_OK(CBLDatabase_DeleteCollection(db, "c1", NULL, &err), err);
    /* Recreated, it is empty. */
    CBLCollection* fresh = CBLDatabase_CreateCollection(db, "c1", NULL, &err);
    CHECK_OK(fresh != NULL, err);
    CHECK(fresh && CBLCollection_Count(fresh) == 0 && !doc_exists(fresh, "doc"));
    CBL_Release(fresh);

    CBL_Release(c1);
    CBL_Release(c2);
    CBL_Release(def);
    close_database(db);
}

/* Begin/EndTransaction: commit keeps, rollback discards, nesting. */
static void test_transactions(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "transactions");
    CBLCollection* coll = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(coll != NULL, err);

    /* Commit. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "kept1", "{}"));
    CHECK(save_json(coll, "kept2", "{}"));
    CHECK(doc_exists(coll, "kept1")); /* visible inside the transaction */
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(CBLCollection_Count(coll) == 2);

    /* Rollback: saves, a deletion and a new collection are all discarded. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "dropped", "{}"));
    CHECK(save_json(coll, "kept1", "{\"changed\":true}"));
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, "kept2", &err), err);
    CBLCollection* temp = CBLDatabase_CreateCollection(db, "temp", NULL, &err);
    CHECK_OK(temp != NULL, err);
    CBL_Release(temp);
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    CHECK(!doc_exists(coll, "dropped"));
    CHECK(doc_exists(coll, "kept2"));
    char* json = read_json(coll, "kept1");
    CHECK_STR(json, "{}");
    CBL_FreeString(json);
    CHECK(CBLCollection_Count(coll) == 2);
    err = poisoned_error();
    temp = CBLDatabase_Collection(db, "temp", NULL, &err);
    CHECK(temp == NULL);
    CHECK_NO_ERROR(err);
    CBL_Release(temp);

    /* Nested, both commit. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "nested", "{}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(doc_exists(coll, "nested"));

    /* Nested: the inner one rolls back, so the outer commit fails and discards everything. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "outer", "{}"));
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "inner", "{}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    CHECK(!CBLDatabase_EndTransaction(db, true, &err));
    CHECK(err.domain == kCBLDomain && err.code != 0);
    CHECK(!doc_exists(coll, "outer"));
    CHECK(!doc_exists(coll, "inner"));
    CHECK(CBLCollection_Count(coll) == 3);

    /* The database works normally afterwards. */
    CHECK(save_json(coll, "after", "{}"));
    CHECK(CBLCollection_Count(coll) == 4);

    /* Ending without beginning; closing inside a transaction. */
    CHECK(!CBLDatabase_EndTransaction(db, true, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotInTransaction);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(!CBLDatabase_Close(db, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorTransactionNotClosed);
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);

    CBL_Release(coll);
    close_database(db);
}

/* Two handles on one file see each other's commits and can both write. */
static void test_two_handles(void) {
    CBLError err;
    CBLDatabase* db1 = open_database(directory, "shared");
    CBLDatabase* db2 = open_database(directory, "shared");
    CBLCollection* d1 = CBLDatabase_DefaultCollection(db1, &err);
    CBLCollection* d2 = CBLDatabase_DefaultCollection(db2, &err);
    CHECK_OK(d1 && d2, err);

    CHECK(save_json(d1, "one", "{\"v\":1}"));
    char* json = read_json(d2, "one");
    CHECK_STR(json, "{\"v\":1}");
    CBL_FreeString(json);
    CHECK(save_json(d2, "two", "{\"v\":2}"));
    json = read_json(d1, "two");
    CHECK_STR(json, "{\"v\":2}");
    CBL_FreeString(json);

    /* A collection created through one handle is found through the other. */
    CBLCollection* c1 = CBLDatabase_CreateCollection(db1, "shared", NULL, &err);
    CHECK_OK(c1 != NULL, err);
    CBLCollection* c2 = CBLDatabase_Collection(db2, "shared", NULL, &err);
    CHECK_OK(c2 != NULL, err);

    CBL_Release(c1);
    CBL_Release(c2);
    CBL_Release(d1);
    CBL_Release(d2);
    CHECK_OK(CBLDatabase_Close(db1, &err), err);
    CHECK_OK(CBLDatabase_Close(db2, &err), err);
    CBL_Release(db1);
    CBL_Release(db2);
}

static void ignore_change(void* context, const CBLCollectionChange* change) {
    (void)context;
    (void)change;
}

/* After close every operation fails with kCBLErrorNotOpen (and does not crash). */
static void test_after_close(void) {
    CBLError err;
    CBLDatabase* db = open_database(directory, "closed");
    CBLCollection* coll = CBLDatabase_CreateCollection(db, "c", NULL, &err);
    CHECK_OK(coll != NULL, err);
    CHECK(save_json(coll, "d", "{}"));
    CBLDocument* doc = CBLCollection_GetMutableDocument(coll, "d", &err);
    CHECK_OK(doc != NULL, err);
    CHECK_OK(CBLDatabase_Close(db, &err), err);
    CHECK_OK(CBLDatabase_Close(db, &err), err); /* closing twice is harmless */

    CHECK(CBLDatabase_DefaultCollection(db, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "closed");
    CHECK(CBLDatabase_CreateCollection(db, "new", NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(CBLDatabase_Collection(db, "c", NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLDatabase_DeleteCollection(db, "c", NULL, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(CBLDatabase_CollectionNames(db, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLDatabase_BeginTransaction(db, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);

    CHECK(CBLCollection_GetDocument(coll, "d", &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "not open");
    CHECK(CBLCollection_GetMutableDocument(coll, "d", &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLCollection_SaveDocument(coll, doc, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLCollection_DeleteDocument(coll, doc, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLCollection_PurgeDocumentByID(coll, "d", &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(CBLCollection_GetDocumentExpiration(coll, "d", &err) == -1);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(!CBLCollection_SetDocumentExpiration(coll, "d", CBL_Now() + 1000, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(CBLCollection_AddChangeListener(coll, ignore_change, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CHECK(CBLCollection_Count(coll) == 0);
    /* Names stay readable: they belong to the handle. */
    CHECK_STR(CBLCollection_Name(coll), "c");
    /* The document handle itself still works. */
    CHECK_STR(CBLDocument_ID(doc), "d");

    CBL_Release(doc);
    CBL_Release(coll);
    CBL_Release(db);

    /* The data is still there when reopened. */
    db = open_database(directory, "closed");
    coll = CBLDatabase_Collection(db, "c", NULL, &err);
    CHECK(coll && doc_exists(coll, "d"));
    CBL_Release(coll);
    close_database(db);
}

/* Scopes by handle: names, the default scope, lookups both ways, and what is absent. */
static void test_scopes(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLDatabase* db = open_database(directory, "scoped");
    CBLCollection* widgets = CBLDatabase_CreateCollection(db, "widgets", "store", &err);
    CHECK_OK(widgets != NULL, err);
    CBLCollection* gadgets = CBLDatabase_CreateCollection(db, "gadgets", "store", &err);
    CHECK_OK(gadgets != NULL, err);
    char* names = CBLDatabase_ScopeNames(db, &err);
    CHECK_STR(names, "[\"_default\",\"store\"]");
    CBL_FreeString(names);

    CBLScope* store = CBLDatabase_Scope(db, "store", &err);
    CHECK_OK(store != NULL, err);
    CHECK_STR(CBLScope_Name(store), "store");
    names = CBLScope_CollectionNames(store, &err);
    CHECK_STR(names, "[\"gadgets\",\"widgets\"]");
    CBL_FreeString(names);
    CBLCollection* found = CBLScope_Collection(store, "widgets", &err);
    CHECK_OK(found != NULL, err);
    CHECK_STR(CBLCollection_Name(found), "widgets");
    CBL_Release(found);
    CHECK(CBLScope_Collection(store, "nope", &err) == NULL);
    CHECK_NO_ERROR(err);
    CBLScope_Release(store);

    CBLScope* fromCollection = CBLCollection_Scope(gadgets);
    CHECK_STR(CBLScope_Name(fromCollection), "store");
    CBL_Release(fromCollection);
    CBLScope* defaultScope = CBLDatabase_DefaultScope(db, &err);
    CHECK_OK(defaultScope != NULL, err);
    CHECK_STR(CBLScope_Name(defaultScope), "_default");
    CBL_Release(defaultScope);
    CHECK(CBLDatabase_Scope(db, "nowhere", &err) == NULL);
    CHECK_NO_ERROR(err);

    /* A scope handle keeps its database usable after the caller let the collections go. */
    store = CBLDatabase_Scope(db, "store", &err);
    CBL_Release(widgets);
    CBL_Release(gadgets);
    found = CBLScope_Collection(store, "gadgets", &err);
    CHECK_OK(found != NULL, err);
    CBL_Release(found);
    CBL_Release(store);

    CHECK(CBLScope_Name(NULL) == NULL);
    CHECK(CBLScope_CollectionNames(NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLDatabase_Scope(db, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLCollection_Scope(NULL) == NULL);
    close_database(db);
    CHECK(CBL_InstanceCount() == start);
}

/* The size of the database file (its path from CBLDatabase_Path), -1 when unknown. */
static long long file_size(CBLDatabase* db) {
    char* path = CBLDatabase_Path(db);
    struct stat info;
    long long size = path && stat(path, &info) == 0 ? (long long)info.st_size : -1;
    CBL_FreeString(path);
    return size;
}

/* CBLDatabase_PerformMaintenance: compaction shrinks the file after a purge, the other
   tasks succeed and leave the data as it was; misuse is an error. */
static void test_maintenance(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLDatabase* db = open_database(directory, "maintained");
    CBLCollection* coll = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(coll != NULL, err);
    char id[32], body[600];
    memset(body, 0, sizeof body);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    for (int i = 0; i < 2000; i++) {
        snprintf(id, sizeof id, "doc-%04d", i);
        snprintf(body, sizeof body, "{\"n\": %d, \"text\": \"%0500d\"}", i, i);
        CHECK(save_json(coll, id, body));
    }
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeCompact, &err), err);
    long long full = file_size(db);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    for (int i = 10; i < 2000; i++) {
        snprintf(id, sizeof id, "doc-%04d", i);
        CHECK_OK(CBLCollection_PurgeDocumentByID(coll, id, &err), err);
    }
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeCompact, &err), err);
    long long compacted = file_size(db);
    CHECK(full > 0 && compacted > 0 && compacted < full / 4);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeReindex, &err), err);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeIntegrityCheck, &err), err);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeOptimize, &err), err);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeFullOptimize, &err), err);
    CHECK(CBLCollection_Count(coll) == 10);

    CHECK(!CBLDatabase_PerformMaintenance(db, 99, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "unknown maintenance type 99");
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(!CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeCompact, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorTransactionNotClosed);
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    CHECK(!CBLDatabase_PerformMaintenance(NULL, kCBLMaintenanceTypeCompact, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBL_Release(coll);
    close_database(db);
    CHECK(CBL_InstanceCount() == start);
}

/* The library loaded is the one this header describes. */
static void test_version(void) {
    CHECK_STR(CBL_Version(), DOCLITE_VERSION);
    CHECK(CBL_VersionNumber() == DOCLITE_VERSION_NUMBER);
    char expected[32];
    snprintf(expected, sizeof expected, "%d.%d.%d", DOCLITE_VERSION_MAJOR, DOCLITE_VERSION_MINOR, DOCLITE_VERSION_PATCH);
    CHECK_STR(CBL_Version(), expected);
}

int main(void) {
    snprintf(directory, sizeof directory, "%s", test_directory("database"));
    test_version();
    test_persistence();
    test_collection_keeps_database();
    test_name_and_path();
    test_exists_and_delete();
    test_collections();
    test_transactions();
    test_two_handles();
    test_after_close();
    test_maintenance();
    test_scopes();
    return test_finish("database_test");
}
