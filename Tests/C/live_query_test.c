/* Live queries through the C API: CBLQuery_AddChangeListener calls back with the
 * current rows, then after each commit that changes them (not after one that
 * does not); CBLQuery_CopyCurrentResults reads them, again and again; errors of
 * a run, misuse, removal and the instance count. */
#include <pthread.h>
#include <stdatomic.h>
#include "test_support.h"

/* What a live-query listener saw: the `name` column of each announcement, comma-joined. */
typedef struct {
    pthread_mutex_t lock;
    int calls;
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
        snprintf(seen->last, sizeof seen->last, "%s", names);
        seen->second_read_same += rs2 && strcmp(names, again) == 0;
    } else {
        seen->failures++;
        char* message = CBLError_Message(&err);
        snprintf(seen->last_error, sizeof seen->last_error, "%s", message ? message : "?");
        CBL_FreeString(message);
    }
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

/* Waits up to 5 s for `count` calls. */
static bool wait_calls(Seen* seen, int count) {
    for (int i = 0; i < 500 && calls(seen) < count; i++) sleep_ms(10);
    return calls(seen) >= count;
}

static void test_live_rows(CBLDatabase* db, CBLCollection* hotels) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    save_json(hotels, "h1", "{\"type\": \"hotel\", \"name\": \"Ritz\"}");
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"hotels\"}],"
        " \"WHERE\": [\"=\", [\".type\"], \"hotel\"], \"ORDER_BY\": [[\".name\"]]}", NULL, &err);
    CHECK_OK(query != NULL, err);
    Seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
    CBLListenerToken* token = CBLQuery_AddChangeListener(query, listener, &seen, &err);
    CHECK_OK(token != NULL, err);
    CBL_Release(query);   /* the token keeps the query */

    CHECK(wait_calls(&seen, 1));
    CHECK_STR(seen_now(&seen).last, "Ritz");
    save_json(hotels, "h2", "{\"type\": \"hotel\", \"name\": \"Adlon\"}");
    CHECK(wait_calls(&seen, 2));
    CHECK_STR(seen_now(&seen).last, "Adlon,Ritz");
    save_json(hotels, "l1", "{\"type\": \"landmark\", \"name\": \"Louvre\"}");   /* the rows stay as they are */
    sleep_ms(800);
    Seen after = seen_now(&seen);
    CHECK(after.calls == 2);
    CHECK(after.failures == 0);
    CHECK(after.second_read_same == 2);

    CBLListener_Remove(token);
    save_json(hotels, "h3", "{\"type\": \"hotel\", \"name\": \"Savoy\"}");
    sleep_ms(800);
    CHECK(calls(&seen) == 2);
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
    Seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
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
    Seen quiet = {.lock = PTHREAD_MUTEX_INITIALIZER};
    CBLListenerToken* early = CBLQuery_AddChangeListener(other, listener, &quiet, &err);
    CHECK_OK(early != NULL, err);
    CBLListener_Remove(early);
    CBLListener_Remove(NULL);

    CBL_Release(other);
    CBL_Release(query);
    sleep_ms(100);   /* a run already scheduled finds no listener */
    CHECK(CBL_InstanceCount() == start);
}

static atomic_int ready_calls;

static void notifications_ready(void* context, CBLDatabase* db) {
    (void)context;
    (void)db;
    atomic_fetch_add(&ready_calls, 1);
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
    Seen seen = {.lock = PTHREAD_MUTEX_INITIALIZER};
    CBLListenerToken* token = CBLQuery_AddChangeListener(query, listener, &seen, &err);
    CHECK_OK(token != NULL, err);
    for (int i = 0; i < 500 && atomic_load(&ready_calls) == 0; i++) sleep_ms(10);
    CHECK(atomic_load(&ready_calls) == 1);
    CHECK(calls(&seen) == 0);
    CBLDatabase_SendNotifications(db);
    CHECK(calls(&seen) == 1);
    CHECK_STR(seen_now(&seen).last, "Adlon");
    CBLDatabase_BufferNotifications(db, NULL, NULL);
    CBLListener_Remove(token);
    CBL_Release(query);
    sleep_ms(100);
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
