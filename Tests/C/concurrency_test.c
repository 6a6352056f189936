/* One database handle used from six threads at once: four writers (some of
 * their saves batched in transactions) and two readers. Threads count their
 * failures in atomics; the main thread checks them. */
#include <pthread.h>
#include <stdatomic.h>
#include "test_support.h"

enum { WRITERS = 4, READERS = 2, DOCS_PER_WRITER = 300, BATCH = 10 };

static CBLDatabase* db;
static CBLCollection* shared_coll;
static atomic_int errors;
static atomic_int writers_done;
static atomic_long reads_done;

#define THREAD_FAIL(...)                                                         \
    do {                                                                         \
        atomic_fetch_add(&errors, 1);                                            \
        fprintf(stderr, __VA_ARGS__);                                            \
    } while (0)

static void make_id(char* out, size_t size, int writer, int n) {
    snprintf(out, size, "w%d-%03d", writer, n);
}

static void make_json(char* out, size_t size, int writer, int n) {
    snprintf(out, size, "{\"writer\":%d,\"n\":%d,\"text\":\"doc %d of writer %d\"}", writer, n, n, writer);
}

static bool save_one(CBLCollection* coll, int writer, int n) {
    char id[32], json[128];
    make_id(id, sizeof id, writer, n);
    make_json(json, sizeof json, writer, n);
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID(id, &err);
    bool ok = doc && CBLDocument_SetJSON(doc, json, &err) && CBLCollection_SaveDocument(coll, doc, &err);
    if (!ok) THREAD_FAIL("writer %d: saving %s failed: %d/%d\n", writer, id, err.domain, err.code);
    CBL_Release(doc);
    return ok;
}

/* Saves DOCS_PER_WRITER documents; every other group of BATCH in one transaction. */
static void* writer(void* arg) {
    int w = (int)(intptr_t)arg;
    CBLError err;
    /* Writers 0 and 1 share the main collection handle; 2 and 3 look up their own. */
    CBLCollection* coll = w < 2 ? shared_coll : CBLDatabase_Collection(db, "shared", NULL, &err);
    if (!coll) {
        THREAD_FAIL("writer %d: no collection\n", w);
        return NULL;
    }
    for (int group = 0; group < DOCS_PER_WRITER / BATCH; group++) {
        bool batched = group % 2 == 1;
        if (batched && !CBLDatabase_BeginTransaction(db, &err)) THREAD_FAIL("writer %d: begin failed\n", w);
        for (int i = 0; i < BATCH; i++) save_one(coll, w, group * BATCH + i);
        if (batched && !CBLDatabase_EndTransaction(db, true, &err)) THREAD_FAIL("writer %d: commit failed\n", w);
    }
    if (coll != shared_coll) CBL_Release(coll);
    atomic_fetch_add(&writers_done, 1);
    return NULL;
}

/* Reads counts (never decreasing, never above the total) and documents
 * (absent, or with the right content) until the writers finish. */
static void* reader(void* arg) {
    unsigned seed = (unsigned)(uintptr_t)arg;
    uint64_t last_count = 0;
    do {
        uint64_t count = CBLCollection_Count(shared_coll);
        if (count < last_count || count > WRITERS * DOCS_PER_WRITER)
            THREAD_FAIL("reader: count went from %llu to %llu\n", (unsigned long long)last_count, (unsigned long long)count);
        last_count = count;

        seed = seed * 1103515245u + 12345u;
        int w = (int)(seed >> 16) % WRITERS;
        int n = (int)(seed >> 8) % DOCS_PER_WRITER;
        char id[32], expected[128];
        make_id(id, sizeof id, w, n);
        make_json(expected, sizeof expected, w, n);
        CBLError err;
        const CBLDocument* doc = CBLCollection_GetDocument(shared_coll, id, &err);
        if (!doc && err.code != 0) THREAD_FAIL("reader: get %s failed: %d/%d\n", id, err.domain, err.code);
        if (doc) {
            char* json = CBLDocument_CreateJSON(doc);
            if (!json || strcmp(json, expected) != 0) THREAD_FAIL("reader: %s is %s\n", id, json ? json : "NULL");
            CBL_FreeString(json);
            CBL_Release(doc);
        }
        atomic_fetch_add(&reads_done, 1);
    } while (atomic_load(&writers_done) < WRITERS);
    return NULL;
}

