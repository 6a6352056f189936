/* The Objective-C QueryBuilder guide with its Result Sets section
   (Couchbase Lite 2.x, `[CBLQueryDataSource database:db]`): every Objective-C
   example written in C, built step by step (CBLQueryBuilder_New, _Select,
   _From, _Join, _Where, _GroupBy, _OrderBy, _Limit, _Build), run against the
   travel-sample-shaped database of travel_sample_fixture.h and checked against
   what the guide documents: SelectResult.all keyed by the database's name,
   one key per select result, `id` for Meta.id, `$1` for an unnamed count,
   ordering, LIMIT/OFFSET.

   `[CBLQueryDataSource database:database]` is CBLQueryDataSource_Database of
   "travel-sample" (its default collection, keyed "travel-sample"). The Result
   Sets examples (13-25) open `[[CBLDatabase alloc] initWithName:@"hotels"]`:
   here a second database "hotels" whose default collection holds six hotels.

   Not written: Example 5 has no code in the seed (only its source link); its
   query is written from its prose (Meta.id, type and name) and checked against
   Example 6. The Date/Time Functions section has no Objective-C example. */
#include "travel_sample_fixture.h"

#define P(name) CBLQueryExpression_Property(name)
#define S(text) CBLQueryExpression_String(text)

static CBLDatabase* database;       /* "travel-sample" */
static CBLCollection* collection;   /* its default collection */
static CBLDatabase* db;             /* "hotels", Examples 13-25 */

/* Builds the query of `builder` (released here). */
static CBLQuery* build(CBLQueryBuilder* builder) {
    CBLError err = {0};
    CBLQuery* query = CBLQueryBuilder_Build(builder, &err);
    CHECK_OK(query != NULL, err);
    CBL_Release(builder);
    return query;
}

/* Example 2: a value index on type and name. */
static void example_02_index(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    /* [CBLValueIndexItem property:@"type"], [CBLValueIndexItem property:@"name"] */
    CBLValueIndexConfiguration index = {kCBLJSONLanguage, "[[\".type\"], [\".name\"]]", NULL};
    CHECK_OK(CBLCollection_CreateValueIndex(collection, "TypeNameIndex", index, &err), err);
    char* names = CBLCollection_GetIndexNames(collection, &err);
    CHECK_STR(names, "[\"TypeNameIndex\"]");
    CBL_FreeString(names);

    /* A query on type and name uses it. */
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                                                          CBLQueryExpression_EqualTo(P("name"), S("Hotel Ghia"))));
    CBLQuery* query = build(builder);
    char* plan = query ? CBLQuery_Explain(query, &err) : NULL;
    CHECK_OK(plan != NULL, err);
    CHECK(plan && strstr(plan, "USING INDEX") != NULL);   /* the only index of the collection */
    CBL_FreeString(plan);
    CHECK_COLUMN(query, "id", false, "hotel123");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 3: SELECT all FROM database. Example 4: each row keyed by the database name. */
static void example_03_select_all(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "travel-sample");

    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    size_t rows = 0, airlines = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        CHECK(CBLResultSet_TypeForKey(rs, "travel-sample") == kCBLValueDict);
        const char* doc = CBLResultSet_JSONForKey(rs, "travel-sample");
        char* name = json_string_member(doc, "name");
        if (name && strcmp(name, "40-Mile Air") == 0) {
            CHECK_STR(doc, "{\"callsign\":\"MILE-AIR\",\"country\":\"United States\",\"iata\":\"Q5\",\"icao\":\"MLA\","
                           "\"id\":10,\"name\":\"40-Mile Air\",\"type\":\"airline\"}");
            airlines++;
        } else if (name && strcmp(name, "Alaskan Airways") == 0) {
            CHECK_STR(doc, "{\"callsign\":\"ALASKAN-AIR\",\"country\":\"United States\",\"iata\":\"AA\",\"icao\":\"AAA\","
                           "\"id\":10,\"name\":\"Alaskan Airways\",\"type\":\"airline\"}");
            airlines++;
        }
        free(name);
    }
    CHECK(err.code == 0);
    CHECK(rows == TRAVEL_SAMPLE_LIVE_COUNT);
    CHECK(airlines == 2);
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 5 (no code in the seed): Meta.id, type and name, of the two documents Example 6 prints
   (hence the WHERE on their IDs). Example 6: one key per select result. */
