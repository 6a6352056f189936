/* Change listeners: collection and document listeners, delivery after
 * commit only, reading the database from a callback, removal (which waits
 * for a running call, unless the call removes its own listener). */
#include <pthread.h>
#include "test_support.h"

/* What a listener saw. */
typedef struct {
    int calls;
    unsigned last_count;
    char ids[32][64]; /* every ID delivered, in order */
    int num_ids;
    const CBLCollection* last_collection;
    pthread_t last_thread;
    int reads_ok;   /* reading_listener: documents read back inside the callback */
    int reads_bad;
} Recorder;

static void record_id(Recorder* r, const char* id) {
    if (r->num_ids < 32) snprintf(r->ids[r->num_ids++], sizeof r->ids[0], "%s", id ? id : "(NULL)");
}

static void collection_listener(void* context, const CBLCollectionChange* change) {
    Recorder* r = context;
    r->calls++;
    r->last_count = change->numDocs;
    r->last_collection = change->collection;
    r->last_thread = pthread_self();
    for (unsigned i = 0; i < change->numDocs; i++) record_id(r, change->docIDs[i]);
}

static void document_listener(void* context, const CBLDocumentChange* change) {
    Recorder* r = context;
    r->calls++;
    r->last_collection = change->collection;
    record_id(r, change->docID);
}

/* Reads each changed document back through the database, inside the callback. */
static void reading_listener(void* context, const CBLCollectionChange* change) {
    Recorder* r = context;
    r->calls++;
    for (unsigned i = 0; i < change->numDocs; i++) {
        CBLError err;
        const CBLDocument* doc = CBLCollection_GetDocument(change->collection, change->docIDs[i], &err);
        char* json = doc ? CBLDocument_CreateJSON(doc) : NULL;
        if (json && strcmp(json, "{\"read\":\"me\"}") == 0 && CBLCollection_Count(change->collection) > 0)
            r->reads_ok++;
        else
            r->reads_bad++;
        CBL_FreeString(json);
        CBL_Release(doc);
    }
}

static void reset(Recorder* r) {
    memset(r, 0, sizeof *r);
}

static bool delivered(const Recorder* r, int index, const char* id) {
    return index < r->num_ids && strcmp(r->ids[index], id) == 0;
}

static void delete_doc(CBLCollection* coll, const char* id) {
    CBLError err;
    const CBLDocument* doc = CBLCollection_GetDocument(coll, id, &err);
    CHECK_OK(doc != NULL, err);
    CHECK_OK(doc && CBLCollection_DeleteDocument(coll, doc, &err), err);
    CBL_Release(doc);
}

/* Saves "threaded" from a thread of its own. */
static void* save_from_thread(void* coll) {
    save_json(coll, "threaded", "{}");
    return NULL;
}

/* A collection listener gets one callback per commit, with every changed ID. */
static void test_collection_listener(CBLDatabase* db, CBLCollection* coll, CBLCollection* other) {
    CBLError err;
    static Recorder rec;
    reset(&rec);
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, collection_listener, &rec, &err);
    CHECK_OK(token != NULL, err);

    CHECK(save_json(coll, "a", "{}"));
    CHECK(rec.calls == 1 && rec.last_count == 1 && delivered(&rec, 0, "a"));
    CHECK(rec.last_collection == coll);
    CHECK(pthread_equal(rec.last_thread, pthread_self()));

    /* Three saves in one transaction: nothing until the commit, then one callback. */
    reset(&rec);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "b", "{}"));
    CHECK(save_json(coll, "c", "{}"));
    CHECK(save_json(coll, "d", "{}"));
    CHECK(rec.calls == 0);
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(rec.calls == 1 && rec.last_count == 3);
    CHECK(delivered(&rec, 0, "b") && delivered(&rec, 1, "c") && delivered(&rec, 2, "d"));

    /* A rolled-back transaction delivers nothing. */
    reset(&rec);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "e", "{}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    CHECK(rec.calls == 0);
    /* Nor does a nested batch that rolled back. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "e", "{}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    CHECK(!CBLDatabase_EndTransaction(db, true, &err));
    CHECK(err.domain == kCBLDomain && err.code != 0);   /* the batch was rolled back, not SQLite failing */
    CHECK(rec.calls == 0);

    /* Changes to another collection are not delivered here. */
    CHECK(save_json(other, "a", "{}"));
    CHECK(rec.calls == 0);

    /* One commit touching this collection, another, then this one again:
     * still one callback, with both IDs. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "x1", "{}"));
    CHECK(save_json(other, "y", "{}"));
    CHECK(save_json(coll, "x2", "{}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(rec.calls == 1);
    CHECK(delivered(&rec, 0, "x1") && delivered(&rec, 1, "x2"));
    reset(&rec);

    /* Deletes and purges are changes too. */
    delete_doc(coll, "b");
    CHECK(rec.calls == 1 && delivered(&rec, 0, "b"));
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, "c", &err), err);
    CHECK(rec.calls == 2 && delivered(&rec, 1, "c"));

    /* A commit on another thread is delivered on that thread. */
    reset(&rec);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, save_from_thread, coll) == 0);
    pthread_join(thread, NULL);
    CHECK(rec.calls == 1 && delivered(&rec, 0, "threaded"));
    CHECK(pthread_equal(rec.last_thread, thread));

    /* Removed: no more deliveries. */
    reset(&rec);
    CBLListener_Remove(token);
    CHECK(save_json(coll, "f", "{}"));
    CHECK(rec.calls == 0);
}