/* EndTransaction from a thread that does not own the transaction. */
static atomic_int intruder_result = -1;
static pthread_barrier_t intruder_ready;

static void* end_foreign_transaction(void* arg) {
    (void)arg;
    CBLError err;
    pthread_barrier_wait(&intruder_ready);
    atomic_store(&intruder_result, CBLDatabase_EndTransaction(db, true, &err) ? 1 : 0);
    return NULL;
}

/* A transaction belongs to the thread that began it: another thread's
 * EndTransaction fails (or waits) and neither commits nor breaks it. */
static void test_transaction_owner(void) {
    CBLError err;
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK(save_json(shared_coll, "owned", "{}"));
    pthread_t intruder;
    pthread_barrier_init(&intruder_ready, NULL, 2);
    CHECK(pthread_create(&intruder, NULL, end_foreign_transaction, NULL) == 0);
    pthread_barrier_wait(&intruder_ready);   /* the intruder is about to end it */
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err); /* roll back */
    pthread_join(intruder, NULL);
    pthread_barrier_destroy(&intruder_ready);
    CHECK(atomic_load(&intruder_result) == 0);
    CHECK(!doc_exists(shared_coll, "owned"));
}

int main(void) {
    CBLError err;
    db = open_database(test_directory("concurrency"), "concurrent");
    shared_coll = CBLDatabase_CreateCollection(db, "shared", NULL, &err);
    CHECK_OK(shared_coll != NULL, err);

    pthread_t threads[WRITERS + READERS];
    for (int i = 0; i < READERS; i++)
        CHECK(pthread_create(&threads[WRITERS + i], NULL, reader, (void*)(uintptr_t)(i + 1)) == 0);
    for (int i = 0; i < WRITERS; i++)
        CHECK(pthread_create(&threads[i], NULL, writer, (void*)(intptr_t)i) == 0);
    for (int i = 0; i < WRITERS + READERS; i++) pthread_join(threads[i], NULL);

    CHECK(atomic_load(&errors) == 0);
    CHECK(atomic_load(&reads_done) > 0);
    CHECK(CBLCollection_Count(shared_coll) == WRITERS * DOCS_PER_WRITER);

    /* Every document reads back with its content, and sequences are all distinct. */
    static bool seen_sequence[WRITERS * DOCS_PER_WRITER + 1];
    int bad = 0;
    for (int w = 0; w < WRITERS; w++) {
        for (int n = 0; n < DOCS_PER_WRITER; n++) {
            char id[32], expected[128];
            make_id(id, sizeof id, w, n);
            make_json(expected, sizeof expected, w, n);
            const CBLDocument* doc = CBLCollection_GetDocument(shared_coll, id, &err);
            char* json = doc ? CBLDocument_CreateJSON(doc) : NULL;
            uint64_t seq = doc ? CBLDocument_Sequence(doc) : 0;
            if (!json || strcmp(json, expected) != 0 || seq == 0 || seq > WRITERS * DOCS_PER_WRITER ||
                seen_sequence[seq]) {
                if (bad++ < 5) fprintf(stderr, "%s: %s (sequence %llu)\n", id, json ? json : "missing", (unsigned long long)seq);
            } else {
                seen_sequence[seq] = true;
            }
            CBL_FreeString(json);
            CBL_Release(doc);
        }
    }
    CHECK(bad == 0);

    test_transaction_owner();

    CBL_Release(shared_coll);
    close_database(db);
    return test_finish("concurrency_test");
}
