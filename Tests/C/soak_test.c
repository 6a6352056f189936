/* The soak: 8 threads share one database handle for a set time (argv[1]
 * seconds, 20 by default), each doing random saves, deletes, purges,
 * transactions that commit or roll back, batch saves, reads, queries, live
 * queries, change listeners and index creation and deletion. Each thread owns
 * its own documents (IDs t<thread>-<k>, property t) and keeps a model of them,
 * so every read and every count of them is exact. A watchdog fails the run if
 * no operation finishes for 60 s. At the end every document matches its
 * model, the collection's count is the models' total, and once everything is
 * released CBL_InstanceCount() is back to zero. */
#include <pthread.h>
#include <stdatomic.h>
#include <stdint.h>
#include "test_support.h"

enum { THREADS = 8, DOCS = 64, STALL_SECONDS = 60 };

typedef struct {
    int version[DOCS];  /* the body's v of document k; 0 when it is not there (never saved, deleted or purged) */
} Model;

typedef struct {
    int index;
    unsigned seed;
    Model model;
    CBLCollection* collection;
    CBLQuery* count_query;   /* SELECT COUNT(*) … WHERE t = this thread */
    CBLQuery* rows_query;    /* SELECT k, v … WHERE t = this thread ORDER BY k */
    CBLQuery* live_query;
    CBLListenerToken* live_token;
    CBLListenerToken* change_token;
    int next_version;
} Worker;

static CBLDatabase* db;
static atomic_int errors;
static atomic_bool stop;
static atomic_long operations, saves, deletes, purges, commits, rollbacks, queries, index_changes;
static atomic_long live_notifications, change_notifications;

#define FAIL(...)                                                                \
    do {                                                                         \
        atomic_fetch_add(&errors, 1);                                            \
        fprintf(stderr, __VA_ARGS__);                                            \
        fputc('\n', stderr);                                                     \
    } while (0)

static void fail_call(const Worker* w, const char* what, CBLError* err) {
    char* message = CBLError_Message(err);
    FAIL("thread %d: %s failed: %s (%d/%d)", w->index, what, message ? message : "?", err->domain, err->code);
    CBL_FreeString(message);
}

static void doc_id(char* out, size_t size, int thread, int k) { snprintf(out, size, "t%d-%02d", thread, k); }

static void body(char* out, size_t size, int thread, int k, int version) {
    snprintf(out, size, "{\"t\":%d,\"k\":%d,\"v\":%d,\"text\":\"document %d of thread %d, version %d\"}",
             thread, k, version, k, thread, version);
}

static void on_change(void* context, const CBLCollectionChange* change) {
    (void)context;
    atomic_fetch_add(&change_notifications, (long)change->numDocs);
}

static void on_live_results(void* context, CBLQuery* query, CBLListenerToken* token) {
    (void)context;
    CBLError err;
    CBLResultSet* rows = CBLQuery_CopyCurrentResults(query, token, &err);
    while (rows && CBLResultSet_Next(rows, &err)) {}
    CBL_Release(rows);
    atomic_fetch_add(&live_notifications, 1);
}

/* Saves version `version` of document k; the caller updates its model (or a transaction's) when it succeeds. */
static bool save(Worker* w, int k, int version) {
    char id[16], json[160];
    doc_id(id, sizeof id, w->index, k);
    body(json, sizeof json, w->index, k, version);
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID(id, &err);
    bool ok = doc && CBLDocument_SetJSON(doc, json, &err) && CBLCollection_SaveDocument(w->collection, doc, &err);
    CBL_Release(doc);
    if (!ok) fail_call(w, "save", &err);
    atomic_fetch_add(&saves, 1);
    return ok;
}

/* Deletes document k when it exists; checks that it exists exactly when `exists` says. */
static bool delete_document(Worker* w, int k, bool exists) {
    char id[16];
    doc_id(id, sizeof id, w->index, k);
    CBLError err;
    const CBLDocument* doc = CBLCollection_GetDocument(w->collection, id, &err);
    if ((doc != NULL) != exists) {
        FAIL("thread %d: %s is %s, the model says it is %s", w->index, id, doc ? "there" : "not there", exists ? "there" : "not");
    }
    bool ok = doc && CBLCollection_DeleteDocument(w->collection, doc, &err);
    if (doc && !ok) fail_call(w, "delete", &err);
    CBL_Release(doc);
    atomic_fetch_add(&deletes, 1);
    return ok;
}

