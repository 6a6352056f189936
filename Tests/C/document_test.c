/* Documents: create, save, read, update, delete, purge, conflicts,
 * expiration and the JSON round trip. */
#include <pthread.h>

#include "test_support.h"

static char directory[512];

/* Whether `rev` is "<generation>-" followed by 40 hex digits. */
static bool is_revision(const char* rev, int generation) {
    if (!rev) return false;
    char prefix[16];
    int n = snprintf(prefix, sizeof prefix, "%d-", generation);
    if (strncmp(rev, prefix, (size_t)n) != 0 || strlen(rev + n) != 40) return false;
    return strspn(rev + n, "0123456789abcdef") == 40;
}

/* The expiration of `id`, checking that the call did not fail. */
static CBLTimestamp expiration_of(CBLCollection* coll, const char* id) {
    CBLError err = poisoned_error();
    CBLTimestamp t = CBLCollection_GetDocumentExpiration(coll, id, &err);
    CHECK_OK(t >= 0, err);
    CHECK_NO_ERROR(err);
    return t;
}

/* Create, save, read back, update: sequences and revisions grow. */
static void test_crud(CBLCollection* coll) {
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID("doc1", &err);
    CHECK_OK(doc != NULL, err);
    CHECK_STR(CBLDocument_ID(doc), "doc1");
    CHECK(CBLDocument_RevisionID(doc) == NULL);
    CHECK(CBLDocument_Sequence(doc) == 0);
    char* json = CBLDocument_CreateJSON(doc);
    CHECK_STR(json, "{}");
    CBL_FreeString(json);

    CHECK_OK(CBLDocument_SetJSON(doc, "{\"name\":\"first\",\"n\":1}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(coll, doc, &err), err);
    CHECK(CBLDocument_Sequence(doc) == 1);
    CHECK(is_revision(CBLDocument_RevisionID(doc), 1));
    char rev1[64];
    snprintf(rev1, sizeof rev1, "%s", CBLDocument_RevisionID(doc) ? CBLDocument_RevisionID(doc) : "");
    CBL_Release(doc);
    CHECK(CBLCollection_Count(coll) == 1);

    /* Read it back, immutable. */
    const CBLDocument* read = CBLCollection_GetDocument(coll, "doc1", &err);
    CHECK_OK(read != NULL, err);
    CHECK_STR(CBLDocument_ID(read), "doc1");
    CHECK_STR(CBLDocument_RevisionID(read), rev1);
    CHECK(CBLDocument_Sequence(read) == 1);
    json = CBLDocument_CreateJSON(read);
    CHECK_STR(json, "{\"name\":\"first\",\"n\":1}");
    CBL_FreeString(json);
    /* SetJSON on an immutable document fails. */
    CHECK(!CBLDocument_SetJSON((CBLDocument*)read, "{}", &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "immutable");

    /* Update through a mutable copy, then through GetMutableDocument. */
    CBLDocument* copy = CBLDocument_MutableCopy(read);
    CHECK(copy != NULL);
    CBL_Release(read);
    CHECK_OK(CBLDocument_SetJSON(copy, "{\"name\":\"second\"}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(coll, copy, &err), err);
    CHECK(CBLDocument_Sequence(copy) == 2);
    CHECK(is_revision(CBLDocument_RevisionID(copy), 2));
    CBL_Release(copy);

    CBLDocument* mut = CBLCollection_GetMutableDocument(coll, "doc1", &err);
    CHECK_OK(mut != NULL, err);
    CHECK(is_revision(CBLDocument_RevisionID(mut), 2));
    CHECK_OK(CBLDocument_SetJSON(mut, "{\"name\":\"third\",\"list\":[1,2]}", &err), err);
    CHECK_OK(CBLCollection_SaveDocument(coll, mut, &err), err);
    CHECK(CBLDocument_Sequence(mut) == 3);
    CHECK(is_revision(CBLDocument_RevisionID(mut), 3));
    /* Saving again without a change still makes a new revision. */
    CHECK_OK(CBLCollection_SaveDocument(coll, mut, &err), err);
    CHECK(CBLDocument_Sequence(mut) == 4);
    CHECK(is_revision(CBLDocument_RevisionID(mut), 4));
    CBL_Release(mut);

    json = read_json(coll, "doc1");
    CHECK_STR(json, "{\"name\":\"third\",\"list\":[1,2]}");
    CBL_FreeString(json);
    CHECK(CBLCollection_Count(coll) == 1);

    /* Automatic IDs: '~' and 22 characters, distinct. */
    CBLDocument* a = CBLDocument_Create();
    CBLDocument* b = CBLDocument_CreateWithID(NULL, &err);
    CHECK_OK(b != NULL, err);
    const char* id_a = CBLDocument_ID(a);
    const char* id_b = CBLDocument_ID(b);
    CHECK(id_a && id_a[0] == '~' && strlen(id_a) == 23);
    CHECK(id_b && id_b[0] == '~' && strlen(id_b) == 23);
    CHECK(id_a && id_b && strcmp(id_a, id_b) != 0);
    CHECK_OK(CBLCollection_SaveDocument(coll, a, &err), err);
    CHECK(id_a && doc_exists(coll, id_a));
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, id_a, &err), err);
    CBL_Release(a);
    CBL_Release(b);

    /* A missing document is NULL with code 0. */
    err = poisoned_error();
    CHECK(CBLCollection_GetDocument(coll, "missing", &err) == NULL);
    CHECK_NO_ERROR(err);
    err = poisoned_error();
    CHECK(CBLCollection_GetMutableDocument(coll, "missing", &err) == NULL);
    CHECK_NO_ERROR(err);
}

/* Delete leaves a tombstone (the document reads as missing); purge removes it. */
static void test_delete_and_purge(CBLCollection* coll) {
    CBLError err;
    CHECK(save_json(coll, "del", "{\"v\":1}"));
    uint64_t before = CBLCollection_Count(coll);
    const CBLDocument* doc = CBLCollection_GetDocument(coll, "del", &err);
    CHECK_OK(doc != NULL, err);
    CHECK_OK(CBLCollection_DeleteDocument(coll, doc, &err), err);
    CHECK(is_revision(CBLDocument_RevisionID(doc), 2));
    CBL_Release(doc);
    err = poisoned_error();
    CHECK(CBLCollection_GetDocument(coll, "del", &err) == NULL);
    CHECK_NO_ERROR(err);
    CHECK(CBLCollection_Count(coll) == before - 1);

    /* A new document with the deleted ID continues the revision history. */
    CBLDocument* again = CBLDocument_CreateWithID("del", &err);
    CHECK_OK(CBLDocument_SetJSON(again, "{\"v\":2}", &err), err);
    CHECK_OK(CBLCollection_SaveDocumentWithConcurrencyControl(coll, again, kCBLConcurrencyControlFailOnConflict, &err), err);
    CHECK(is_revision(CBLDocument_RevisionID(again), 3));
    CBL_Release(again);
    char* json = read_json(coll, "del");
    CHECK_STR(json, "{\"v\":2}");
    CBL_FreeString(json);

    /* Deleting a document that was never saved. */
    CBLDocument* unsaved = CBLDocument_CreateWithID("unsaved", &err);
    CHECK(!CBLCollection_DeleteDocument(coll, unsaved, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotFound);
    CBL_Release(unsaved);

    /* Purge: gone, and a second purge finds nothing: false with code 0, as in couchbase-lite-C. */
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, "del", &err), err);
    CHECK(!doc_exists(coll, "del"));
    CHECK(!CBLCollection_PurgeDocumentByID(coll, "del", &err));
    CHECK_NO_ERROR(err);
    CHECK(!CBLCollection_PurgeDocumentByID(coll, "never-existed", &err));
    CHECK_NO_ERROR(err);

    /* A tombstone can be purged too; after a purge a new save starts at generation 1. */
    CHECK(save_json(coll, "tomb", "{}"));
    doc = CBLCollection_GetDocument(coll, "tomb", &err);
    CHECK_OK(CBLCollection_DeleteDocument(coll, doc, &err), err);
    CBL_Release(doc);
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, "tomb", &err), err);
    CHECK(!CBLCollection_PurgeDocumentByID(coll, "tomb", &err));
    CHECK_NO_ERROR(err);
    CBLDocument* fresh = CBLDocument_CreateWithID("tomb", &err);
    CHECK_OK(CBLCollection_SaveDocument(coll, fresh, &err), err);
    CHECK(is_revision(CBLDocument_RevisionID(fresh), 1));
    CBL_Release(fresh);
}

