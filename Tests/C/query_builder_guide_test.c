/* The Objective-C QueryBuilder guide of Couchbase Lite: every
   Objective-C example written in C with the query builder by handle
   (CBLQuery*_ of doclite.h), run against a travel-sample-shaped database
   (travel_sample_fixture.h) and checked against what the guide documents:
   result keys and column titles, the dictionary of SelectResult.all keyed by
   its data source's name, `$1` for an unnamed count, ordering, LIMIT/OFFSET.

   Where the guide writes `[CBLQueryDataSource collection:collection]`, the
   collection is the default collection of "travel-sample" (or, from Example 15
   on, the "hotels" collection the examples create). In Couchbase Lite 3 the
   dictionary of `[CBLQuerySelectResult all]` from a collection is keyed by the
   collection's name ("_default", "hotels"); the guide's printed result formats
   show "travel-sample" because they were made with the older
   `[CBLQueryDataSource database:db]`, which is checked as well (Example 3).

   Not written: the Predictive Query examples (an ImageClassifierModel, its
   registration, value and predictive indexes on `prediction(...)`, the
   prediction query, CBLCoreMLPredictiveModel): they need Couchbase Lite
   Enterprise's prediction API and Core ML, which DocLite has no counterpart
   for. The Date/Time Functions section has no Objective-C example. */
#include "travel_sample_fixture.h"

#define P(name) CBLQueryExpression_Property(name)
#define S(text) CBLQueryExpression_String(text)

static CBLDatabase* database;
static CBLCollection* collection;   /* the default collection of "travel-sample" */
static CBLCollection* hotels;       /* the collection "hotels" of Examples 15-27 */