/* Reads document k and compares it with the model. */
static void check_document(Worker* w, int k) {
    char id[16];
    doc_id(id, sizeof id, w->index, k);
    CBLError err;
    const CBLDocument* doc = CBLCollection_GetDocument(w->collection, id, &err);
    int expected = w->model.version[k];
    if (!doc) {
        if (err.code != 0) fail_call(w, "read", &err);
        else if (expected != 0) FAIL("thread %d: %s is missing, the model has version %d", w->index, id, expected);
        return;
    }
    char* json = CBLDocument_CreateJSON(doc);
    char wanted[160];
    body(wanted, sizeof wanted, w->index, k, expected);
    if (expected == 0) FAIL("thread %d: %s is there (%s), the model has no such document", w->index, id, json);
    else if (!json || strcmp(json, wanted) != 0) FAIL("thread %d: %s is %s, the model has %s", w->index, id, json ? json : "(null)", wanted);
    CBL_FreeString(json);
    CBL_Release(doc);
}

/* Runs the thread's two queries and compares their rows with the model. */
static void check_queries(Worker* w) {
    CBLError err;
    int expected_count = 0;
    for (int k = 0; k < DOCS; k++) expected_count += w->model.version[k] != 0;
    CBLResultSet* rows = CBLQuery_Execute(w->count_query, &err);
    if (!rows || !CBLResultSet_Next(rows, &err)) {
        fail_call(w, "count query", &err);
    } else if (CBLResultSet_IntAtIndex(rows, 0) != expected_count) {
        FAIL("thread %d: the query counts %lld documents, the model %d", w->index,
             (long long)CBLResultSet_IntAtIndex(rows, 0), expected_count);
    }
    CBL_Release(rows);
    rows = CBLQuery_Execute(w->rows_query, &err);
    if (!rows) { fail_call(w, "rows query", &err); return; }
    int k = 0;
    bool matched = true;
    while (matched && CBLResultSet_Next(rows, &err)) {
        int row_k = (int)CBLResultSet_IntAtIndex(rows, 0), row_v = (int)CBLResultSet_IntAtIndex(rows, 1);
        while (k < DOCS && w->model.version[k] == 0) k++;
        matched = k < DOCS && row_k == k && row_v == w->model.version[k];
        if (!matched) {
            FAIL("thread %d: the query gives k %d v %d where the model has k %d v %d", w->index, row_k, row_v,
                 k, k < DOCS ? w->model.version[k] : -1);
        }
        k++;
    }
    if (err.code != 0) {
        fail_call(w, "reading rows", &err);
    } else if (matched) {
        while (k < DOCS && w->model.version[k] == 0) k++;
        if (k < DOCS) FAIL("thread %d: the query's rows end before k %d, which the model has (v %d)", w->index, k, w->model.version[k]);
    }
    CBL_Release(rows);
    atomic_fetch_add(&queries, 2);
}

/* A transaction of a few saves and deletes, committed or rolled back; the model follows only a commit. */
static void transaction(Worker* w) {
    CBLError err;
    if (!CBLDatabase_BeginTransaction(db, &err)) { fail_call(w, "begin", &err); return; }
    Model pending = w->model;
    int changes = 1 + rand_r(&w->seed) % 6;
    for (int i = 0; i < changes; i++) {
        int k = rand_r(&w->seed) % DOCS;
        if (rand_r(&w->seed) % 3 == 0) {
            if (delete_document(w, k, pending.version[k] != 0)) pending.version[k] = 0;
        } else {
            int version = ++w->next_version;
            if (save(w, k, version)) pending.version[k] = version;
        }
    }
    bool commit = rand_r(&w->seed) % 4 != 0;
    if (!CBLDatabase_EndTransaction(db, commit, &err)) { fail_call(w, commit ? "commit" : "rollback", &err); return; }
    if (commit) w->model = pending;
    atomic_fetch_add(commit ? &commits : &rollbacks, 1);
}