static void example_05_select_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("type"));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("name"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_In(CBLQueryMeta_ID(NULL),
                                                         (CBLQueryExpression*[]){S("hotel123"), S("hotel456")}, 2));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "id", "type", "name");
    CHECK_ROWS(query, true,
               "{\"id\":\"hotel123\",\"name\":\"Hotel Ghia\",\"type\":\"hotel\"}",
               "{\"id\":\"hotel456\",\"name\":\"Hotel Deluxe\",\"type\":\"hotel\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Comparison operators: WHERE type = "hotel", LIMIT 10, [result valueForKey:@"travel-sample"]. */
static void example_where_equal_to(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_EqualTo(P("type"), S("hotel")));
    CBLQueryBuilder_Limit(builder, CBLQueryLimit_Limit(CBLQueryExpression_Int(10)));
    CBLQuery* query = build(builder);

    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    char** names = malloc(sizeof(char*) * 16);
    size_t n = 0;
    while (rs && CBLResultSet_Next(rs, &err) && n < 16) {
        const char* dict = CBLResultSet_JSONForKey(rs, "travel-sample");
        char* name = json_string_member(dict, "name");   /* "document name :: %@" */
        names[n++] = name ? name : test_strdup("(none)");
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    test_compare_(__FILE__, __LINE__, names, n,
                           (const char* const[]){"Ambleside Inn", "Auberge", "Charlemont Arms", "Cresta Court",
                                                 "Hotel Deluxe", "Hotel Ghia", "Queensberry Arms", "Summer Isles Hotel"},
                           8, true);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* CONTAINS: hotels whose public_likes contain "Armani Langworth". */
static void example_array_contains(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("name"));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("public_likes"));
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("hotel"));
    CBLQueryExpression* contains = CBLQueryArrayFunction_Contains(P("public_likes"), S("Armani Langworth"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(type, contains));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "id", "name", "public_likes");

    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    int rows = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        CHECK_STR(CBLResultSet_JSONForKey(rs, "public_likes"),   /* "public_likes :: %@" */
                  "[\"Armani Langworth\",\"Elfrieda Gutkowski\",\"Maureen Ruecker\"]");
        CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "hotel123");
    }
    CHECK(err.code == 0 && rows == 1);
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* IN: "Armani" equal to first, last or username. */
static void example_in(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryExpression* values[] = {P("first"), P("last"), P("username")};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_In(S("Armani"), values, 3));
    CBLQuery* query = build(builder);
    CHECK_ROWS(query, true,
               "{\"travel-sample\":{\"first\":\"Armani\",\"last\":\"Langworth\",\"type\":\"user\"}}",
               "{\"travel-sample\":{\"first\":\"Bob\",\"type\":\"user\",\"username\":\"Armani\"}}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* SELECT Meta.id, country, name FROM database WHERE type = "landmark" AND `like` [LIMIT 10]. */
static CBLQuery* landmarks_where(CBLQueryExpression* like, bool limit) {
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("country"));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("name"));
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("landmark"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(type, like));
    if (limit) CBLQueryBuilder_Limit(builder, CBLQueryLimit_Limit(CBLQueryExpression_Int(10)));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "id", "country", "name");
    return query;
}

