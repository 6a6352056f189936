/* Live queries through the C API: CBLQuery_AddChangeListener calls back with the
 * current rows, then after each commit that changes them (not after one that
 * does not); CBLQuery_CopyCurrentResults reads them, again and again; errors of
 * a run, misuse, removal and the instance count. */
#include <pthread.h>
#include "test_support.h"

/* What a live-query listener saw: the `name` column of each announcement, comma-joined. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t called;   /* broadcast after each announcement */
    int calls;
    int repeats;           /* announcements of the same rows as the one before */
    int failures;          /* announcements whose CBLQuery_CopyCurrentResults failed */
    char last[256];
    char last_error[256];
    int second_read_same;  /* a second CopyCurrentResults gave the same rows */
} Seen;

static void names_of(CBLResultSet* rs, char* out, size_t size) {
    CBLError err = {0};
    out[0] = 0;
    while (CBLResultSet_Next(rs, &err)) {
        const char* name = CBLResultSet_StringForKey(rs, "name");
        if (out[0]) strncat(out, ",", size - strlen(out) - 1);
        strncat(out, name ? name : "-", size - strlen(out) - 1);
    }
}

static void listener(void* context, CBLQuery* query, CBLListenerToken* token) {
    Seen* seen = context;
    CBLError err = {0};
    char names[256], again[256];
    CBLResultSet* rs = CBLQuery_CopyCurrentResults(query, token, &err);
    if (rs) names_of(rs, names, sizeof names);
    CBL_Release(rs);
    CBLResultSet* rs2 = rs ? CBLQuery_CopyCurrentResults(query, token, &err) : NULL;
    if (rs2) names_of(rs2, again, sizeof again);
    CBL_Release(rs2);
    pthread_mutex_lock(&seen->lock);
    seen->calls++;
    if (rs) {
        seen->repeats += seen->calls > 1 && strcmp(seen->last, names) == 0;
        snprintf(seen->last, sizeof seen->last, "%s", names);
        seen->second_read_same += rs2 && strcmp(names, again) == 0;
    } else {
        seen->failures++;
        char* message = CBLError_Message(&err);
        snprintf(seen->last_error, sizeof seen->last_error, "%s", message ? message : "?");
        CBL_FreeString(message);
    }
    pthread_cond_broadcast(&seen->called);
    pthread_mutex_unlock(&seen->lock);
}

static int calls(Seen* seen) {
    pthread_mutex_lock(&seen->lock);
    int n = seen->calls;
    pthread_mutex_unlock(&seen->lock);
    return n;
}

/* A copy of what the listener saw, taken under its lock. */
static Seen seen_now(Seen* seen) {
    pthread_mutex_lock(&seen->lock);
    Seen copy = *seen;
    pthread_mutex_unlock(&seen->lock);
    return copy;
}

/* Waits for `count` calls, woken by each (at most 10 s). */
static bool wait_calls(Seen* seen, int count) {
    struct timespec deadline = deadline_in(10);
    pthread_mutex_lock(&seen->lock);
    while (seen->calls < count && pthread_cond_timedwait(&seen->called, &seen->lock, &deadline) == 0) {}
    bool reached = seen->calls >= count;
    pthread_mutex_unlock(&seen->lock);
    return reached;
}

#define SEEN_INIT {.lock = PTHREAD_MUTEX_INITIALIZER, .called = PTHREAD_COND_INITIALIZER}

static void test_live_rows(CBLDatabase* db, CBLCollection* hotels) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    save_json(hotels, "h1", "{\"type\": \"hotel\", \"name\": \"Ritz\"}");
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"hotels\"}],"
        " \"WHERE\": [\"=\", [\".type\"], \"hotel\"], \"ORDER_BY\": [[\".name\"]]}", NULL, &err);
    CHECK_OK(query != NULL, err);
    Seen seen = SEEN_INIT, fence = SEEN_INIT;   /* fence: a second listener, kept to the end */
    CBLListenerToken* token = CBLQuery_AddChangeListener(query, listener, &seen, &err);
    CHECK_OK(token != NULL, err);
    CBLListenerToken* fence_token = CBLQuery_AddChangeListener(query, listener, &fence, &err);
    CHECK_OK(fence_token != NULL, err);
    CBL_Release(query);   /* the tokens keep the query */

    CHECK(wait_calls(&seen, 1));
    CHECK_STR(seen_now(&seen).last, "Ritz");
    save_json(hotels, "h2", "{\"type\": \"hotel\", \"name\": \"Adlon\"}");
    CHECK(wait_calls(&seen, 2));
    CHECK_STR(seen_now(&seen).last, "Adlon,Ritz");
    /* A commit that leaves the rows as they are, then one that changes them: the rows
       announced next are the new ones (a run after the first alone announces nothing). */
    save_json(hotels, "l1", "{\"type\": \"landmark\", \"name\": \"Louvre\"}");
    save_json(hotels, "h3", "{\"type\": \"hotel\", \"name\": \"Savoy\"}");
    CHECK(wait_calls(&seen, 3));
    Seen after = seen_now(&seen);
    CHECK(after.calls == 3);
    CHECK_STR(after.last, "Adlon,Ritz,Savoy");
    CHECK(after.repeats == 0);
    CHECK(after.failures == 0);
    CHECK(after.second_read_same == 3);

    /* A removed listener is not called: the other hears the next run, which would have
       called the removed one too. */
    CHECK(wait_calls(&fence, 3));
    CBLListener_Remove(token);
    save_json(hotels, "h4", "{\"type\": \"hotel\", \"name\": \"Bristol\"}");
    CHECK(wait_calls(&fence, 4));
    CHECK_STR(seen_now(&fence).last, "Adlon,Bristol,Ritz,Savoy");
    CHECK(calls(&seen) == 3);
    CBLListener_Remove(fence_token);
    CHECK(CBL_InstanceCount() == start);
}