/* Saves 5 documents in one CBLCollection_SaveDocumentsJSON call. */
static void save_batch(Worker* w) {
    char ids[5 * 16] = "", bodies[5 * 160] = "";
    int ks[5], versions[5];
    for (int i = 0; i < 5; i++) {
        char id[16], json[160];
        ks[i] = rand_r(&w->seed) % DOCS;
        versions[i] = ++w->next_version;
        doc_id(id, sizeof id, w->index, ks[i]);
        body(json, sizeof json, w->index, ks[i], versions[i]);
        strcat(ids, id); strcat(ids, "\n");
        strcat(bodies, json); strcat(bodies, "\n");
    }
    CBLError err;
    if (!CBLCollection_SaveDocumentsJSON(w->collection, ids, bodies, &err)) { fail_call(w, "batch save", &err); return; }
    for (int i = 0; i < 5; i++) w->model.version[ks[i]] = versions[i];
    atomic_fetch_add(&saves, 5);
}

static void purge(Worker* w, int k) {
    char id[16];
    doc_id(id, sizeof id, w->index, k);
    CBLError err;
    bool ok = CBLCollection_PurgeDocumentByID(w->collection, id, &err);
    if (!ok && err.code != 0) fail_call(w, "purge", &err);   /* false with code 0: no such document */
    w->model.version[k] = 0;
    atomic_fetch_add(&purges, 1);
}

static void remove_listener(CBLListenerToken** token) {
    CBLListener_Remove(*token);   /* also releases the token */
    *token = NULL;
}

/* Removes the thread's live query or change listener when it has one, else adds one. */
static void toggle_listener(Worker* w, bool live) {
    CBLListenerToken** token = live ? &w->live_token : &w->change_token;
    if (*token) { remove_listener(token); return; }
    CBLError err;
    *token = live ? CBLQuery_AddChangeListener(w->live_query, on_live_results, NULL, &err)
                  : CBLCollection_AddChangeListener(w->collection, on_change, NULL, &err);
    if (!*token) fail_call(w, live ? "live query" : "change listener", &err);
}

static void toggle_index(Worker* w) {
    CBLError err;
    bool ok;
    if (rand_r(&w->seed) % 2) {
        CBLValueIndexConfiguration config = {kCBLN1QLLanguage, "t, k", NULL};
        ok = CBLCollection_CreateValueIndex(w->collection, "soak_t_k", config, &err);
    } else {
        ok = CBLCollection_DeleteIndex(w->collection, "soak_t_k", &err);
    }
    if (!ok) fail_call(w, "index change", &err);
    atomic_fetch_add(&index_changes, 1);
}

static CBLQuery* create_query(const Worker* w, const char* sqlpp) {
    CBLError err;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sqlpp, NULL, &err);
    char parameters[32];
    snprintf(parameters, sizeof parameters, "{\"t\":%d}", w->index);
    if (!query || !CBLQuery_SetParameters(query, parameters, &err)) fail_call(w, "creating a query", &err);
    return query;
}

static void* work(void* argument) {
    Worker* w = argument;
    CBLError err;
    w->collection = CBLDatabase_DefaultCollection(db, &err);
    if (!w->collection) { fail_call(w, "default collection", &err); return NULL; }
    w->count_query = create_query(w, "SELECT COUNT(*) FROM _ WHERE t = $t");
    w->rows_query = create_query(w, "SELECT k, v FROM _ WHERE t = $t ORDER BY k");
    w->live_query = create_query(w, "SELECT META().id, v FROM _ WHERE t = $t AND v % 2 = 0");
    while (!atomic_load(&stop)) {
        int choice = rand_r(&w->seed) % 100, k = rand_r(&w->seed) % DOCS;
        if (choice < 30) {
            int version = ++w->next_version;
            if (save(w, k, version)) w->model.version[k] = version;
        } else if (choice < 40) {
            if (delete_document(w, k, w->model.version[k] != 0)) w->model.version[k] = 0;
        } else if (choice < 44) {
            purge(w, k);
        } else if (choice < 54) {
            transaction(w);
        } else if (choice < 59) {
            save_batch(w);
        } else if (choice < 79) {
            check_document(w, k);
        } else if (choice < 91) {
            check_queries(w);
        } else if (choice < 95) {
            toggle_listener(w, true);
        } else if (choice < 98) {
            toggle_listener(w, false);
        } else {
            toggle_index(w);
        }
        atomic_fetch_add(&operations, 1);
    }
    return NULL;
}