/* Example 7 and the wildcard examples: LIKE. */
static void example_07_like(void) {
    uint64_t start = CBL_InstanceCount();
    /* Example 7: case-insensitive matching through lower(). */
    CBLQuery* query = landmarks_where(
        CBLQueryExpression_Like(CBLQueryFunction_Lower(P("name")), S("royal engineers museum")), false);
    CHECK_COLUMN(query, "name", true, "Royal Engineers Museum", "royal engineers museum");
    CBL_Release(query);

    /* Wildcard match: lower(name) LIKE "eng%e%", LIMIT 10. */
    query = landmarks_where(CBLQueryExpression_Like(CBLQueryFunction_Lower(P("name")), S("eng%e%")), true);
    CHECK_COLUMN(query, "name", true, "Engine Shed", "Engineer", "England Eagle", "engineer", "english egg");
    CBL_Release(query);

    /* Wildcard character match: name LIKE "eng____r", LIMIT 10 (case-sensitive: not "Engineer"). */
    query = landmarks_where(CBLQueryExpression_Like(P("name"), S("eng____r")), true);
    CHECK_ROWS(query, false, "{\"country\":\"Canada\",\"id\":\"landmark_5\",\"name\":\"engineer\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 8: regex "\bEng.*e\b", LIMIT 10. */
static void example_08_regex(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("name"));
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("landmark"));
    CBLQueryExpression* regex = CBLQueryExpression_Regex(P("name"), S("\\bEng.*e\\b"));
    CBLQueryLimit* limit = CBLQueryLimit_Limit(CBLQueryExpression_Int(10));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(type, regex));
    CBLQueryBuilder_Limit(builder, limit);
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "id", "name");
    CHECK_ROWS(query, true,
               "{\"id\":\"landmark_3\",\"name\":\"England Eagle\"}",
               "{\"id\":\"landmark_7\",\"name\":\"Engine Shed\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 9: the deleted documents. */
static void example_09_deleted(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryMeta_IsDeleted(NULL));
    CBLQuery* query = build(builder);
    CHECK_ROWS(query, false, "{\"id\":\"gone\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 10: routes from RIX joined with their airlines. */
static void example_10_join(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQuerySelectResult* name = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("name", "airline"));
    CBLQuerySelectResult* callsign = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("callsign", "airline"));
    CBLQuerySelectResult* dest = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("destinationairport", "route"));
    CBLQuerySelectResult* stops = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("stops", "route"));
    CBLQuerySelectResult* airline = CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("airline", "route"));

    CBLQueryJoin* join = CBLQueryJoin_Join(CBLQueryDataSource_DatabaseAs(database, "route"),
                                           CBLQueryExpression_EqualTo(CBLQueryMeta_ID("airline"),
                                                                      CBLQueryExpression_PropertyFrom("airlineid", "route")));

    CBLQueryExpression* typeRoute = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "route"), S("route"));
    CBLQueryExpression* typeAirline = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "airline"), S("airline"));
    CBLQueryExpression* sourceRIX = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("sourceairport", "route"), S("RIX"));

    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, name);
    CBLQueryBuilder_Select(builder, callsign);
    CBLQueryBuilder_Select(builder, dest);
    CBLQueryBuilder_Select(builder, stops);
    CBLQueryBuilder_Select(builder, airline);
    CBLQueryBuilder_From(builder, CBLQueryDataSource_DatabaseAs(database, "airline"));
    CBLQueryBuilder_Join(builder, join);
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(CBLQueryExpression_And(typeRoute, typeAirline), sourceRIX));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "name", "callsign", "destinationairport", "stops", "airline");
    CHECK_ROWS(query, true,
               "{\"airline\":\"AA\",\"callsign\":\"ALASKAN-AIR\",\"destinationairport\":\"CPH\",\"name\":\"Alaskan Airways\",\"stops\":1}",
               "{\"airline\":\"Q5\",\"callsign\":\"MILE-AIR\",\"destinationairport\":\"ARN\",\"name\":\"40-Mile Air\",\"stops\":0}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 11: airports at 300 ft or higher counted by country and timezone; the count is `$1`. */
static void example_11_group_by(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQuerySelectResult* count = CBLQuerySelectResult_Expression(CBLQueryFunction_Count(CBLQueryExpression_All(NULL)));
    CBLQuerySelectResult* country = CBLQuerySelectResult_Property("country");
    CBLQuerySelectResult* tz = CBLQuerySelectResult_Property("tz");
    CBLQueryExpression* type = CBLQueryExpression_EqualTo(P("type"), S("airport"));
    CBLQueryExpression* geoAlt = CBLQueryExpression_GreaterThanOrEqualTo(P("geo.alt"), CBLQueryExpression_Int(300));

    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, count);
    CBLQueryBuilder_Select(builder, country);
    CBLQueryBuilder_Select(builder, tz);
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_And(type, geoAlt));
    CBLQueryBuilder_GroupBy(builder, P("country"));
    CBLQueryBuilder_GroupBy(builder, P("tz"));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "$1", "country", "tz");
    CHECK_ROWS(query, true,
               "{\"$1\":1,\"country\":\"United Kingdom\",\"tz\":\"Europe/London\"}",
               "{\"$1\":1,\"country\":\"United States\",\"tz\":\"America/Anchorage\"}",
               "{\"$1\":1,\"country\":\"United States\",\"tz\":\"America/Denver\"}",
               "{\"$1\":2,\"country\":\"France\",\"tz\":\"Europe/Paris\"}",
               "{\"$1\":2,\"country\":\"United States\",\"tz\":\"America/Chicago\"}");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 12: the hotels ordered by title (the code says descending; the printed output is ascending). */
