/* A small travel-sample-shaped database for the C tests of the Objective-C
 * QueryBuilder guides (seed_query_builder_test.c, seed_result_set_test.c),
 * modelled on the Swift fixture of BuilderSeedExampleTests: airlines, hotels,
 * landmarks, routes, airports, users and one deleted document, saved into the
 * default collection of a database named "travel-sample"; plus helpers that
 * run a query and check a column, or whole rows, against expected values. */
#ifndef DOCLITE_TRAVEL_SAMPLE_FIXTURE_H
#define DOCLITE_TRAVEL_SAMPLE_FIXTURE_H

#include "test_support.h"

/* The hotels, in the order they are saved. Their titles are the towns the
   guides' ORDER BY example prints; the first two are the guides' "Data Format"
   documents (hotel123 "Hotel Ghia", hotel456 "Hotel Deluxe"). */
#define TRAVEL_SAMPLE_HOTEL_COUNT 8
static const char* const travel_sample_hotels[TRAVEL_SAMPLE_HOTEL_COUNT][2] = {
    {"hotel123", "{\"type\": \"hotel\", \"id\": \"hotel123\", \"name\": \"Hotel Ghia\", \"title\": \"Avignon\", \"city\": \"Avignon\","
                 " \"country\": \"France\", \"public_likes\": [\"Armani Langworth\", \"Elfrieda Gutkowski\", \"Maureen Ruecker\"]}"},
    {"hotel456", "{\"type\": \"hotel\", \"id\": \"hotel456\", \"name\": \"Hotel Deluxe\", \"title\": \"Aberdyfi\", \"city\": \"Aberdyfi\","
                 " \"country\": \"United Kingdom\", \"public_likes\": [\"Maureen Ruecker\"]}"},
    {"hotel789", "{\"type\": \"hotel\", \"id\": \"hotel789\", \"name\": \"Auberge\", \"title\": \"Ard\xc3\xa8" "che\", \"city\": \"Lyon\","
                 " \"country\": \"France\"}"},
    {"hotel234", "{\"type\": \"hotel\", \"id\": \"hotel234\", \"name\": \"Summer Isles Hotel\", \"title\": \"Achiltibuie\","
                 " \"city\": \"Achiltibuie\", \"country\": \"United Kingdom\"}"},
    {"hotel345", "{\"type\": \"hotel\", \"id\": \"hotel345\", \"name\": \"Cresta Court\", \"title\": \"Altrincham\","
                 " \"city\": \"Altrincham\", \"country\": \"United Kingdom\"}"},
    {"hotel567", "{\"type\": \"hotel\", \"id\": \"hotel567\", \"name\": \"Ambleside Inn\", \"title\": \"Ambleside\","
                 " \"city\": \"Ambleside\", \"country\": \"United Kingdom\"}"},
    {"hotel678", "{\"type\": \"hotel\", \"id\": \"hotel678\", \"name\": \"Queensberry Arms\", \"title\": \"Annan\","
                 " \"city\": \"Annan\", \"country\": \"United Kingdom\"}"},
    {"hotel890", "{\"type\": \"hotel\", \"id\": \"hotel890\", \"name\": \"Charlemont Arms\", \"title\": \"Armagh\","
                 " \"city\": \"Armagh\", \"country\": \"United Kingdom\"}"},
};

/* How many hotels the "hotels" stores get (the guides' count example prints 6). */
#define TRAVEL_SAMPLE_HOTELS_STORE_COUNT 6

/* Everything else. The two airlines are the guides' "Return Data Format" documents,
   copied as printed (both with "id": 10). */
