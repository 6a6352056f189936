/* Bad arguments: NULL, released, foreign and wrongly typed handles, invalid
 * UTF-8, malformed JSON, reserved keys and bad document IDs. Every case is an
 * error return (never a crash) with a message that says what was wrong. */
#include "test_support.h"

static CBLCollection* good_coll;
static CBLDocument* good_doc;

static void ignore_change(void* context, const CBLCollectionChange* change) {
    (void)context;
    (void)change;
}

static void ignore_doc_change(void* context, const CBLDocumentChange* change) {
    (void)context;
    (void)change;
}

/* Calls every function that takes a database handle with `db`. */
static void check_bad_database(CBLDatabase* db, const char* fragment) {
    CBLError err;
    err = poisoned_error();
    CHECK(!CBLDatabase_Close(db, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    err = poisoned_error();
    CHECK(!CBLDatabase_Delete(db, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLDatabase_BeginTransaction(db, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLDatabase_EndTransaction(db, true, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLDatabase_DefaultCollection(db, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLDatabase_CreateCollection(db, "c", NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLDatabase_Collection(db, "c", NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLDatabase_DeleteCollection(db, "c", NULL, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLDatabase_CollectionNames(db, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    /* No error parameter: just NULL. */
    CHECK(CBLDatabase_Name(db) == NULL);
    CHECK(CBLDatabase_Path(db) == NULL);
    /* The error parameter is optional. */
    CHECK(!CBLDatabase_Close(db, NULL));
}

/* Calls every function that takes a collection handle with `coll`. */
static void check_bad_collection(CBLCollection* coll, const char* fragment) {
    CBLError err;
    err = poisoned_error();
    CHECK(CBLCollection_GetDocument(coll, "x", &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLCollection_GetMutableDocument(coll, "x", &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_SaveDocument(coll, good_doc, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_SaveDocumentWithConcurrencyControl(coll, good_doc, kCBLConcurrencyControlFailOnConflict, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_DeleteDocument(coll, good_doc, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_DeleteDocumentWithConcurrencyControl(coll, good_doc, kCBLConcurrencyControlFailOnConflict, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_PurgeDocumentByID(coll, "x", &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLCollection_GetDocumentExpiration(coll, "x", &err) == -1);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_SetDocumentExpiration(coll, "x", 1, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLCollection_AddChangeListener(coll, ignore_change, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLCollection_AddDocumentChangeListener(coll, "x", ignore_doc_change, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLCollection_Name(coll) == NULL);
    CHECK(CBLCollection_ScopeName(coll) == NULL);
    CHECK(CBLCollection_Count(coll) == 0);
    CHECK(CBLCollection_GetDocument(coll, "x", NULL) == NULL);
}

/* Calls every function that takes a document handle with `doc`. */
static void check_bad_document(CBLDocument* doc, const char* fragment) {
    CBLError err;
    err = poisoned_error();
    CHECK(!CBLDocument_SetJSON(doc, "{}", &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_SaveDocument(good_coll, doc, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_DeleteDocument(good_coll, doc, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(!CBLCollection_DeleteDocumentWithConcurrencyControl(good_coll, doc, kCBLConcurrencyControlLastWriteWins, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, fragment);
    CHECK(CBLDocument_MutableCopy(doc) == NULL);
    CHECK(CBLDocument_ID(doc) == NULL);
    CHECK(CBLDocument_RevisionID(doc) == NULL);
    CHECK(CBLDocument_Sequence(doc) == 0);
    CHECK(CBLDocument_CreateJSON(doc) == NULL);
}

/* Reference counting and listener removal with a bad handle: no effect. */
static void check_bad_any(void* handle) {
    uint64_t live = CBL_InstanceCount();
    CHECK(CBL_Retain(handle) == NULL);
    CBL_Release(handle);
    CBLListener_Remove((CBLListenerToken*)handle);
    CHECK(CBL_InstanceCount() == live);
}

static void test_bad_handles(CBLDatabase* live_db) {
    CBLError err;
    /* NULL. */
    check_bad_database(NULL, "database is NULL");
    check_bad_collection(NULL, "collection is NULL");
    check_bad_document(NULL, "document is NULL");
    check_bad_any(NULL);

    /* Released: a document (and a database and a collection) used after CBL_Release. */
    CBLDocument* released_doc = CBLDocument_CreateWithID("gone", &err);
    CBLCollection* released_coll = CBLDatabase_CreateCollection(live_db, "released", NULL, &err);
    CHECK_OK(released_coll != NULL, err);
    CBL_Release(released_doc);
    CBL_Release(released_coll);
    check_bad_document(released_doc, "not a live handle");
    check_bad_collection(released_coll, "not a live handle");
    check_bad_any(released_doc);
    CBLDatabase* released_db = CBLDatabase_Open("released", &(CBLDatabaseConfiguration){ test_directory_path, false }, &err);
    CHECK_OK(released_db != NULL, err);
    close_database(released_db);
    check_bad_database(released_db, "not a live handle");

    /* Foreign: the address of a local variable. */
    int local = 42;
    check_bad_database((CBLDatabase*)&local, "not a live handle");
    check_bad_collection((CBLCollection*)&local, "not a live handle");
    check_bad_document((CBLDocument*)&local, "not a live handle");
    check_bad_any(&local);
    CHECK(local == 42);

    /* Wrong type: a document as a database or collection, a collection as a document. */
    check_bad_database((CBLDatabase*)good_doc, "is a CBLDocument, not a CBLDatabase");
    check_bad_collection((CBLCollection*)good_doc, "is a CBLDocument, not a CBLCollection");
    check_bad_document((CBLDocument*)good_coll, "is a CBLCollection, not a CBLDocument");
    check_bad_collection((CBLCollection*)live_db, "is a CBLDatabase, not a CBLCollection");
    /* The wrongly used handles still work. */
    CHECK_STR(CBLDocument_ID(good_doc), "good");
    CHECK_STR(CBLCollection_Name(good_coll), "things");

    /* CBLListener_Remove with a handle that is not a token leaves it alone. */
    uint64_t live = CBL_InstanceCount();
    CBLListener_Remove((CBLListenerToken*)good_doc);
    CHECK(CBL_InstanceCount() == live);
    CHECK_STR(CBLDocument_ID(good_doc), "good");

    /* NULL listener callbacks. */
    CHECK(CBLCollection_AddChangeListener(good_coll, NULL, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "listener is NULL");
    CHECK(CBLCollection_AddDocumentChangeListener(good_coll, "x", NULL, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "listener is NULL");
}

/* NULL and invalid UTF-8 strings. */
static void test_bad_strings(CBLDatabase* db) {
    CBLError err;
    const char* bad = "\xff\xfe";
    CBLDatabaseConfiguration config = { test_directory_path, false };

    CHECK(CBLDatabase_Open(bad, &config, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLDatabase_Open(NULL, &config, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    CBLDatabaseConfiguration bad_dir = { bad, false };
    CHECK(CBLDatabase_Open("db", &bad_dir, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(!CBL_DeleteDatabase(bad, test_directory_path, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(!CBL_DeleteDatabase(NULL, test_directory_path, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    CHECK(!CBL_DatabaseExists(bad, test_directory_path));
    CHECK(!CBL_DatabaseExists(NULL, NULL));

    CHECK(CBLDatabase_CreateCollection(db, bad, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLDatabase_CreateCollection(db, "c", bad, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLDatabase_Collection(db, bad, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLDatabase_Collection(db, NULL, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    CHECK(!CBLDatabase_DeleteCollection(db, bad, NULL, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLDatabase_CollectionNames(db, bad, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");

    CHECK(CBLDocument_CreateWithID(bad, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLCollection_GetDocument(good_coll, bad, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLCollection_GetDocument(good_coll, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    CHECK(CBLCollection_GetMutableDocument(good_coll, bad, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(!CBLCollection_PurgeDocumentByID(good_coll, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLCollection_GetDocumentExpiration(good_coll, bad, &err) == -1);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(!CBLCollection_SetDocumentExpiration(good_coll, bad, 0, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLCollection_AddDocumentChangeListener(good_coll, bad, ignore_doc_change, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CHECK(CBLCollection_AddDocumentChangeListener(good_coll, NULL, ignore_doc_change, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
}

/* Malformed JSON fails with kCBLFleeceErrorJSON and leaves the document unchanged. */
static void test_bad_json(void) {
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID("json", &err);
    CHECK_OK(CBLDocument_SetJSON(doc, "{\"keep\":1}", &err), err);
    const char* malformed[] = {
        "{", "[1,2]", "\"text\"", "42", "null", "", " ", "{\"a\":1}x", "{\"a\":1}{}",
        "{\"s\":\"\xff\"}", "{\"s\":\"\xc3\"}", "{\"\xff\":1}", "{\"a\": 01}", "{\"a\":1,}",
        "{a:1}", "{'a':1}", "{\"a\":[1,]}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}",
        "{\"a\":\"unterminated}", "{\"a\":\"tab\there\"}", "{\"a\":1.}", "{\"a\":-}", "{\"a\":NaN}",
    };
    for (size_t i = 0; i < sizeof malformed / sizeof malformed[0]; i++) {
        err = poisoned_error();
        bool ok = CBLDocument_SetJSON(doc, malformed[i], &err);
        CHECK(!ok);
        if (ok) fprintf(stderr, "  accepted malformed JSON #%zu: %s\n", i, malformed[i]);
        CHECK_CODE(err, kCBLFleeceDomain, kCBLFleeceErrorJSON);
        char* json = CBLDocument_CreateJSON(doc);
        CHECK_STR(json, "{\"keep\":1}");
        CBL_FreeString(json);
    }
    err = poisoned_error();
    CHECK(!CBLDocument_SetJSON(doc, "{\"a\": 01}", &err));
    CHECK_ERROR(err, kCBLFleeceDomain, kCBLFleeceErrorJSON, "malformed JSON");
    CHECK(!CBLDocument_SetJSON(doc, "{\"s\":\"\xff\"}", &err));
    CHECK_ERROR(err, kCBLFleeceDomain, kCBLFleeceErrorJSON, "UTF-8");
    CHECK(!CBLDocument_SetJSON(doc, NULL, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");

    /* Deeply nested JSON is refused, not a stack overflow. */
    enum { depth = 100000 };
    char* deep = malloc(2 * depth + 16);
    strcpy(deep, "{\"a\":");
    memset(deep + 5, '[', depth);
    memset(deep + 5 + depth, ']', depth);
    strcpy(deep + 5 + 2 * depth, "}");
    CHECK(!CBLDocument_SetJSON(doc, deep, &err));
    CHECK_CODE(err, kCBLFleeceDomain, kCBLFleeceErrorJSON);
    free(deep);
    char* json = CBLDocument_CreateJSON(doc);
    CHECK_STR(json, "{\"keep\":1}");
    CBL_FreeString(json);
    CBL_Release(doc);
}

/* Reserved top-level keys, bad document IDs, immutable and foreign documents. */
static void test_bad_saves(CBLDatabase* db) {
    CBLError err;
    const char* reserved[] = { "{\"_id\":\"x\"}", "{\"_rev\":\"1-abc\"}", "{\"_deleted\":true}",
                               "{\"ok\":1,\"_deleted\":false}" };
    for (size_t i = 0; i < sizeof reserved / sizeof reserved[0]; i++) {
        CBLDocument* doc = CBLDocument_CreateWithID("reserved", &err);
        CHECK_OK(CBLDocument_SetJSON(doc, reserved[i], &err), err);
        err = poisoned_error();
        CHECK(!CBLCollection_SaveDocument(good_coll, doc, &err));
        CHECK_ERROR(err, kCBLDomain, kCBLErrorCorruptRevisionData, "reserved");
        CBL_Release(doc);
    }
    CHECK(!doc_exists(good_coll, "reserved"));
    CHECK(save_json(good_coll, "attach", "{\"_attachments\":{},\"nested\":{\"_id\":1,\"_rev\":2}}"));
    char* json = read_json(good_coll, "attach");
    CHECK_STR(json, "{\"_attachments\":{},\"nested\":{\"_id\":1,\"_rev\":2}}");
    CBL_FreeString(json);

    char long_id[242];
    memset(long_id, 'i', 241);
    long_id[241] = '\0';
    const char* bad_ids[] = { "", "_x", long_id, "line\nbreak", "tab\there", "\x7f\x01" };
    for (size_t i = 0; i < sizeof bad_ids / sizeof bad_ids[0]; i++) {
        CBLDocument* doc = CBLDocument_CreateWithID(bad_ids[i], &err);
        CHECK_OK(doc != NULL, err);
        err = poisoned_error();
        CHECK(!CBLCollection_SaveDocument(good_coll, doc, &err));
        CHECK_ERROR(err, kCBLDomain, kCBLErrorBadDocID, "invalid document ID");
        CBL_Release(doc);
    }
    long_id[240] = '\0'; /* 240 bytes is the limit */
    CHECK(save_json(good_coll, long_id, "{}"));
    CHECK(save_json(good_coll, "caf\xc3\xa9 \xf0\x9f\x98\x80", "{}"));
    CHECK(doc_exists(good_coll, "caf\xc3\xa9 \xf0\x9f\x98\x80"));

    /* An immutable document cannot be saved. */
    const CBLDocument* immutable = CBLCollection_GetDocument(good_coll, "attach", &err);
    CHECK_OK(immutable != NULL, err);
    CHECK(!CBLCollection_SaveDocument(good_coll, (CBLDocument*)immutable, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "immutable");

    /* A document read from one collection cannot be saved or deleted in another. */
    CBLCollection* other = CBLDatabase_CreateCollection(db, "other", NULL, &err);
    CHECK_OK(other != NULL, err);
    CBLDocument* copy = CBLDocument_MutableCopy(immutable);
    CHECK(!CBLCollection_SaveDocument(other, copy, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "belongs to collection");
    CHECK(!CBLCollection_DeleteDocument(other, immutable, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "belongs to collection");
    CHECK(doc_exists(good_coll, "attach"));
    CBL_Release(copy);
    CBL_Release(other);
    CBL_Release(immutable);

    /* An unknown concurrency-control value. */
    CBLDocument* doc = CBLDocument_CreateWithID("cc", &err);
    CHECK(!CBLCollection_SaveDocumentWithConcurrencyControl(good_coll, doc, (CBLConcurrencyControl)7, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "concurrency");
    CBL_Release(doc);
    CHECK(!doc_exists(good_coll, "cc"));
}

/* Reference counting and error messages. */
static void test_refcounts_and_messages(void) {
    CBLError err;
    uint64_t live = CBL_InstanceCount();
    CBL_Release(NULL);
    CBLDocument* doc = CBLDocument_CreateWithID("rc", &err);
    CHECK(CBL_InstanceCount() == live + 1);
    CHECK(CBL_Retain(doc) == doc);
    CBL_Release(doc);
    CHECK_STR(CBLDocument_ID(doc), "rc"); /* one reference left */
    CBL_Release(doc);
    CHECK(CBL_InstanceCount() == live);
    CBL_Release(doc); /* double release: ignored */
    CBL_Release(doc);
    CHECK(CBL_InstanceCount() == live);
    CHECK(CBLDocument_ID(doc) == NULL);

    CHECK(CBLError_Message(NULL) == NULL);
    CBLError none = { 0, 0, 0 };
    CHECK(CBLError_Message(&none) == NULL);
    /* An error that DocLite never returned still gets a generic message. */
    CBLError made_up = { kCBLDomain, kCBLErrorBusy, 0xfffffff0u };
    char* msg = CBLError_Message(&made_up);
    CHECK(msg && strlen(msg) > 0);
    CBL_FreeString(msg);
    CBL_FreeString(NULL);
}

int main(void) {
    CBLError err;
    const char* directory = test_directory("bad-input");
    CBLDatabase* db = open_database(directory, "bad");
    good_coll = CBLDatabase_CreateCollection(db, "things", NULL, &err);
    CHECK_OK(good_coll != NULL, err);
    good_doc = CBLDocument_CreateWithID("good", &err);
    CHECK_OK(good_doc != NULL, err);

    test_bad_handles(db);
    test_bad_strings(db);
    test_bad_json();
    test_bad_saves(db);
    test_refcounts_and_messages();

    CBL_Release(good_doc);
    CBL_Release(good_coll);
    close_database(db);
    return test_finish("bad_input_test");
}