static void example_12_order_by(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("title"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_EqualTo(P("type"), S("hotel")));
    CBLQueryBuilder_OrderBy(builder, CBLQueryOrdering_Descending(P("title")));
    CBLQuery* query = build(builder);
    CHECK_COLUMN_NAMES(query, "id", "title");
    CHECK_COLUMN(query, "title", false, "Avignon", "Armagh", "Ard\xc3\xa8" "che", "Annan", "Ambleside", "Altrincham",
                 "Achiltibuie", "Aberdyfi");
    CBL_Release(query);

    builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("title"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(database));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_EqualTo(P("type"), S("hotel")));
    CBLQueryBuilder_OrderBy(builder, CBLQueryOrdering_Ascending(P("title")));
    query = build(builder);
    CHECK_COLUMN(query, "title", false, "Aberdyfi", "Achiltibuie", "Altrincham", "Ambleside", "Annan",
                 "Ard\xc3\xa8" "che", "Armagh", "Avignon");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 13-15: all properties of the "hotels" database; each row's dictionary at index 0. */
static void examples_13_to_15_all_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQuery* listQuery = build(builder);
    CHECK_COLUMN_NAMES(listQuery, "hotels");   /* Example 14: the key is the database name */

    char** matches = malloc(sizeof(char*) * 16);   /* the native array of dictionaries */
    size_t n = 0;
    CBLResultSet* resultset = listQuery ? CBLQuery_Execute(listQuery, &err) : NULL;
    CHECK_OK(resultset != NULL, err);
    while (resultset && CBLResultSet_Next(resultset, &err) && n < 16) {
        const char* match = CBLResultSet_JSONAtIndex(resultset, 0);
        matches[n++] = test_strdup(match ? match : "(NULL)");
        char* id = json_string_member(match, "id");
        char* name = json_string_member(match, "name");
        char* type = json_string_member(match, "type");
        char* city = json_string_member(match, "city");
        CHECK(id && name && city);
        CHECK_STR(type, "hotel");
        free(id);
        free(name);
        free(type);
        free(city);
    }
    CHECK(err.code == 0);
    CBL_Release(resultset);
    test_compare_(__FILE__, __LINE__, matches, n, (const char* const[]){
        "{\"city\":\"Aberdyfi\",\"country\":\"United Kingdom\",\"id\":\"hotel456\",\"name\":\"Hotel Deluxe\","
        "\"public_likes\":[\"Maureen Ruecker\"],\"title\":\"Aberdyfi\",\"type\":\"hotel\"}",
        "{\"city\":\"Achiltibuie\",\"country\":\"United Kingdom\",\"id\":\"hotel234\",\"name\":\"Summer Isles Hotel\","
        "\"title\":\"Achiltibuie\",\"type\":\"hotel\"}",
        "{\"city\":\"Altrincham\",\"country\":\"United Kingdom\",\"id\":\"hotel345\",\"name\":\"Cresta Court\","
        "\"title\":\"Altrincham\",\"type\":\"hotel\"}",
        "{\"city\":\"Ambleside\",\"country\":\"United Kingdom\",\"id\":\"hotel567\",\"name\":\"Ambleside Inn\","
        "\"title\":\"Ambleside\",\"type\":\"hotel\"}",
        "{\"city\":\"Avignon\",\"country\":\"France\",\"id\":\"hotel123\",\"name\":\"Hotel Ghia\","
        "\"public_likes\":[\"Armani Langworth\",\"Elfrieda Gutkowski\",\"Maureen Ruecker\"],\"title\":\"Avignon\",\"type\":\"hotel\"}",
        "{\"city\":\"Lyon\",\"country\":\"France\",\"id\":\"hotel789\",\"name\":\"Auberge\","
        "\"title\":\"Ard\xc3\xa8" "che\",\"type\":\"hotel\"}"}, 6, true);
    CBL_Release(listQuery);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 16-18: Meta.id, type, name and city; each row as a dictionary. */