/* A document listener fires only for its document. */
static void test_document_listener(CBLDatabase* db, CBLCollection* coll, CBLCollection* other) {
    CBLError err;
    static Recorder rec;
    reset(&rec);
    CBLListenerToken* token = CBLCollection_AddDocumentChangeListener(coll, "watched", document_listener, &rec, &err);
    CHECK_OK(token != NULL, err);
    CHECK(save_json(coll, "unwatched", "{}"));
    CHECK(rec.calls == 0);
    CHECK(save_json(coll, "watched", "{\"v\":1}"));
    CHECK(rec.calls == 1 && delivered(&rec, 0, "watched"));
    CHECK(rec.last_collection == coll);
    delete_doc(coll, "watched");
    CHECK(rec.calls == 2 && delivered(&rec, 1, "watched"));
    CHECK_OK(CBLCollection_PurgeDocumentByID(coll, "watched", &err), err);
    CHECK(rec.calls == 3);
    /* One callback per commit, however often the commit changed the document. */
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "watched", "{\"v\":1}"));
    CHECK(save_json(other, "watched", "{}"));
    CHECK(save_json(coll, "watched", "{\"v\":2}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(rec.calls == 4);
    int calls = rec.calls;
    CBLListener_Remove(token);
    CHECK(save_json(coll, "watched", "{\"v\":3}"));
    CHECK(rec.calls == calls);
}

/* A listener may read the database inside its callback (no deadlock). */
static void test_reading_listener(CBLDatabase* db, CBLCollection* coll) {
    CBLError err;
    static Recorder rec;
    reset(&rec);
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, reading_listener, &rec, &err);
    CHECK_OK(token != NULL, err);
    CHECK(save_json(coll, "r1", "{\"read\":\"me\"}"));
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(coll, "r2", "{\"read\":\"me\"}"));
    CHECK(save_json(coll, "r3", "{\"read\":\"me\"}"));
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CHECK(rec.calls == 2);
    CHECK(rec.reads_ok == 3 && rec.reads_bad == 0);
    CBLListener_Remove(token);
}

/* A token keeps its collection handle alive; removing it releases both. */
static void test_token_lifetime(CBLDatabase* db) {
    CBLError err;
    static Recorder rec;
    reset(&rec);
    uint64_t before = CBL_InstanceCount();
    CBLCollection* coll = CBLDatabase_Collection(db, "watched", NULL, &err);
    CHECK_OK(coll != NULL, err);
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, collection_listener, &rec, &err);
    CHECK_OK(token != NULL, err);
    CHECK(CBL_InstanceCount() == before + 2);
    CBL_Release(coll); /* the token still holds it */
    CHECK(CBL_InstanceCount() == before + 2);

    CBLCollection* writer = CBLDatabase_Collection(db, "watched", NULL, &err);
    CHECK(save_json(writer, "late", "{}"));
    CHECK(rec.calls == 1 && delivered(&rec, 0, "late"));
    CHECK(rec.last_collection == coll);
    CHECK_STR(CBLCollection_Name(coll), "watched"); /* still live */
    CBL_Release(writer);

    CBLListener_Remove(token);
    CHECK(CBL_InstanceCount() == before);
    CHECK(CBLCollection_Name(coll) == NULL); /* now released */
    CBLListener_Remove(token);               /* removing twice is harmless */
    CHECK(CBL_InstanceCount() == before);
}

/* A call that takes a while, and says when it starts and when it ends. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t started_now;
    int started, finished;
    CBLListenerToken* token;   /* self_removing_listener removes it */
} SlowCall;

static void slow_listener(void* context, const CBLCollectionChange* change) {
    (void)change;
    SlowCall* call = context;
    pthread_mutex_lock(&call->lock);
    call->started = 1;
    pthread_cond_broadcast(&call->started_now);
    pthread_mutex_unlock(&call->lock);
    /* Slow application code: long enough for the other thread's CBLListener_Remove to
       begin while this call runs (no event can say that it has; the test's one delay). */
    struct timespec slow = {0, 200 * 1000000L};
    while (nanosleep(&slow, &slow) != 0) {}
    __atomic_store_n(&call->finished, 1, __ATOMIC_SEQ_CST);
}