/* Example 2: SELECT all FROM collection. Example 3: each row is one dictionary. */
static void example_02_select_all(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                             CBLQueryDataSource_Collection(collection),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "_default");

    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    size_t rows = 0, airlines = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        CHECK(CBLResultSet_TypeAtIndex(rs, 0) == kCBLValueDict);
        const char* doc = CBLResultSet_JSONForKey(rs, "_default");
        char* type = json_string_member(doc, "type");
        if (type && strcmp(type, "airline") == 0) {
            char* name = json_string_member(doc, "name");
            if (name && strcmp(name, "40-Mile Air") == 0) {
                CHECK_STR(doc, "{\"callsign\":\"MILE-AIR\",\"country\":\"United States\",\"iata\":\"Q5\",\"icao\":\"MLA\","
                               "\"id\":10,\"name\":\"40-Mile Air\",\"type\":\"airline\"}");
                airlines++;
            } else {
                CHECK_STR(doc, "{\"callsign\":\"ALASKAN-AIR\",\"country\":\"United States\",\"iata\":\"AA\",\"icao\":\"AAA\","
                               "\"id\":10,\"name\":\"Alaskan Airways\",\"type\":\"airline\"}");
                airlines++;
            }
            free(name);
        }
        free(type);
    }
    CHECK(err.code == 0);
    CHECK(rows == TRAVEL_SAMPLE_LIVE_COUNT);   /* the deleted document is not read */
    CHECK(airlines == 2);
    CBL_Release(rs);
    CBL_Release(query);

    /* Example 3 as printed: with the database as data source the key is the database name. */
    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                   CBLQueryDataSource_Database(database), NULL, 0,
                                   CBLQueryExpression_EqualTo(P("type"), S("airline")),
                                   NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "travel-sample");
    CHECK_ROWS(query, true,
               "{\"travel-sample\":{\"callsign\":\"ALASKAN-AIR\",\"country\":\"United States\",\"iata\":\"AA\",\"icao\":\"AAA\","
               "\"id\":10,\"name\":\"Alaskan Airways\",\"type\":\"airline\"}}",
               "{\"travel-sample\":{\"callsign\":\"MILE-AIR\",\"country\":\"United States\",\"iata\":\"Q5\",\"icao\":\"MLA\","
               "\"id\":10,\"name\":\"40-Mile Air\",\"type\":\"airline\"}}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 4: Meta.id as "id", type and name; Example 5: one key per select result. */
static void example_04_select_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* metaId = CBLQuerySelectResult_ExpressionAs(CBLQueryMeta_ID(NULL), "id");
    CBLQuerySelectResult* type = CBLQuerySelectResult_Property("type");
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){metaId, type, name}, 3, false,
                                             CBLQueryDataSource_Collection(collection),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "type", "name");

    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    size_t rows = 0, documented = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        const char* docId = CBLResultSet_StringForKey(rs, "id");     /* "document id :: %@" */
        const char* docName = CBLResultSet_StringForKey(rs, "name"); /* "document name :: %@" */
        CHECK(docId != NULL);
        char* row = CBLResultSet_CreateRowDictJSON(rs);
        if (docId && strcmp(docId, "hotel123") == 0) {
            CHECK_STR(docName, "Hotel Ghia");
            CHECK_STR(row, "{\"id\":\"hotel123\",\"name\":\"Hotel Ghia\",\"type\":\"hotel\"}");
            documented++;
        } else if (docId && strcmp(docId, "hotel456") == 0) {
            CHECK_STR(docName, "Hotel Deluxe");
            CHECK_STR(row, "{\"id\":\"hotel456\",\"name\":\"Hotel Deluxe\",\"type\":\"hotel\"}");
            documented++;
        } else if (docId && strcmp(docId, "route_1") == 0) {
            CHECK(docName == NULL);   /* a route has no name: MISSING, left out of the row */
            CHECK_STR(row, "{\"id\":\"route_1\",\"type\":\"route\"}");
        }
        CBL_FreeString(row);
    }
    CHECK(err.code == 0);
    CHECK(rows == TRAVEL_SAMPLE_LIVE_COUNT);
    CHECK(documented == 2);
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Comparison operators: WHERE type = "hotel", LIMIT 10, reading the document dictionary. */
static void example_where_equal_to(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                                             NULL, 0, NULL, NULL, 0,
                                             CBLQueryLimit_Limit(CBLQueryExpression_Int(10)), &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    char* names[16];
    size_t count = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        /* The guide reads [result valueForKey:@"travel-sample"]: that key is the
           database source's; from a collection it is the collection's name. */
        CHECK(CBLResultSet_TypeForKey(rs, "travel-sample") == kCBLValueMissing);
        const char* dict = CBLResultSet_JSONForKey(rs, "_default");
        char* name = json_string_member(dict, "name");   /* "document name :: %@" */
        CHECK(name != NULL);
        if (name && count < 16) names[count++] = name; else free(name);
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    char** got = malloc(sizeof(char*) * (count ? count : 1));
    memcpy(got, names, sizeof(char*) * count);
    test_compare_(__FILE__, __LINE__, got, count,
                           (const char* const[]){"Ambleside Inn", "Auberge", "Charlemont Arms", "Cresta Court",
                                                 "Hotel Deluxe", "Hotel Ghia", "Queensberry Arms", "Summer Isles Hotel"},
                           8, true);
    CBL_Release(query);

    /* The limit is applied: LIMIT 3 of the 8 hotels. */
    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                   CBLQueryDataSource_Collection(collection), NULL, 0,
                                   CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                                   NULL, 0, NULL, NULL, 0,
                                   CBLQueryLimit_Limit(CBLQueryExpression_Int(3)), &err);
    CHECK_OK(query != NULL, err);
    CHECK(test_row_count(query) == 3);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* CONTAINS: ArrayFunction.contains(public_likes, "Armani Langworth") among the hotels. */
