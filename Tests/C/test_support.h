/* Minimal assertions for DocLite's C tests: each failed check prints its
 * location and the test exits non-zero at the end. */
#ifndef DOCLITE_TEST_SUPPORT_H
#define DOCLITE_TEST_SUPPORT_H

#include <stdatomic.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>
#include <unistd.h>
#include "doclite.h"

/* Atomic: a test's helper threads check too (a data race TSan found in listener_test). */
static _Atomic int test_failures = 0;
static _Atomic int test_checks = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        test_checks++;                                                           \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

/* Checks that the last call succeeded, printing its error message if not. */
#define CHECK_OK(ok, err)                                                        \
    do {                                                                         \
        test_checks++;                                                           \
        if (!(ok)) {                                                             \
            char* msg_ = CBLError_Message(&(err));                               \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: call failed: %s (domain %d, code %d)\n",     \
                    __FILE__, __LINE__, msg_ ? msg_ : "?", (err).domain, (err).code); \
            CBL_FreeString(msg_);                                                \
        }                                                                        \
    } while (0)

/* Checks that `err` holds `dom`/`cd` and a message containing `text`. */
#define CHECK_ERROR(err, dom, cd, text)                                          \
    do {                                                                         \
        char* msg_ = CBLError_Message(&(err));                                   \
        test_checks++;                                                           \
        if ((err).domain != (dom) || (err).code != (cd) || !msg_ || !strstr(msg_, (text))) { \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: expected error %d/%d '%s', got %d/%d '%s'\n", \
                    __FILE__, __LINE__, (dom), (cd), (text), (err).domain, (err).code, msg_ ? msg_ : "(none)"); \
        }                                                                        \
        CBL_FreeString(msg_);                                                    \
    } while (0)

/* Checks that `err` holds `dom`/`cd` (any message). */
#define CHECK_CODE(err, dom, cd)                                                 \
    do {                                                                         \
        test_checks++;                                                           \
        if ((err).domain != (dom) || (err).code != (cd)) {                       \
            char* msg_ = CBLError_Message(&(err));                               \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: expected error %d/%d, got %d/%d '%s'\n",     \
                    __FILE__, __LINE__, (dom), (cd), (err).domain, (err).code, msg_ ? msg_ : "(none)"); \
            CBL_FreeString(msg_);                                                \
        }                                                                        \
    } while (0)

/* Checks that a call returned "nothing" without an error (a missing document). */
#define CHECK_NO_ERROR(err)                                                      \
    do {                                                                         \
        test_checks++;                                                           \
        if ((err).code != 0) {                                                   \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: expected no error, got %d/%d\n",             \
                    __FILE__, __LINE__, (err).domain, (err).code);               \
        }                                                                        \
    } while (0)

/* Checks that the C string `actual` (may be NULL) equals `expected`. */
#define CHECK_STR(actual, expected) check_str_(__FILE__, __LINE__, (actual), (expected), #actual)

static inline void check_str_(const char* file, int line, const char* actual, const char* expected,
                              const char* text) {
    test_checks++;
    if (!actual || strcmp(actual, expected) != 0) {
        test_failures++;
        fprintf(stderr, "%s:%d: %s is '%s', expected '%s'\n", file, line, text,
                actual ? actual : "(NULL)", expected);
    }
}

/* A freshly filled error, so a test sees whether a call overwrote it. */
static inline CBLError poisoned_error(void) {
    CBLError err;
    err.domain = 99;
    err.code = 99;
    err.internal_info = 0;
    return err;
}

/* Opens (creating) the database `name` in `directory`. */
static inline CBLDatabase* open_database(const char* directory, const char* name) {
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = directory;
    CBLError err;
    CBLDatabase* db = CBLDatabase_Open(name, &config, &err);
    CHECK_OK(db != NULL, err);
    return db;
}

/* Closes (checked) and releases a database handle. */
static inline void close_database(CBLDatabase* db) {
    CBLError err;
    CHECK_OK(CBLDatabase_Close(db, &err), err);
    CBL_Release(db);
}

/* Saves a document `id` with the properties `json` (last write wins). */
static inline bool save_json(CBLCollection* collection, const char* id, const char* json) {
    CBLError err;
    CBLDocument* doc = CBLDocument_CreateWithID(id, &err);
    CHECK_OK(doc != NULL, err);
    bool ok = doc && CBLDocument_SetJSON(doc, json, &err);
    CHECK_OK(ok, err);
    ok = ok && CBLCollection_SaveDocument(collection, doc, &err);
    CHECK_OK(ok, err);
    CBL_Release(doc);
    return ok;
}

/* The stored JSON of document `id` (owned), or NULL when it is missing. */
static inline char* read_json(const CBLCollection* collection, const char* id) {
    CBLError err;
    const CBLDocument* doc = CBLCollection_GetDocument(collection, id, &err);
    CHECK_OK(doc != NULL || err.code == 0, err);
    if (!doc) return NULL;
    char* json = CBLDocument_CreateJSON(doc);
    CBL_Release(doc);
    return json;
}

/* Whether document `id` exists (is live) in `collection`. */
static inline bool doc_exists(const CBLCollection* collection, const char* id) {
    char* json = read_json(collection, id);
    CBL_FreeString(json);
    return json != NULL;
}

/* The time `seconds` from now, for pthread_cond_timedwait: a wait for an event that
   gives up when the event does not come. */
static inline struct timespec deadline_in(int seconds) {
    struct timespec time;
    clock_gettime(CLOCK_REALTIME, &time);
    time.tv_sec += seconds;
    return time;
}

/* Appends `piece` to the owned string `*text` of `*used` bytes. */
static inline void append_text_(char** text, size_t* used, const char* piece) {
    size_t length = strlen(piece);
    *text = realloc(*text, *used + length + 1);
    memcpy(*text + *used, piece, length + 1);
    *used += length;
}

/* Runs `query`: every row as a JSON array (CBLResultSet_CreateRowArrayJSON), one a
   line (owned); `*count` rows. `firstColumn` (optional) gets the first column of
   every row as a JSON array (owned; MISSING written as null). */
static inline char* query_rows_text(CBLQuery* query, size_t* count, char** firstColumn) {
    CBLError err = {0};
    size_t used = 0, idUsed = 0;
    char* text = calloc(1, 1);
    char* ids = calloc(1, 1);
    append_text_(&ids, &idUsed, "[");
    *count = 0;
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    while (rs && CBLResultSet_Next(rs, &err)) {
        char* row = CBLResultSet_CreateRowArrayJSON(rs);
        CHECK(row != NULL);
        append_text_(&text, &used, row ? row : "");
        append_text_(&text, &used, "\n");
        CBL_FreeString(row);
        const char* first = CBLResultSet_JSONAtIndex(rs, 0);
        if (*count > 0) append_text_(&ids, &idUsed, ",");
        append_text_(&ids, &idUsed, first ? first : "null");
        (*count)++;
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    append_text_(&ids, &idUsed, "]");
    if (firstColumn) *firstColumn = ids; else free(ids);
    return text;
}

/* ---- Checking query results ---------------------------------------------- */

static inline int test_compare_strings(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Compares the `count` collected strings (freed here) with `expected`
   (`expectedCount` of them), sorted first when `sorted` is true. */
static inline void test_compare_(const char* file, int line, char** got, size_t count,
                                 const char* const* expected, size_t expectedCount, bool sorted) {
    if (sorted) qsort(got, count, sizeof *got, test_compare_strings);
    test_checks++;
    bool same = count == expectedCount;
    for (size_t i = 0; same && i < count; i++) same = strcmp(got[i], expected[i]) == 0;
    if (!same) {
        test_failures++;
        fprintf(stderr, "%s:%d: got %zu rows, expected %zu:\n", file, line, count, expectedCount);
        for (size_t i = 0; i < count || i < expectedCount; i++)
            fprintf(stderr, "    got %-50s expected %s\n", i < count ? got[i] : "-", i < expectedCount ? expected[i] : "-");
    }
    for (size_t i = 0; i < count; i++) free(got[i]);
    free(got);
}

static inline char* test_strdup(const char* s) {
    size_t n = strlen(s) + 1;
    char* copy = malloc(n);
    if (copy) memcpy(copy, s, n);
    return copy;
}

/* Runs `query` (CHECKed to be non-NULL and to run): each row as
   CBLResultSet_CreateRowDictJSON, or with a `key` that column's string (or its JSON,
   or "(missing)"). Owned: free each, then the array (free_rows). */
static inline char** collect_rows(CBLQuery* query, const char* key, size_t* outCount) {
    CBLError err = {0};
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL || !query, err);
    CHECK(query != NULL);
    size_t count = 0, capacity = 8;
    char** rows = malloc(capacity * sizeof *rows);
    while (rs && CBLResultSet_Next(rs, &err)) {
        if (count == capacity) rows = realloc(rows, (capacity *= 2) * sizeof *rows);
        if (key) {
            const char* string = CBLResultSet_StringForKey(rs, key);
            const char* json = CBLResultSet_JSONForKey(rs, key);
            rows[count++] = test_strdup(string ? string : json ? json : "(missing)");
        } else {
            char* json = CBLResultSet_CreateRowDictJSON(rs);
            rows[count++] = test_strdup(json ? json : "(NULL)");
            CBL_FreeString(json);
        }
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    *outCount = count;
    return rows;
}

static inline void free_rows(char** rows, size_t count) {
    for (size_t i = 0; i < count; i++) free(rows[i]);
    free(rows);
}

/* Runs `query`; the column `key` of every row (a string; "(missing)" or its JSON
   otherwise) must be `expected`, in order, or in any order when `sorted`
   (then `expected` is sorted, byte order). */
#define CHECK_COLUMN(query, key, sorted, ...)                                                       \
    test_check_column_(__FILE__, __LINE__, (query), (key), (sorted),                                \
                       (const char* const[]){__VA_ARGS__},                                          \
                       sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void test_check_column_(const char* file, int line, CBLQuery* query, const char* key, bool sorted,
                                      const char* const* expected, size_t expectedCount) {
    size_t count;
    char** got = collect_rows(query, key, &count);
    test_compare_(file, line, got, count, expected, expectedCount, sorted);
}

/* Runs `query`; every row as CBLResultSet_CreateRowDictJSON must be `expected`,
   in order, or in any order when `sorted` (then `expected` is sorted). */
#define CHECK_ROWS(query, sorted, ...)                                                              \
    test_check_rows_(__FILE__, __LINE__, (query), (sorted),                                         \
                     (const char* const[]){__VA_ARGS__},                                            \
                     sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void test_check_rows_(const char* file, int line, CBLQuery* query, bool sorted,
                                    const char* const* expected, size_t expectedCount) {
    size_t count;
    char** got = collect_rows(query, NULL, &count);
    test_compare_(file, line, got, count, expected, expectedCount, sorted);
}

/* The number of rows `query` returns (-1 when it fails). */
static inline long test_row_count(CBLQuery* query) {
    CBLError err = {0};
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    if (!rs) return -1;
    long rows = 0;
    while (CBLResultSet_Next(rs, &err)) rows++;
    CBL_Release(rs);
    return err.code == 0 ? rows : -1;
}

/* Checks the query's column titles, in order. */
#define CHECK_COLUMN_NAMES(query, ...)                                                              \
    test_check_column_names_(__FILE__, __LINE__, (query),                                           \
                             (const char* const[]){__VA_ARGS__},                                    \
                             sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void test_check_column_names_(const char* file, int line, CBLQuery* query,
                                            const char* const* expected, size_t expectedCount) {
    size_t count = query ? CBLQuery_ColumnCount(query) : 0;
    char** got = malloc((count ? count : 1) * sizeof *got);
    for (size_t i = 0; i < count; i++) {
        const char* name = CBLQuery_ColumnName(query, (unsigned)i);
        got[i] = test_strdup(name ? name : "(NULL)");
    }
    test_compare_(file, line, got, count, expected, expectedCount, false);
}

/* Builds SELECT name FROM `collection` WHERE `where` with CBLQueryBuilder_Create;
   expects failure with `code` and a message containing `text`. */
static inline void check_where_fails(CBLCollection* collection, CBLQueryExpression* where, int code, const char* text) {
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
        CBLQueryDataSource_Collection(collection), NULL, 0, where, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, code, text);
    CBL_Release(query);
}

/* The number in the environment variable `name`, or `fallback`. */
static inline long env_long(const char* name, long fallback) {
    const char* text = getenv(name);
    return text && *text ? strtol(text, NULL, 0) : fallback;
}

/* Whether the test runs under valgrind (its preloaded library is there): long loops run shorter. */
static inline bool running_under_valgrind(void) {
    const char* preload = getenv("LD_PRELOAD");
    return preload && strstr(preload, "vgpreload");
}

/* The directory test_directory made, removed by test_finish. */
static char test_directory_path[512];

static inline void remove_directory(const char* path) {
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", path);
    if (system(command) != 0) { fprintf(stderr, "cannot clear %s\n", path); }
}

/* A fresh directory for a test's databases. */
static inline const char* test_directory(const char* name) {
    snprintf(test_directory_path, sizeof test_directory_path, "/tmp/doclite-ctest-%s-%d", name, (int)getpid());
    remove_directory(test_directory_path);
    return test_directory_path;
}

/* Ends a test: every handle must be released; prints the summary line. */
static inline int test_finish(const char* name) {
    uint64_t live = CBL_InstanceCount();
    if (live != 0) {
        test_failures++;
        fprintf(stderr, "%s: %llu handles still live (leak)\n", name, (unsigned long long)live);
    }
    if (test_directory_path[0]) remove_directory(test_directory_path);
    printf("%s: %d passed, %d failed\n", name, test_checks - test_failures, test_failures);
    return test_failures == 0 ? 0 : 1;
}

#endif