static void examples_16_to_18_specific_properties(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* id = CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL));
    CBLQuerySelectResult* type = CBLQuerySelectResult_Property("type");
    CBLQuerySelectResult* name = CBLQuerySelectResult_Property("name");
    CBLQuerySelectResult* city = CBLQuerySelectResult_Property("city");
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, id);
    CBLQueryBuilder_Select(builder, type);
    CBLQueryBuilder_Select(builder, name);
    CBLQueryBuilder_Select(builder, city);
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQuery* listQuery = build(builder);
    CHECK_COLUMN_NAMES(listQuery, "id", "type", "name", "city");

    char** matches = malloc(sizeof(char*) * 16);   /* [matches addObject:[result toDictionary]] */
    size_t n = 0;
    CBLResultSet* resultset = listQuery ? CBLQuery_Execute(listQuery, &err) : NULL;
    CHECK_OK(resultset != NULL, err);
    while (resultset && CBLResultSet_Next(resultset, &err) && n < 16) {
        char* dict = CBLResultSet_CreateRowDictJSON(resultset);
        matches[n++] = test_strdup(dict ? dict : "(NULL)");
        CBL_FreeString(dict);
        CHECK(CBLResultSet_StringForKey(resultset, "id") != NULL);
        CHECK(CBLResultSet_StringForKey(resultset, "name") != NULL);
        CHECK_STR(CBLResultSet_StringForKey(resultset, "type"), "hotel");
        CHECK(CBLResultSet_StringForKey(resultset, "city") != NULL);
    }
    CHECK(err.code == 0);
    CBL_Release(resultset);
    /* Example 17: one key-value pair per selected property. */
    test_compare_(__FILE__, __LINE__, matches, n, (const char* const[]){
        "{\"city\":\"Aberdyfi\",\"id\":\"hotel456\",\"name\":\"Hotel Deluxe\",\"type\":\"hotel\"}",
        "{\"city\":\"Achiltibuie\",\"id\":\"hotel234\",\"name\":\"Summer Isles Hotel\",\"type\":\"hotel\"}",
        "{\"city\":\"Altrincham\",\"id\":\"hotel345\",\"name\":\"Cresta Court\",\"type\":\"hotel\"}",
        "{\"city\":\"Ambleside\",\"id\":\"hotel567\",\"name\":\"Ambleside Inn\",\"type\":\"hotel\"}",
        "{\"city\":\"Avignon\",\"id\":\"hotel123\",\"name\":\"Hotel Ghia\",\"type\":\"hotel\"}",
        "{\"city\":\"Lyon\",\"id\":\"hotel789\",\"name\":\"Auberge\",\"type\":\"hotel\"}"}, 6, true);
    CBL_Release(listQuery);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 19-21: document IDs only, then each document by its ID. */