static const char* const travel_sample_others[][2] = {
    {"airline_10", "{\"type\": \"airline\", \"id\": 10, \"name\": \"40-Mile Air\", \"callsign\": \"MILE-AIR\","
                   " \"country\": \"United States\", \"iata\": \"Q5\", \"icao\": \"MLA\"}"},
    {"airline_17", "{\"type\": \"airline\", \"id\": 10, \"name\": \"Alaskan Airways\", \"callsign\": \"ALASKAN-AIR\","
                   " \"country\": \"United States\", \"iata\": \"AA\", \"icao\": \"AAA\"}"},
    {"landmark_1", "{\"type\": \"landmark\", \"name\": \"Royal Engineers Museum\", \"country\": \"United Kingdom\"}"},
    {"landmark_2", "{\"type\": \"landmark\", \"name\": \"Engineer\", \"country\": \"France\"}"},
    {"landmark_3", "{\"type\": \"landmark\", \"name\": \"England Eagle\", \"country\": \"United Kingdom\"}"},
    {"landmark_4", "{\"type\": \"landmark\", \"name\": \"Tower Bridge\", \"country\": \"United Kingdom\","
                   " \"public_likes\": [\"Armani Langworth\"]}"},
    {"landmark_5", "{\"type\": \"landmark\", \"name\": \"engineer\", \"country\": \"Canada\"}"},
    {"landmark_6", "{\"type\": \"landmark\", \"name\": \"royal engineers museum\", \"country\": \"United Kingdom\"}"},
    {"landmark_7", "{\"type\": \"landmark\", \"name\": \"Engine Shed\", \"country\": \"United Kingdom\"}"},
    {"landmark_8", "{\"type\": \"landmark\", \"name\": \"english egg\", \"country\": \"United Kingdom\"}"},
    {"route_1", "{\"type\": \"route\", \"airlineid\": \"airline_10\", \"sourceairport\": \"RIX\", \"destinationairport\": \"ARN\","
                " \"stops\": 0, \"airline\": \"Q5\"}"},
    {"route_2", "{\"type\": \"route\", \"airlineid\": \"airline_17\", \"sourceairport\": \"RIX\", \"destinationairport\": \"CPH\","
                " \"stops\": 1, \"airline\": \"AA\"}"},
    {"route_3", "{\"type\": \"route\", \"airlineid\": \"airline_10\", \"sourceairport\": \"LHR\", \"destinationairport\": \"RIX\","
                " \"stops\": 0, \"airline\": \"Q5\"}"},
    {"airport_1", "{\"type\": \"airport\", \"country\": \"France\", \"geo\": {\"alt\": 400}, \"tz\": \"Europe/Paris\"}"},
    {"airport_2", "{\"type\": \"airport\", \"country\": \"France\", \"geo\": {\"alt\": 300}, \"tz\": \"Europe/Paris\"}"},
    {"airport_3", "{\"type\": \"airport\", \"country\": \"France\", \"geo\": {\"alt\": 100}, \"tz\": \"Europe/Paris\"}"},
    {"airport_4", "{\"type\": \"airport\", \"country\": \"United Kingdom\", \"geo\": {\"alt\": 350}, \"tz\": \"Europe/London\"}"},
    {"airport_5", "{\"type\": \"airport\", \"country\": \"United States\", \"geo\": {\"alt\": 456}, \"tz\": \"America/Anchorage\"}"},
    {"airport_6", "{\"type\": \"airport\", \"country\": \"United States\", \"geo\": {\"alt\": 600}, \"tz\": \"America/Chicago\"}"},
    {"airport_7", "{\"type\": \"airport\", \"country\": \"United States\", \"geo\": {\"alt\": 700}, \"tz\": \"America/Chicago\"}"},
    {"airport_8", "{\"type\": \"airport\", \"country\": \"United States\", \"geo\": {\"alt\": 200}, \"tz\": \"America/Chicago\"}"},
    {"airport_9", "{\"type\": \"airport\", \"country\": \"United States\", \"geo\": {\"alt\": 5431}, \"tz\": \"America/Denver\"}"},
    {"user_1", "{\"type\": \"user\", \"first\": \"Armani\", \"last\": \"Langworth\"}"},
    {"user_2", "{\"type\": \"user\", \"first\": \"Bob\", \"username\": \"Armani\"}"},
    {"user_3", "{\"type\": \"user\", \"first\": \"Carol\", \"last\": \"Armand\"}"},
};
#define TRAVEL_SAMPLE_OTHER_COUNT (sizeof travel_sample_others / sizeof travel_sample_others[0])

/* Live documents in the default collection of "travel-sample" (one more was deleted). */
#define TRAVEL_SAMPLE_LIVE_COUNT (TRAVEL_SAMPLE_HOTEL_COUNT + TRAVEL_SAMPLE_OTHER_COUNT)

/* Saves the first `count` hotels into `collection`. */
static inline void travel_sample_save_hotels(CBLCollection* collection, size_t count) {
    for (size_t i = 0; i < count && i < TRAVEL_SAMPLE_HOTEL_COUNT; i++)
        save_json(collection, travel_sample_hotels[i][0], travel_sample_hotels[i][1]);
}

/* Opens the database "travel-sample" in `directory` and fills its default
   collection: the hotels, everything else, and the hotel "gone", deleted. */
