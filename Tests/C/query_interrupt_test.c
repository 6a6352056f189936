/* Stopping a query while it runs (issue 36): CBLQuery_Interrupt from another
   thread, CBLResultSet_Interrupt, and a progress callback that returns false
   each end the run with kCBLSQLiteDomain / kCBLSQLiteErrorInterrupted; runs
   started afterwards are not affected, and bad handles are errors. */
#include <pthread.h>
#include "test_support.h"

/* A three-way join of 300 documents: 27 million rows to count, minutes of work unless stopped. */
static const char* const endless =
    "SELECT COUNT(*) AS rows FROM _ AS a JOIN _ AS b ON a.n >= 0 JOIN _ AS c ON c.n >= b.n - 1000";

static CBLQuery* create_query(CBLDatabase* db, const char* text) {
    CBLError err;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, text, NULL, &err);
    CHECK_OK(query != NULL, err);
    return query;
}

/* Whether the run has begun: its progress callback says so. */
static pthread_mutex_t running_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t running_now = PTHREAD_COND_INITIALIZER;
static bool running;

static bool say_running(void* context) {
    (void)context;
    pthread_mutex_lock(&running_lock);
    running = true;
    pthread_cond_broadcast(&running_now);
    pthread_mutex_unlock(&running_lock);
    return true;
}

static void* interrupt_once_running(void* query) {
    pthread_mutex_lock(&running_lock);
    while (!running) pthread_cond_wait(&running_now, &running_lock);
    pthread_mutex_unlock(&running_lock);
    CBLQuery_Interrupt(query);
    return NULL;
}

static void test_interrupt_from_another_thread(CBLDatabase* db) {
    CBLQuery* query = create_query(db, endless);
    CBLError progress_err;
    CHECK_OK(CBLQuery_SetProgressHandler(query, 10000, say_running, NULL, &progress_err), progress_err);
    pthread_t thread;
    CHECK(pthread_create(&thread, NULL, interrupt_once_running, query) == 0);
    CBLError err = poisoned_error();
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK(rs == NULL);
    CHECK_ERROR(err, kCBLSQLiteDomain, kCBLSQLiteErrorInterrupted, "interrupted");
    pthread_join(thread, NULL);
    CBL_Release(rs);
    CBL_Release(query);

    /* Later runs are not affected. */
    CBLQuery* count = create_query(db, "SELECT COUNT(*) AS n FROM _");
    CBLQuery_Interrupt(count);
    CHECK_COLUMN(count, "n", false, "300");
    CBL_Release(count);
}

static int progress_calls = 0;

static bool stop_after_three(void* context) {
    CHECK(context == &progress_calls);
    return ++progress_calls < 3;
}

static void test_progress_callback(CBLDatabase* db) {
    CBLQuery* query = create_query(db, endless);
    CBLError err = poisoned_error();
    CHECK_OK(CBLQuery_SetProgressHandler(query, 10000, stop_after_three, &progress_calls, &err), err);
    err = poisoned_error();
    CHECK(CBLQuery_Execute(query, &err) == NULL);
    CHECK_ERROR(err, kCBLSQLiteDomain, kCBLSQLiteErrorInterrupted, "interrupted");
    CHECK(progress_calls == 3);

    /* Removed, the callback is not called again; a short query runs to its end. */
    CHECK_OK(CBLQuery_SetProgressHandler(query, 0, NULL, NULL, &err), err);
    CBLQuery* few = create_query(db, "SELECT n FROM _ WHERE n < 3 ORDER BY n");
    CHECK_OK(CBLQuery_SetProgressHandler(few, 1, stop_after_three, &progress_calls, &err), err);
    progress_calls = -1000000;
    CHECK_COLUMN(few, "n", false, "0", "1", "2");
    CHECK(progress_calls > -1000000);
    CBL_Release(few);
    CBL_Release(query);

    err = poisoned_error();
    CHECK(!CBLQuery_SetProgressHandler(NULL, 1, stop_after_three, NULL, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLQuery_Interrupt(NULL);
    CBLResultSet_Interrupt(NULL);
    CBLQuery_Interrupt((CBLQuery*)db);   /* the wrong kind of handle: ignored */
}

static void test_result_set_interrupt(CBLDatabase* db) {
    CBLQuery* query = create_query(db, "SELECT n FROM _ ORDER BY n");
    CBLError err;
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    CHECK_OK(CBLResultSet_Next(rs, &err), err);
    CHECK(CBLResultSet_IntAtIndex(rs, 0) == 0);
    CBLResultSet_Interrupt(rs);
    err = poisoned_error();
    CHECK(!CBLResultSet_Next(rs, &err));
    CHECK_ERROR(err, kCBLSQLiteDomain, kCBLSQLiteErrorInterrupted, "interrupted");
    CBL_Release(rs);
    CBL_Release(query);
}

int main(void) {
    CBLDatabase* db = open_database(test_directory("query_interrupt"), "interrupt");
    CBLError err;
    CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(docs != NULL, err);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    for (int n = 0; n < 300; n++) {
        char id[16], json[32];
        snprintf(id, sizeof id, "d%d", n);
        snprintf(json, sizeof json, "{\"n\": %d}", n);
        save_json(docs, id, json);
    }
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    CBL_Release(docs);
    test_interrupt_from_another_thread(db);
    test_progress_callback(db);
    test_result_set_interrupt(db);
    close_database(db);
    return test_finish("query_interrupt_test");
}