static void self_removing_listener(void* context, const CBLCollectionChange* change) {
    (void)change;
    SlowCall* call = context;
    call->started++;
    CBLListener_Remove(call->token);   /* must not wait for itself */
    call->finished++;
}

static void* save_slowly_watched(void* coll) {
    save_json(coll, "slow", "{}");
    return NULL;
}

/* CBLListener_Remove returns only after a call running on another thread has
   returned (so the context may be freed then); a call may remove its own listener. */
static void test_remove_waits_for_running_calls(CBLCollection* coll) {
    CBLError err;
    SlowCall slow = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL};
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, slow_listener, &slow, &err);
    CHECK_OK(token != NULL, err);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, save_slowly_watched, coll) == 0);
    pthread_mutex_lock(&slow.lock);
    while (!slow.started) pthread_cond_wait(&slow.started_now, &slow.lock);
    pthread_mutex_unlock(&slow.lock);
    CBLListener_Remove(token);
    CHECK(__atomic_load_n(&slow.finished, __ATOMIC_SEQ_CST) == 1);
    pthread_join(thread, NULL);

    SlowCall self = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, 0, 0, NULL};
    self.token = CBLCollection_AddChangeListener(coll, self_removing_listener, &self, &err);
    CHECK_OK(self.token != NULL, err);
    CHECK(save_json(coll, "self", "{}"));
    CHECK(save_json(coll, "self2", "{}"));   /* removed: no second call */
    CHECK(self.started == 1 && self.finished == 1);
}

/* The database's ready callback: counts the calls and records the database handle. */
typedef struct {
    int calls;
    CBLDatabase* db;
} Ready;

static void notifications_ready(void* context, CBLDatabase* db) {
    Ready* ready = context;
    ready->calls++;
    ready->db = db;
}

/* Buffered notifications: listener calls wait until CBLDatabase_SendNotifications,
   the ready callback fires when the queue stops being empty; a NULL callback ends it. */
static void test_buffered_notifications(CBLDatabase* db, CBLCollection* coll) {
    CBLError err;
    static Recorder rec;
    reset(&rec);
    Ready ready = {0, NULL};
    CBLListenerToken* token = CBLCollection_AddChangeListener(coll, collection_listener, &rec, &err);
    CHECK_OK(token != NULL, err);
    CBLDatabase_BufferNotifications(db, notifications_ready, &ready);

    CHECK(save_json(coll, "buf1", "{}"));
    CHECK(save_json(coll, "buf2", "{}"));
    CHECK(rec.calls == 0);
    CHECK(ready.calls == 1 && ready.db == db);   /* once, when the queue stopped being empty */
    CBLDatabase_SendNotifications(db);
    CHECK(rec.calls == 2 && delivered(&rec, 0, "buf1") && delivered(&rec, 1, "buf2"));
    CBLDatabase_SendNotifications(db);   /* nothing queued: nothing happens */
    CHECK(rec.calls == 2);
    CHECK(save_json(coll, "buf3", "{}"));
    CHECK(ready.calls == 2 && rec.calls == 2);

    CBLDatabase_BufferNotifications(db, NULL, NULL);   /* stops buffering; buf3 still waits */
    CHECK(save_json(coll, "buf4", "{}"));
    CHECK(rec.calls == 3 && delivered(&rec, 2, "buf4"));
    CBLDatabase_SendNotifications(db);
    CHECK(rec.calls == 4 && delivered(&rec, 3, "buf3"));

    /* A listener removed while its call waits is not called (its context may be gone). */
    CBLDatabase_BufferNotifications(db, notifications_ready, &ready);
    CHECK(save_json(coll, "buf5", "{}"));
    CBLListener_Remove(token);
    token = NULL;
    CBLDatabase_SendNotifications(db);
    CHECK(rec.calls == 4);
    CBLDatabase_BufferNotifications(db, NULL, NULL);
    CBLDatabase_SendNotifications(db);

    CBLDatabase_BufferNotifications(NULL, notifications_ready, &ready);   /* a bad handle is ignored */
    CBLDatabase_SendNotifications(NULL);
    CBLListener_Remove(token);
}

int main(void) {
    CBLError err;
    CBLDatabase* db = open_database(test_directory("listener"), "listeners");
    CBLCollection* coll = CBLDatabase_CreateCollection(db, "watched", NULL, &err);
    CHECK_OK(coll != NULL, err);
    CBLCollection* other = CBLDatabase_CreateCollection(db, "other", NULL, &err);
    CHECK_OK(other != NULL, err);

    test_collection_listener(db, coll, other);
    test_document_listener(db, coll, other);
    test_reading_listener(db, coll);
    test_token_lifetime(db);
    test_buffered_notifications(db, coll);
    test_remove_waits_for_running_calls(coll);

    CBL_Release(other);
    CBL_Release(coll);
    close_database(db);
    return test_finish("listener_test");
}