static inline CBLDatabase* travel_sample_open(const char* directory) {
    CBLError err = {0};
    CBLDatabase* db = open_database(directory, "travel-sample");
    if (!db) return NULL;
    CBLCollection* collection = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(collection != NULL, err);
    if (!collection) return db;
    travel_sample_save_hotels(collection, TRAVEL_SAMPLE_HOTEL_COUNT);
    for (size_t i = 0; i < TRAVEL_SAMPLE_OTHER_COUNT; i++)
        save_json(collection, travel_sample_others[i][0], travel_sample_others[i][1]);

    CBLDocument* gone = CBLDocument_CreateWithID("gone", &err);
    CHECK_OK(gone != NULL, err);
    CHECK_OK(gone && CBLDocument_SetJSON(gone, "{\"type\": \"hotel\", \"name\": \"Deleted Hotel\"}", &err), err);
    CHECK_OK(gone && CBLCollection_SaveDocument(collection, gone, &err), err);
    CBL_Release(gone);
    const CBLDocument* saved = CBLCollection_GetDocument(collection, "gone", &err);
    CHECK_OK(saved != NULL, err);
    CHECK_OK(saved && CBLCollection_DeleteDocument(collection, saved, &err), err);
    CBL_Release(saved);
    CHECK(CBLCollection_Count(collection) == TRAVEL_SAMPLE_LIVE_COUNT);
    CBL_Release(collection);
    return db;
}

/* ---- Checking results ------------------------------------------------------ */

static inline int travel_sample_compare_strings(const void* a, const void* b) {
    return strcmp(*(char* const*)a, *(char* const*)b);
}

/* Compares the `count` collected strings (freed here) with `expected`
   (`expectedCount` of them), sorted first when `sorted` is true. */
static inline void travel_sample_compare_(const char* file, int line, char** got, size_t count,
                                          const char* const* expected, size_t expectedCount, bool sorted) {
    if (sorted) qsort(got, count, sizeof *got, travel_sample_compare_strings);
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

static inline char* travel_sample_strdup(const char* s) {
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
            rows[count++] = travel_sample_strdup(string ? string : json ? json : "(missing)");
        } else {
            char* json = CBLResultSet_CreateRowDictJSON(rs);
            rows[count++] = travel_sample_strdup(json ? json : "(NULL)");
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
    travel_sample_check_column_(__FILE__, __LINE__, (query), (key), (sorted),                      \
                                (const char* const[]){__VA_ARGS__},                                \
                                sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void travel_sample_check_column_(const char* file, int line, CBLQuery* query, const char* key, bool sorted,
                                               const char* const* expected, size_t expectedCount) {
    size_t count;
    char** got = collect_rows(query, key, &count);
    travel_sample_compare_(file, line, got, count, expected, expectedCount, sorted);
}

/* Runs `query`; every row as CBLResultSet_CreateRowDictJSON must be `expected`,
   in order, or in any order when `sorted` (then `expected` is sorted). */
#define CHECK_ROWS(query, sorted, ...)                                                              \
    travel_sample_check_rows_(__FILE__, __LINE__, (query), (sorted),                               \
                              (const char* const[]){__VA_ARGS__},                                  \
                              sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void travel_sample_check_rows_(const char* file, int line, CBLQuery* query, bool sorted,
                                             const char* const* expected, size_t expectedCount) {
    size_t count;
    char** got = collect_rows(query, NULL, &count);
    travel_sample_compare_(file, line, got, count, expected, expectedCount, sorted);
}

/* The number of rows `query` returns (-1 when it fails). */
static inline long travel_sample_row_count(CBLQuery* query) {
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
    travel_sample_check_column_names_(__FILE__, __LINE__, (query),                                 \
                                      (const char* const[]){__VA_ARGS__},                          \
                                      sizeof((const char* const[]){__VA_ARGS__}) / sizeof(const char*))

static inline void travel_sample_check_column_names_(const char* file, int line, CBLQuery* query,
                                                     const char* const* expected, size_t expectedCount) {
    size_t count = query ? CBLQuery_ColumnCount(query) : 0;
    char** got = malloc((count ? count : 1) * sizeof *got);
    for (size_t i = 0; i < count; i++) {
        const char* name = CBLQuery_ColumnName(query, (unsigned)i);
        got[i] = travel_sample_strdup(name ? name : "(NULL)");
    }
    travel_sample_compare_(file, line, got, count, expected, expectedCount, false);
}

/* The string member `key` of the flat JSON object `json` (as DocLite writes it:
   "key":"value", no spaces), owned (free()); NULL when absent or not a string. */
static inline char* json_string_member(const char* json, const char* key) {
    if (!json) return NULL;
    char pattern[128];
    snprintf(pattern, sizeof pattern, "\"%s\":\"", key);
    const char* at = strstr(json, pattern);
    if (!at) return NULL;
    at += strlen(pattern);
    const char* end = at;
    while (*end && *end != '"') end += (*end == '\\' && end[1]) ? 2 : 1;
    char* value = malloc((size_t)(end - at) + 1);
    if (!value) return NULL;
    memcpy(value, at, (size_t)(end - at));
    value[end - at] = 0;
    return value;
}

/* `text`, or "(null)" for printing a missing string. */
static inline const char* text_or_null(const char* text) { return text ? text : "(null)"; }

#endif