static void example_array_contains(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQuerySelectResult* likes = CBLQuerySelectResult_Property("public_likes");

    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("hotel"));
    CBLQueryExpression* contains = CBLQueryArrayFunction_Contains(P("public_likes"), S("Armani Langworth"));

    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){id, name, likes}, 3, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_And(type, contains),
                                             NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "name", "public_likes");
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    int rows = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        CHECK(CBLResultSet_TypeForKey(rs, "public_likes") == kCBLValueArray);   /* "public_likes :: %@" */
        CHECK_STR(CBLResultSet_JSONForKey(rs, "public_likes"),
                  "[\"Armani Langworth\",\"Elfrieda Gutkowski\",\"Maureen Ruecker\"]");
        CHECK_STR(CBLResultSet_StringForKey(rs, "id"), "hotel123");
        CHECK_STR(CBLResultSet_StringForKey(rs, "name"), "Hotel Ghia");
    }
    CHECK(err.code == 0);
    CHECK(rows == 1);   /* landmark_4 likes "Armani Langworth" too, but is no hotel */
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* IN: "Armani" equal to first, last or username. */
static void example_in(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryExpression* values[] = {P("first"), P("last"), P("username")};
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_In(S("Armani"), values, 3),
                                             NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_ROWS(query, true,
               "{\"_default\":{\"first\":\"Armani\",\"last\":\"Langworth\",\"type\":\"user\"}}",
               "{\"_default\":{\"first\":\"Bob\",\"type\":\"user\",\"username\":\"Armani\"}}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* SELECT Meta.id, country, name FROM collection WHERE type = "landmark" AND `like`, with an optional limit. */
static CBLQuery* landmarks_where(CBLQueryExpression* like, CBLQueryLimit* limit) {
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* country = CBLQuerySelectResult_Property("country");
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("landmark"));
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){id, country, name}, 3, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_And(type, like),
                                             NULL, 0, NULL, NULL, 0, limit, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "country", "name");
    return query;
}

/* Examples 7-9: LIKE, case-insensitive through lower(), and its wildcards. */
static void examples_07_to_09_like(void) {
    uint64_t start = CBL_InstanceCount();

    /* Example 7: lower(name) LIKE "royal engineers museum". */
    CBLQuery* query = landmarks_where(
        CBLQueryExpression_Like(CBLQueryFunction_Lower(P("name")), S("royal engineers museum")), NULL);
    CHECK_COLUMN(query, "name", true, "Royal Engineers Museum", "royal engineers museum");   /* "name property :: %@" */
    CHECK_COLUMN(query, "id", true, "landmark_1", "landmark_6");
    CBL_Release(query);
    /* LIKE itself is case-sensitive. */
    query = landmarks_where(CBLQueryExpression_Like(P("name"), S("royal engineers museum")), NULL);
    CHECK_COLUMN(query, "id", true, "landmark_6");
    CBL_Release(query);

    /* Example 8: lower(name) LIKE "eng%e%", LIMIT 10. */
    query = landmarks_where(CBLQueryExpression_Like(CBLQueryFunction_Lower(P("name")), S("eng%e%")),
                            CBLQueryLimit_Limit(CBLQueryExpression_Int(10)));
    CHECK_COLUMN(query, "name", true, "Engine Shed", "Engineer", "England Eagle", "engineer", "english egg");
    CHECK_COLUMN(query, "id", true, "landmark_2", "landmark_3", "landmark_5", "landmark_7", "landmark_8");
    CBL_Release(query);

    /* Example 9: name LIKE "eng____r", LIMIT 10: "eng", four characters, "r" (case-sensitive). */
    query = landmarks_where(CBLQueryExpression_Like(P("name"), S("eng____r")),
                            CBLQueryLimit_Limit(CBLQueryExpression_Int(10)));
    CHECK_ROWS(query, false, "{\"country\":\"Canada\",\"id\":\"landmark_5\",\"name\":\"engineer\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 10: regex "\bEng.*e\b", LIMIT 10. */
static void example_10_regex(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("landmark"));
    CBLQueryExpression* regex = CBLQueryExpression_Regex(P("name"), S("\\bEng.*e\\b"));
    CBLQueryLimit* limit = CBLQueryLimit_Limit(CBLQueryExpression_Int(10));
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){id, name}, 2, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_And(type, regex),
                                             NULL, 0, NULL, NULL, 0, limit, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "name");
    /* Case-sensitive, on word boundaries: not "Engineer" (no "e" ending a word), not "english egg". */
    CHECK_ROWS(query, true,
               "{\"id\":\"landmark_3\",\"name\":\"England Eagle\"}",
               "{\"id\":\"landmark_7\",\"name\":\"Engine Shed\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 11: the deleted documents. */
static void example_11_deleted(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))}, 1, false,
        CBLQueryDataSource_Collection(collection), NULL, 0,
        CBLQueryMeta_IsDeleted(NULL),
        NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id");
    CHECK_COLUMN(query, "id", false, "gone");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 12: routes from RIX joined with their airlines. */
