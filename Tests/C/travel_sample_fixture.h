/* A small travel-sample-shaped database for the C tests of the Objective-C
 * QueryBuilder guides (query_builder_guide_test.c, result_set_guide_test.c),
 * modelled on the Swift fixture of QueryBuilderGuideTests: airlines, hotels,
 * landmarks, routes, airports, users and one deleted document, saved into the
 * default collection of a database named "travel-sample". */
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