static void examples_19_to_21_document_ids(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQuery* listQuery = build(builder);
    CHECK_COLUMN_NAMES(listQuery, "id");

    CBLCollection* thisDB = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(thisDB != NULL, err);
    char** ids = malloc(sizeof(char*) * 16);
    size_t n = 0;
    CBLResultSet* resultset = listQuery ? CBLQuery_Execute(listQuery, &err) : NULL;
    CHECK_OK(resultset != NULL, err);
    while (resultset && CBLResultSet_Next(resultset, &err) && n < 16) {
        char* match = CBLResultSet_CreateRowDictJSON(resultset);   /* Example 20: {"id": "hotel123"} */
        char* thisDocsId = json_string_member(match, "id");
        char expected[64];
        snprintf(expected, sizeof expected, "{\"id\":\"%s\"}", thisDocsId ? thisDocsId : "?");
        CHECK_STR(match, expected);
        CBL_FreeString(match);
        /* Now you can get the document using its ID. */
        CBLError docErr = {0};
        const CBLDocument* thisDoc = thisDocsId && thisDB ? CBLCollection_GetDocument(thisDB, thisDocsId, &docErr) : NULL;
        CHECK_OK(thisDoc != NULL, docErr);
        if (thisDoc) {
            CHECK_STR(CBLDocument_ID(thisDoc), thisDocsId);
            char* json = CBLDocument_CreateJSON(thisDoc);
            char* name = json_string_member(json, "name");
            CHECK(name != NULL);
            free(name);
            CBL_FreeString(json);
            CBL_Release(thisDoc);
        }
        ids[n++] = thisDocsId ? thisDocsId : test_strdup("(none)");
    }
    CHECK(err.code == 0);
    CBL_Release(resultset);
    CBL_Release(thisDB);
    test_compare_(__FILE__, __LINE__, ids, n, (const char* const[]){
        "hotel123", "hotel234", "hotel345", "hotel456", "hotel567", "hotel789"}, 6, true);
    CBL_Release(listQuery);
    CHECK(CBL_InstanceCount() == start);
}

/* Examples 22-24: a count only. Written without an alias, as in the guide, it is titled `$1`;
   the guide's "mycount" (Examples 23, 24) is the title only with SelectResult.as. */
static void examples_22_to_24_count(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuerySelectResult* count = CBLQuerySelectResult_Expression(CBLQueryFunction_Count(CBLQueryExpression_All(NULL)));
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, count);
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQuery* listQuery = build(builder);
    CHECK_COLUMN_NAMES(listQuery, "$1");

    CBLResultSet* resultset = listQuery ? CBLQuery_Execute(listQuery, &err) : NULL;
    CHECK_OK(resultset != NULL, err);
    int rows = 0;
    while (resultset && CBLResultSet_Next(resultset, &err)) {
        rows++;
        char* match = CBLResultSet_CreateRowDictJSON(resultset);
        CHECK_STR(match, "{\"$1\":6}");
        CBL_FreeString(match);
        CHECK(CBLResultSet_IntForKey(resultset, "$1") == 6);
        CHECK(CBLResultSet_IntAtIndex(resultset, 0) == 6);
        CHECK(CBLResultSet_TypeForKey(resultset, "mycount") == kCBLValueMissing);   /* no alias, no "mycount" */
    }
    CHECK(err.code == 0 && rows == 1);
    CBL_Release(resultset);
    CBL_Release(listQuery);

    /* With the alias the guide's text names, the result is its Example 23: {"mycount": 6}. */
    builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_ExpressionAs(CBLQueryFunction_Count(CBLQueryExpression_All(NULL)),
                                                                      "mycount"));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    listQuery = build(builder);
    CHECK_COLUMN_NAMES(listQuery, "mycount");
    resultset = listQuery ? CBLQuery_Execute(listQuery, &err) : NULL;
    CHECK_OK(resultset != NULL, err);
    rows = 0;
    while (resultset && CBLResultSet_Next(resultset, &err)) {
        rows++;
        char* match = CBLResultSet_CreateRowDictJSON(resultset);
        CHECK_STR(match, "{\"mycount\":6}");
        CBL_FreeString(match);
        int64_t thisCount = CBLResultSet_IntForKey(resultset, "mycount");   /* [match intForKey:@"mycount"] */
        CHECK(thisCount == 6);
    }
    CHECK(err.code == 0 && rows == 1);
    CBL_Release(resultset);
    CBL_Release(listQuery);
    CHECK(CBL_InstanceCount() == start);
}