static void example_12_join(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* name = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("name", "airline"));
    CBLQuerySelectResult* callsign = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("callsign", "airline"));
    CBLQuerySelectResult* dest = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("destinationairport", "route"));
    CBLQuerySelectResult* stops = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("stops", "route"));
    CBLQuerySelectResult* airline = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("airline", "route"));

    CBLQueryJoin* join = CBLQueryJoin_Join(CBLQueryDataSource_CollectionAs(collection, "route"),
                                           CBLQueryExpression_EqualTo(CBLQueryMeta_ID("airline"),
                                                                      CBLQueryExpression_PropertyFrom("airlineid", "route")));

    CBLQueryExpression* typeRoute = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "route"), S("route"));
    CBLQueryExpression* typeAirline = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "airline"), S("airline"));
    CBLQueryExpression* sourceRIX = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("sourceairport", "route"), S("RIX"));

    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){name, callsign, dest, stops, airline}, 5, false,
                                             CBLQueryDataSource_CollectionAs(collection, "airline"),
                                             (CBLQueryJoin*[]){join}, 1,
                                             CBLQueryExpression_And(CBLQueryExpression_And(typeRoute, typeAirline), sourceRIX),
                                             NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "name", "callsign", "destinationairport", "stops", "airline");
    CHECK_ROWS(query, true,
               "{\"airline\":\"AA\",\"callsign\":\"ALASKAN-AIR\",\"destinationairport\":\"CPH\",\"name\":\"Alaskan Airways\",\"stops\":1}",
               "{\"airline\":\"Q5\",\"callsign\":\"MILE-AIR\",\"destinationairport\":\"ARN\",\"name\":\"40-Mile Air\",\"stops\":0}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 13: airports at 300 ft or higher counted by country and timezone; the count is `$1`. */
static void example_13_group_by(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* count = CBLQuerySelectResult_Expression(CBLQueryFunction_Count(CBLQueryExpression_All(NULL)));
    CBLQuerySelectResult* country = CBLQuerySelectResult_Property("country");
    CBLQuerySelectResult* tz = CBLQuerySelectResult_Property("tz");

    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("airport"));
    CBLQueryExpression* geoAlt = CBLQueryExpression_GreaterThanOrEqualTo(P("geo.alt"), CBLQueryExpression_Int(300));

    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){count, country, tz}, 3, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_And(type, geoAlt),
                                             (CBLQueryExpression*[]){P("country"), P("tz")}, 2,
                                             NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "$1", "country", "tz");

    /* The guide's output lines, with this fixture's counts. */
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    char** lines = malloc(sizeof(char*) * 16);
    size_t n = 0;
    while (rs && CBLResultSet_Next(rs, &err) && n < 16) {
        CHECK(CBLResultSet_TypeForKey(rs, "$1") == kCBLValueInteger);
        char line[256];
        snprintf(line, sizeof line, "There are %lld airports on the %s timezone located in %s and above 300 ft",
                 (long long)CBLResultSet_IntForKey(rs, "$1"), text_or_null(CBLResultSet_StringForKey(rs, "tz")),
                 text_or_null(CBLResultSet_StringForKey(rs, "country")));
        lines[n++] = test_strdup(line);
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    test_compare_(__FILE__, __LINE__, lines, n, (const char* const[]){
        "There are 1 airports on the America/Anchorage timezone located in United States and above 300 ft",
        "There are 1 airports on the America/Denver timezone located in United States and above 300 ft",
        "There are 1 airports on the Europe/London timezone located in United Kingdom and above 300 ft",
        "There are 2 airports on the America/Chicago timezone located in United States and above 300 ft",
        "There are 2 airports on the Europe/Paris timezone located in France and above 300 ft"}, 5, true);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 14: the hotels ordered by title. */
static void example_14_order_by(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* title = CBLQuerySelectResult_Property("title");
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){id, title}, 2, false,
                                             CBLQueryDataSource_Collection(collection), NULL, 0,
                                             CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                                             NULL, 0, NULL,
                                             (CBLQueryOrdering*[]){CBLQueryOrdering_Descending(P("title"))}, 1,
                                             NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "title");
    /* The code orders descending, so the guide's list comes out reversed... */
    CHECK_COLUMN(query, "title", false, "Avignon", "Armagh", "Ard\xc3\xa8" "che", "Annan", "Ambleside", "Altrincham",
                 "Achiltibuie", "Aberdyfi");
    CHECK_COLUMN(query, "id", false, "hotel123", "hotel890", "hotel789", "hotel678", "hotel567", "hotel345",
                 "hotel234", "hotel456");
    CBL_Release(query);

    /* ...and the guide's printed output is the ascending order its text describes. */
    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)),
                                                             CBLQuerySelectResult_Property("title")}, 2, false,
                                   CBLQueryDataSource_Collection(collection), NULL, 0,
                                   CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                                   NULL, 0, NULL,
                                   (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("title"))}, 1,
                                   NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "title", false, "Aberdyfi", "Achiltibuie", "Altrincham", "Ambleside", "Annan",
                 "Ard\xc3\xa8" "che", "Armagh", "Avignon");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 15-17: all properties of the "hotels" collection, each row's dictionary read at index 0. */