/* Two copies of one revision: the second save or delete conflicts. */
static void test_conflicts(CBLCollection* coll) {
    CBLError err;
    CHECK(save_json(coll, "c", "{\"v\":0}"));
    CBLDocument* first = CBLCollection_GetMutableDocument(coll, "c", &err);
    CBLDocument* second = CBLCollection_GetMutableDocument(coll, "c", &err);
    CHECK_OK(first && second, err);
    CHECK_OK(CBLDocument_SetJSON(first, "{\"v\":1}", &err), err);
    CHECK_OK(CBLDocument_SetJSON(second, "{\"v\":2}", &err), err);
    CHECK_OK(CBLCollection_SaveDocumentWithConcurrencyControl(coll, first, kCBLConcurrencyControlFailOnConflict, &err), err);

    CHECK(!CBLCollection_SaveDocumentWithConcurrencyControl(coll, second, kCBLConcurrencyControlFailOnConflict, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorConflict, "changed");
    char* json = read_json(coll, "c");
    CHECK_STR(json, "{\"v\":1}");
    CBL_FreeString(json);
    CHECK(is_revision(CBLDocument_RevisionID(second), 1)); /* unchanged by the failed save */

    CHECK_OK(CBLCollection_SaveDocumentWithConcurrencyControl(coll, second, kCBLConcurrencyControlLastWriteWins, &err), err);
    CHECK(is_revision(CBLDocument_RevisionID(second), 3));
    json = read_json(coll, "c");
    CHECK_STR(json, "{\"v\":2}");
    CBL_FreeString(json);

    /* Delete: `first` is now out of date. */
    CHECK(!CBLCollection_DeleteDocumentWithConcurrencyControl(coll, first, kCBLConcurrencyControlFailOnConflict, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorConflict, "changed");
    CHECK(doc_exists(coll, "c"));
    CHECK_OK(CBLCollection_DeleteDocumentWithConcurrencyControl(coll, first, kCBLConcurrencyControlLastWriteWins, &err), err);
    CHECK(!doc_exists(coll, "c"));
    CBL_Release(first);
    CBL_Release(second);

    /* Delete with an up-to-date copy and FailOnConflict succeeds. */
    CHECK(save_json(coll, "d", "{}"));
    const CBLDocument* current = CBLCollection_GetDocument(coll, "d", &err);
    CHECK_OK(CBLCollection_DeleteDocumentWithConcurrencyControl(coll, current, kCBLConcurrencyControlFailOnConflict, &err), err);
    CBL_Release(current);
    CHECK(!doc_exists(coll, "d"));

    /* A new document whose ID is taken. */
    CHECK(save_json(coll, "taken", "{\"owner\":1}"));
    CBLDocument* intruder = CBLDocument_CreateWithID("taken", &err);
    CHECK_OK(CBLDocument_SetJSON(intruder, "{\"owner\":2}", &err), err);
    CHECK(!CBLCollection_SaveDocumentWithConcurrencyControl(coll, intruder, kCBLConcurrencyControlFailOnConflict, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorConflict, "changed");
    json = read_json(coll, "taken");
    CHECK_STR(json, "{\"owner\":1}");
    CBL_FreeString(json);
    CHECK_OK(CBLCollection_SaveDocument(coll, intruder, &err), err);
    CHECK(is_revision(CBLDocument_RevisionID(intruder), 2));
    CBL_Release(intruder);
    json = read_json(coll, "taken");
    CHECK_STR(json, "{\"owner\":2}");
    CBL_FreeString(json);
}

/* Commits to a collection, for a test to wait on. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t changed;
} Commits;

static void committed(void* context, const CBLCollectionChange* change) {
    (void)change;
    Commits* commits = context;
    pthread_mutex_lock(&commits->lock);
    pthread_cond_broadcast(&commits->changed);
    pthread_mutex_unlock(&commits->lock);
}

/* Waits until document `id` is gone, woken by each commit to `coll` (at most 10 s). */
static bool wait_until_gone(CBLCollection* coll, const char* id) {
    Commits commits = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER};
    CBLError err;
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, committed, &commits, &err);
    CHECK_OK(token != NULL, err);
    struct timespec deadline = deadline_in(10);
    pthread_mutex_lock(&commits.lock);
    while (doc_exists(coll, id) && pthread_cond_timedwait(&commits.changed, &commits.lock, &deadline) == 0) {}
    pthread_mutex_unlock(&commits.lock);
    CBLListener_Remove(token);
    return !doc_exists(coll, id);
}

/* Set/Get expiration; an expired document disappears (timer and on open). */
static void test_expiration(CBLDatabase** db, CBLCollection** coll) {
    CBLError err;
    CHECK(save_json(*coll, "exp", "{}"));
    CHECK(expiration_of(*coll, "exp") == 0);
    CBLTimestamp later = CBL_Now() + 3600 * 1000;
    CHECK_OK(CBLCollection_SetDocumentExpiration(*coll, "exp", later, &err), err);
    CHECK(expiration_of(*coll, "exp") == later);
    /* Kept when the document is updated. */
    CHECK(save_json(*coll, "exp", "{\"updated\":true}"));
    CHECK(expiration_of(*coll, "exp") == later);
    CHECK_OK(CBLCollection_SetDocumentExpiration(*coll, "exp", 0, &err), err);
    CHECK(expiration_of(*coll, "exp") == 0);
    CHECK(expiration_of(*coll, "no-such-doc") == 0);

    CHECK(!CBLCollection_SetDocumentExpiration(*coll, "no-such-doc", later, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotFound, "no-such-doc");

    /* The background housekeeper purges a document that has expired (when a time to come
       passes: the Swift tests, which move the clock). */
    CHECK(save_json(*coll, "soon", "{}"));
    CHECK_OK(CBLCollection_SetDocumentExpiration(*coll, "soon", CBL_Now() - 1, &err), err);
    CHECK(wait_until_gone(*coll, "soon"));
    CHECK(doc_exists(*coll, "exp"));
    err = poisoned_error();
    CHECK(CBLCollection_GetDocumentExpiration(*coll, "soon", &err) == 0);
    CHECK_NO_ERROR(err);

    /* Expired while the database was closed: purged when it opens. */
    CHECK(save_json(*coll, "past", "{}"));
    CHECK_OK(CBLCollection_SetDocumentExpiration(*coll, "past", CBL_Now() - 1000, &err), err);
    CBL_Release(*coll);
    CHECK_OK(CBLDatabase_Close(*db, &err), err);
    CBL_Release(*db);
    *db = open_database(directory, "documents");
    *coll = CBLDatabase_CreateCollection(*db, "docs", NULL, &err);
    CHECK_OK(*coll != NULL, err);
    CHECK(!doc_exists(*coll, "past"));
    CHECK(doc_exists(*coll, "exp"));
}

/* JSON in, JSON out: numbers, strings and containers survive exactly. A
 * stored object lists its keys in the order the database first saw them
 * (README, "Body format"); an unsaved document's order is not specified, so
 * its JSON is checked by saving it again. */
static void check_round_trip(CBLCollection* coll, const char* id, const char* in, const char* out) {
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID(id, &err);
    CHECK_OK(CBLDocument_SetJSON(doc, in, &err), err);
    char* unsaved = CBLDocument_CreateJSON(doc);
    CHECK_OK(CBLCollection_SaveDocument(coll, doc, &err), err);
    CBL_Release(doc);
    char* json = read_json(coll, id);
    CHECK_STR(json, out);
    CBL_FreeString(json);

    /* The unsaved document's JSON holds the same values. */
    char copy_id[128];
    snprintf(copy_id, sizeof copy_id, "%s-copy", id);
    CHECK(unsaved && save_json(coll, copy_id, unsaved));
    json = read_json(coll, copy_id);
    CHECK_STR(json, out);
    CBL_FreeString(json);
    CBL_FreeString(unsaved);
}

static void test_json(CBLCollection* coll) {
    check_round_trip(coll, "int64",
                     "{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"u\":18446744073709551615}",
                     "{\"min\":-9223372036854775808,\"max\":9223372036854775807,\"u\":18446744073709551615}");
    check_round_trip(coll, "small", "{\"zero\":0,\"neg\":-1,\"b\":255,\"s\":65536,\"i\":-2147483649}",
                     "{\"zero\":0,\"neg\":-1,\"b\":255,\"s\":65536,\"i\":-2147483649}");
    check_round_trip(coll, "double", "{\"five\":5.0,\"half\":-0.5,\"big\":1e300,\"tenth\":0.1}",
                     "{\"five\":5.0,\"half\":-0.5,\"big\":1e+300,\"tenth\":0.1}");
    check_round_trip(coll, "unicode", "{\"s\":\"\xc3\xa9\xf0\x9f\x98\x80\",\"esc\":\"\\u00e9\\ud83d\\ude00\"}",
                     "{\"s\":\"\xc3\xa9\xf0\x9f\x98\x80\",\"esc\":\"\xc3\xa9\xf0\x9f\x98\x80\"}");
    check_round_trip(coll, "unicode-key", "{\"cl\xc3\xa9\":1}", "{\"cl\xc3\xa9\":1}");
    check_round_trip(coll, "nested",
                     "{\"a\":[1,[2,[3,{\"deep\":{\"x\":[null,true,false]}}]]],\"o\":{\"p\":{\"q\":\"r\"}}}",
                     "{\"a\":[1,[2,[3,{\"deep\":{\"x\":[null,true,false]}}]]],\"o\":{\"p\":{\"q\":\"r\"}}}");
    check_round_trip(coll, "empty", "{\"arr\":[],\"obj\":{},\"str\":\"\"}", "{\"arr\":[],\"obj\":{},\"str\":\"\"}");
    check_round_trip(coll, "empty-doc", " { } ", "{}");
    check_round_trip(coll, "nul", "{\"z\":\"a\\u0000b\"}", "{\"z\":\"a\\u0000b\"}");
    check_round_trip(coll, "escapes", "{\"e\":\"q\\\"b\\\\n\\nt\\t/\\/\"}", "{\"e\":\"q\\\"b\\\\n\\nt\\t//\"}");
    check_round_trip(coll, "spaces", " {\n\t\"k\" : [ 1 , 2 ] \r\n} ", "{\"k\":[1,2]}");
    check_round_trip(coll, "dup", "{\"k\":1,\"k\":2}", "{\"k\":2}");
    /* A long key that is not shared, and a long string. */
    check_round_trip(coll, "long-key", "{\"a key with spaces that is long\":\"v\"}",
                     "{\"a key with spaces that is long\":\"v\"}");
    char big_in[5000], big_out[5000];
    strcpy(big_in, "{\"s\":\"");
    memset(big_in + 6, 'x', 4000);
    strcpy(big_in + 4006, "\"}");
    strcpy(big_out, big_in);
    check_round_trip(coll, "long-string", big_in, big_out);
}

int main(void) {
    snprintf(directory, sizeof directory, "%s", test_directory("document"));
    CBLError err;
    CBLDatabase* db = open_database(directory, "documents");
    CBLCollection* coll = CBLDatabase_CreateCollection(db, "docs", NULL, &err);
    CHECK_OK(coll != NULL, err);

    test_crud(coll);
    test_delete_and_purge(coll);
    test_conflicts(coll);
    test_json(coll);
    test_expiration(&db, &coll);

    CBL_Release(coll);
    close_database(db);
    return test_finish("document_test");
}