/* Example 25: pagination, LIMIT thisLimit OFFSET thisOffset; then page after page with parameters. */
static void example_25_pagination(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err = {0};
    int thisOffset = 0;
    int thisLimit = 20;
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQueryBuilder_Limit(builder, CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(thisLimit),
                                                             CBLQueryExpression_Int(thisOffset)));
    CBLQuery* listQuery = build(builder);
    size_t total = 0;
    char** all = collect_rows(listQuery, NULL, &total);
    CHECK(total == 6);   /* at most 20 from 0: the six hotels */
    CBL_Release(listQuery);

    /* The same query with the limit and offset as parameters, run a page of 4 at a time. */
    builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_All(NULL));
    CBLQueryBuilder_From(builder, CBLQueryDataSource_Database(db));
    CBLQueryBuilder_Limit(builder, CBLQueryLimit_LimitOffset(CBLQueryExpression_Parameter("limit"),
                                                             CBLQueryExpression_Parameter("offset")));
    listQuery = build(builder);
    size_t seen = 0;
    for (thisOffset = 0; listQuery && thisOffset <= 8; thisOffset += 4) {
        CBLQueryParameters* parameters = CBLQueryParameters_New();
        CBLQueryParameters_SetInt(parameters, "limit", 4);
        CBLQueryParameters_SetInt(parameters, "offset", thisOffset);
        CHECK_OK(CBLQuery_SetQueryParameters(listQuery, parameters, &err), err);
        CBL_Release(parameters);
        size_t count = 0;
        char** page = collect_rows(listQuery, NULL, &count);
        CHECK(count == (thisOffset == 0 ? 4u : thisOffset == 4 ? 2u : 0u));
        for (size_t i = 0; i < count && seen + i < total; i++) CHECK_STR(page[i], all[seen + i]);
        seen += count;
        free_rows(page, count);
    }
    CHECK(seen == total);
    CBL_Release(listQuery);
    free_rows(all, total);
    CHECK(CBL_InstanceCount() == start);
}

int main(void) {
    const char* dir = test_directory("result_set_guide");
    uint64_t start = CBL_InstanceCount();
    database = travel_sample_open(dir);
    CBLError err = {0};
    collection = database ? CBLDatabase_DefaultCollection(database, &err) : NULL;
    CHECK_OK(collection != NULL, err);
    /* [[CBLDatabase alloc] initWithName:@"hotels" error:&error], holding six hotels. */
    db = open_database(dir, "hotels");
    CBLCollection* hotels = db ? CBLDatabase_DefaultCollection(db, &err) : NULL;
    CHECK_OK(hotels != NULL, err);
    if (hotels) travel_sample_save_hotels(hotels, TRAVEL_SAMPLE_HOTELS_STORE_COUNT);
    CBL_Release(hotels);

    if (collection && db) {
        example_02_index();
        example_03_select_all();
        example_05_select_properties();
        example_where_equal_to();
        example_array_contains();
        example_in();
        example_07_like();
        example_08_regex();
        example_09_deleted();
        example_10_join();
        example_11_group_by();
        example_12_order_by();
        examples_13_to_15_all_properties();
        examples_16_to_18_specific_properties();
        examples_19_to_21_document_ids();
        examples_22_to_24_count();
        example_25_pagination();
    }

    CBL_Release(collection);
    if (db) close_database(db);
    if (database) close_database(database);
    CHECK(CBL_InstanceCount() == start);
    return test_finish("result_set_guide_test");
}