static void examples_15_to_17_all_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                             CBLQueryDataSource_Collection(hotels),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "hotels");

    CBLResultSet* results = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(results != NULL, err);
    char** ids = malloc(sizeof(char*) * 16);
    size_t n = 0;
    while (results && CBLResultSet_Next(results, &err) && n < 16) {
        CHECK(CBLResultSet_TypeAtIndex(results, 0) == kCBLValueDict);
        const char* data = CBLResultSet_JSONAtIndex(results, 0);
        const char* byName = CBLResultSet_JSONForKey(results, "hotels");
        CHECK(data && byName && strcmp(data, byName) == 0);
        char* docId = json_string_member(data, "id");
        char* name = json_string_member(data, "name");
        char* type = json_string_member(data, "type");
        char* city = json_string_member(data, "city");
        CHECK(docId && name && city);
        CHECK_STR(type, "hotel");
        if (docId && strcmp(docId, "hotel456") == 0) {
            CHECK_STR(name, "Hotel Deluxe");
            CHECK_STR(city, "Aberdyfi");
        }
        ids[n++] = docId ? docId : test_strdup("(none)");
        free(name);
        free(type);
        free(city);
    }
    CHECK(err.code == 0);
    CBL_Release(results);
    test_compare_(__FILE__, __LINE__, ids, n, (const char* const[]){
        "hotel123", "hotel234", "hotel345", "hotel456", "hotel567", "hotel789"}, 6, true);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 18-20: Meta.id, type, name and city of the "hotels" collection, read by key. */