/* Fails the run when no operation finishes for STALL_SECONDS: a deadlock. */
static void* watchdog(void* argument) {
    (void)argument;
    long last = -1;
    time_t since = time(NULL);
    while (!atomic_load(&stop)) {
        sleep(1);
        long now = atomic_load(&operations);
        if (now != last) { last = now; since = time(NULL); continue; }
        if (time(NULL) - since >= STALL_SECONDS) {
            fprintf(stderr, "soak: no operation finished for %d s after %ld: deadlock\n", STALL_SECONDS, now);
            abort();
        }
    }
    return NULL;
}

int main(int argc, char** argv) {
    int seconds = argc > 1 ? atoi(argv[1]) : 20;
    unsigned seed = argc > 2 ? (unsigned)strtoul(argv[2], NULL, 10) : (unsigned)time(NULL);
    char directory[] = "/tmp/doclite-soak-XXXXXX";
    if (!mkdtemp(directory)) { perror("mkdtemp"); return 1; }
    uint64_t baseline = CBL_InstanceCount();
    db = open_database(directory, "soak");
    if (!db) return 1;

    static Worker workers[THREADS];
    pthread_t threads[THREADS], watcher;
    for (int i = 0; i < THREADS; i++) {
        workers[i].index = i;
        workers[i].seed = seed + (unsigned)i * 7919u;
        pthread_create(&threads[i], NULL, work, &workers[i]);
    }
    pthread_create(&watcher, NULL, watchdog, NULL);
    sleep((unsigned)seconds);
    atomic_store(&stop, true);
    for (int i = 0; i < THREADS; i++) pthread_join(threads[i], NULL);
    pthread_join(watcher, NULL);

    /* Every document against its model, through reads and queries, and the total. */
    uint64_t expected_total = 0;
    for (int i = 0; i < THREADS; i++) {
        Worker* w = &workers[i];
        if (!w->collection) continue;
        for (int k = 0; k < DOCS; k++) {
            check_document(w, k);
            expected_total += w->model.version[k] != 0;
        }
        check_queries(w);
    }
    CBLError err;
    CBLCollection* collection = CBLDatabase_DefaultCollection(db, &err);
    CHECK(collection && CBLCollection_Count(collection) == expected_total);
    CBL_Release(collection);

    for (int i = 0; i < THREADS; i++) {
        Worker* w = &workers[i];
        if (w->live_token) remove_listener(&w->live_token);
        if (w->change_token) remove_listener(&w->change_token);
        CBL_Release(w->live_query);
        CBL_Release(w->rows_query);
        CBL_Release(w->count_query);
        CBL_Release(w->collection);
    }
    CHECK_OK(CBLDatabase_Delete(db, &err), err);
    CBL_Release(db);
    CHECK(CBL_InstanceCount() == baseline);
    rmdir(directory);

    printf("soak: %d s, %d threads, seed %u: %ld operations: %ld saves, %ld deletes, %ld purges, "
           "%ld transactions committed and %ld rolled back, %ld queries, %ld index changes; "
           "%ld live-query and %ld document-change notifications; %llu documents match the models\n",
           seconds, THREADS, seed, atomic_load(&operations), atomic_load(&saves), atomic_load(&deletes),
           atomic_load(&purges), atomic_load(&commits), atomic_load(&rollbacks), atomic_load(&queries),
           atomic_load(&index_changes), atomic_load(&live_notifications), atomic_load(&change_notifications),
           (unsigned long long)expected_total);
    test_failures += atomic_load(&errors);
    if (test_failures) fprintf(stderr, "soak: %d failures\n", test_failures);
    return test_failures ? 1 : 0;
}