static void test_errors_and_misuse(CBLDatabase* db) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"hotels\"}], \"LIMIT\": [\"$n\"]}", NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLQuery* other = CBLDatabase_CreateQuery(db, kCBLJSONLanguage, "{\"WHAT\": [[\"._id\"]]}", NULL, &err);
    CHECK_OK(other != NULL, err);

    /* A run that fails: announced, and CopyCurrentResults gives its error. */
    Seen seen = SEEN_INIT;
    CBLListenerToken* token = CBLQuery_AddChangeListener(query, listener, &seen, &err);
    CHECK_OK(token != NULL, err);
    CHECK(wait_calls(&seen, 1));
    Seen failed = seen_now(&seen);
    CHECK(failed.failures == 1);
    CHECK(strstr(failed.last_error, "LIMIT is MISSING") != NULL);
    CHECK_OK(CBLQuery_SetParameters(query, "{\"n\": 1}", &err), err);
    CHECK(wait_calls(&seen, 2));
    CHECK_STR(seen_now(&seen).last, "Ritz");   /* the first by sequence */

    /* The token of another query, a released token, NULLs. */
    CHECK(CBLQuery_CopyCurrentResults(other, token, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotFound, "not a listener of this query");
    CHECK(CBLQuery_CopyCurrentResults(query, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLListener_Remove(token);
    CHECK(CBLQuery_CopyCurrentResults(query, token, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLQuery_AddChangeListener(NULL, listener, &seen, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "query is NULL");
    CHECK(CBLQuery_AddChangeListener(query, NULL, &seen, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "listener is NULL");

    /* Added and removed at once: nothing leaks, and a run already scheduled calls no one. */
    Seen quiet = SEEN_INIT;
    CBLListenerToken* early = CBLQuery_AddChangeListener(other, listener, &quiet, &err);
    CHECK_OK(early != NULL, err);
    CBLListener_Remove(early);
    CBLListener_Remove(NULL);

    CBL_Release(other);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

static int ready_calls;
static pthread_mutex_t ready_lock = PTHREAD_MUTEX_INITIALIZER;
static pthread_cond_t ready = PTHREAD_COND_INITIALIZER;

static void notifications_ready(void* context, CBLDatabase* db) {
    (void)context;
    (void)db;
    pthread_mutex_lock(&ready_lock);
    ready_calls++;
    pthread_cond_broadcast(&ready);
    pthread_mutex_unlock(&ready_lock);
}

/* A buffering database holds a live query's calls until CBLDatabase_SendNotifications,
   which makes them on the calling thread. */
static void test_buffered(CBLDatabase* db) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"hotels\"}], \"ORDER_BY\": [[\".name\"]], \"LIMIT\": 1}",
        NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLDatabase_BufferNotifications(db, notifications_ready, NULL);
    Seen seen = SEEN_INIT;
    CBLListenerToken* token = CBLQuery_AddChangeListener(query, listener, &seen, &err);
    CHECK_OK(token != NULL, err);
    struct timespec deadline = deadline_in(10);
    pthread_mutex_lock(&ready_lock);
    while (ready_calls == 0 && pthread_cond_timedwait(&ready, &ready_lock, &deadline) == 0) {}
    CHECK(ready_calls == 1);
    pthread_mutex_unlock(&ready_lock);
    CHECK(calls(&seen) == 0);
    CBLDatabase_SendNotifications(db);
    CHECK(calls(&seen) == 1);
    CHECK_STR(seen_now(&seen).last, "Adlon");
    CBLDatabase_BufferNotifications(db, NULL, NULL);
    CBLListener_Remove(token);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

int main(void) {
    CBLError err = {0};
    CBLDatabase* db = open_database(test_directory("live_query"), "live");
    CBLCollection* hotels = CBLDatabase_CreateCollection(db, "hotels", NULL, &err);
    CHECK_OK(hotels != NULL, err);
    test_live_rows(db, hotels);
    test_errors_and_misuse(db);
    test_buffered(db);
    CBL_Release(hotels);
    close_database(db);
    return test_finish("live_query_test");
}