static void examples_18_to_20_specific_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* type = CBLQuerySelectResult_Property("type");
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQuerySelectResult* city = CBLQuerySelectResult_Property("city");
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){id, type, name, city}, 4, false,
                                             CBLQueryDataSource_Collection(hotels),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id", "type", "name", "city");

    CBLResultSet* results = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(results != NULL, err);
    int rows = 0;
    while (results && CBLResultSet_Next(results, &err)) {   /* all results */
        rows++;
        CHECK(CBLResultSet_StringForKey(results, "id") != NULL);
        CHECK(CBLResultSet_StringForKey(results, "name") != NULL);
        CHECK_STR(CBLResultSet_StringForKey(results, "type"), "hotel");
        CHECK(CBLResultSet_StringForKey(results, "city") != NULL);
        const char* first = CBLResultSet_StringAtIndex(results, 0);
        const char* byKey = CBLResultSet_StringForKey(results, "id");
        CHECK(first && byKey && strcmp(first, byKey) == 0);
    }
    CHECK(err.code == 0 && rows == 6);
    CBL_Release(results);
    /* Example 19: one key-value pair per selected property. */
    CHECK_ROWS(query, true,
               "{\"city\":\"Aberdyfi\",\"id\":\"hotel456\",\"name\":\"Hotel Deluxe\",\"type\":\"hotel\"}",
               "{\"city\":\"Achiltibuie\",\"id\":\"hotel234\",\"name\":\"Summer Isles Hotel\",\"type\":\"hotel\"}",
               "{\"city\":\"Altrincham\",\"id\":\"hotel345\",\"name\":\"Cresta Court\",\"type\":\"hotel\"}",
               "{\"city\":\"Ambleside\",\"id\":\"hotel567\",\"name\":\"Ambleside Inn\",\"type\":\"hotel\"}",
               "{\"city\":\"Avignon\",\"id\":\"hotel123\",\"name\":\"Hotel Ghia\",\"type\":\"hotel\"}",
               "{\"city\":\"Lyon\",\"id\":\"hotel789\",\"name\":\"Auberge\",\"type\":\"hotel\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 21-23: document IDs only, then each document by its ID. */
static void examples_21_to_23_document_ids(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* selectResult = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){selectResult}, 1, false,
                                             CBLQueryDataSource_Collection(hotels),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "id");

    CBLResultSet* results = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(results != NULL, err);
    int found = 0;
    while (results && CBLResultSet_Next(results, &err)) {
        char* row = CBLResultSet_CreateRowDictJSON(results);   /* Example 22: {"id": "hotel123"} */
        const char* docId = CBLResultSet_StringForKey(results, "id");
        char expected[64];
        snprintf(expected, sizeof expected, "{\"id\":\"%s\"}", docId ? docId : "?");
        CHECK_STR(row, expected);
        CBL_FreeString(row);
        /* Now you can get the document using its ID. */
        CBLError docErr = {0};
        const CBLDocument* doc = docId ? CBLCollection_GetDocument(hotels, docId, &docErr) : NULL;
        CHECK_OK(doc != NULL, docErr);
        if (doc) {
            found++;
            CHECK_STR(CBLDocument_ID(doc), docId);
            char* json = CBLDocument_CreateJSON(doc);
            char* idProperty = json_string_member(json, "id");
            CHECK_STR(idProperty, docId);
            free(idProperty);
            CBL_FreeString(json);
            CBL_Release(doc);
        }
    }
    CHECK(err.code == 0 && found == 6);
    CBL_Release(results);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 24-26: a count only, aliased "myCount". */
static void examples_24_to_26_count(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryExpression* countExpression = CBLQueryFunction_Count(CBLQueryExpression_All(NULL));
    CBLQuerySelectResult* selectResult = CBLQuerySelectResult_ExpressionAs(countExpression, "myCount");
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){selectResult}, 1, false,
                                             CBLQueryDataSource_Collection(hotels),
                                             NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN_NAMES(query, "myCount");
    CBLResultSet* results = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(results != NULL, err);
    int64_t count = -1;
    int rows = 0;
    while (results && CBLResultSet_Next(results, &err)) {
        rows++;
        count = CBLResultSet_IntForKey(results, "myCount");
        /* Example 25: the key-value pair (the guide prints it "mycount"; the key is the alias as written). */
        char* row = CBLResultSet_CreateRowDictJSON(results);
        CHECK_STR(row, "{\"myCount\":6}");
        CBL_FreeString(row);
    }
    CHECK(err.code == 0 && rows == 1);
    CHECK(count == 6);
    CBL_Release(results);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 27: pagination, LIMIT limit OFFSET offset, page after page. */
static void example_27_pagination(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* everything = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                                  CBLQueryDataSource_Collection(collection),
                                                  NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(everything != NULL, err);
    size_t total = 0;
    char** all = collect_rows(everything, NULL, &total);
    CHECK(total == TRAVEL_SAMPLE_LIVE_COUNT);
    CBL_Release(everything);

    int limit = 20;
    size_t seen = 0;
    for (int offset = 0; offset <= 40; offset += limit) {
        CBLQueryLimit* queryLimit = CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(limit),
                                                              CBLQueryExpression_Int(offset));
        CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                                 CBLQueryDataSource_Collection(collection),
                                                 NULL, 0,
                                                 NULL,          /* where */
                                                 NULL, 0,       /* groupBy */
                                                 NULL,          /* having */
                                                 NULL, 0,       /* orderBy */
                                                 queryLimit, &err);
        CHECK_OK(query != NULL, err);
        size_t count = 0;
        char** page = collect_rows(query, NULL, &count);
        /* 33 documents: pages of 20, 13 and none. */
        CHECK(count == (offset == 0 ? 20u : offset == 20 ? 13u : 0u));
        for (size_t i = 0; i < count && seen + i < total; i++) CHECK_STR(page[i], all[seen + i]);
        seen += count;
        free_rows(page, count);
        CBL_Release(query);
    }
    CHECK(seen == total);
    free_rows(all, total);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 28: each result as JSON: {collection-name: {...}} for all properties, {key: value…} for some. */
static void example_28_json_results(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                             CBLQueryDataSource_Collection(hotels), NULL, 0,
                                             CBLQueryExpression_EqualTo(CBLQueryMeta_ID(NULL), S("hotel456")),
                                             NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    int rows = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        char* json = CBLResultSet_CreateRowDictJSON(rs);   /* [result toJSON] */
        CHECK_STR(json, "{\"hotels\":{\"city\":\"Aberdyfi\",\"country\":\"United Kingdom\",\"id\":\"hotel456\","
                        "\"name\":\"Hotel Deluxe\",\"public_likes\":[\"Maureen Ruecker\"],\"title\":\"Aberdyfi\",\"type\":\"hotel\"}}");
        CBL_FreeString(json);
    }
    CHECK(err.code == 0 && rows == 1);
    CBL_Release(rs);
    CBL_Release(query);

    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name"),
                                                             CBLQuerySelectResult_Property("city")}, 2, false,
                                   CBLQueryDataSource_Collection(hotels), NULL, 0,
                                   CBLQueryExpression_EqualTo(CBLQueryMeta_ID(NULL), S("hotel456")),
                                   NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_ROWS(query, false, "{\"city\":\"Aberdyfi\",\"name\":\"Hotel Deluxe\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

int main(void) {
    const char* dir = test_directory("query_builder_guide");
    uint64_t start = CBL_InstanceCount();
    database = travel_sample_open(dir);
    CBLError err = {0};
    collection = database ? CBLDatabase_DefaultCollection(database, &err) : NULL;
    CHECK_OK(collection != NULL, err);
    /* [database createCollectionWithName:@"hotels" scope:nil error:&error] */
    hotels = database ? CBLDatabase_CreateCollection(database, "hotels", NULL, &err) : NULL;
    CHECK_OK(hotels != NULL, err);
    if (hotels) travel_sample_save_hotels(hotels, TRAVEL_SAMPLE_HOTELS_STORE_COUNT);

    if (collection && hotels) {
        example_02_select_all();
        example_04_select_properties();
        example_where_equal_to();
        example_array_contains();
        example_in();
        examples_07_to_09_like();
        example_10_regex();
        example_11_deleted();
        example_12_join();
        example_13_group_by();
        example_14_order_by();
        examples_15_to_17_all_properties();
        examples_18_to_20_specific_properties();
        examples_21_to_23_document_ids();
        examples_24_to_26_count();
        example_27_pagination();
        example_28_json_results();
    }

    CBL_Release(hotels);
    CBL_Release(collection);
    if (database) close_database(database);
    CHECK(CBL_InstanceCount() == start);
    return test_finish("query_builder_guide_test");
}
