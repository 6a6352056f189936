/* The QueryBuilder by handle: guide-style queries (Objective-C examples of the
   Couchbase Lite guide written in C) built by nested construction without
   naming parts, run and checked row by row; the query's JSON; and misuse
   (NULL, consumed, released and wrong-kind parts) as errors, never crashes.
   Every test checks that CBL_InstanceCount() returns to where it started. */
#include <math.h>

#include "test_support.h"

#define P(name) CBLQueryExpression_Property(name)
#define S(text) CBLQueryExpression_String(text)

static CBLDatabase* database;
static CBLCollection* travel;
static CBLCollection* cities;

static void fill(CBLDatabase* db) {
    CBLError err;
    travel = CBLDatabase_CreateCollection(db, "travel", NULL, &err);
    CHECK_OK(travel != NULL, err);
    cities = CBLDatabase_CreateCollection(db, "cities", NULL, &err);
    CHECK_OK(cities != NULL, err);
    save_json(travel, "hotel_1", "{\"type\": \"hotel\", \"name\": \"Ritz\", \"country\": \"France\", \"city\": \"paris\", \"rooms\": 150}");
    save_json(travel, "hotel_2", "{\"type\": \"hotel\", \"name\": \"Crillon\", \"country\": \"France\", \"city\": \"paris\", \"rooms\": 120}");
    save_json(travel, "hotel_3", "{\"type\": \"hotel\", \"name\": \"Savoy\", \"country\": \"United Kingdom\", \"city\": \"london\", \"rooms\": 260}");
    save_json(travel, "hotel_4", "{\"type\": \"hotel\", \"name\": \"Bristol\", \"country\": \"France\", \"city\": \"nice\"}");
    save_json(travel, "hotel_5", "{\"type\": \"hotel\", \"name\": \"Adlon\", \"country\": \"Germany\", \"city\": \"berlin\", \"rooms\": 380}");
    save_json(travel, "landmark_1", "{\"type\": \"landmark\", \"name\": \"Royal Engineers Museum\", \"country\": \"United Kingdom\"}");
    save_json(travel, "landmark_2", "{\"type\": \"landmark\", \"name\": \"Engine Shed\", \"country\": \"United Kingdom\"}");
    save_json(travel, "landmark_3", "{\"type\": \"landmark\", \"name\": \"Louvre\", \"country\": \"France\"}");
    save_json(cities, "paris", "{\"name\": \"Paris\", \"population\": 2100000}");
    save_json(cities, "london", "{\"name\": \"London\", \"population\": 8900000}");
}

/* SELECT META().id, name FROM travel WHERE type = "hotel" AND country = $country
   ORDER BY name LIMIT 2; then again with another parameter. */
static void test_hotels_by_country(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)),
                                  CBLQuerySelectResult_Property("name")}, 2, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("type"), S("hotel")),
                               CBLQueryExpression_EqualTo(P("country"), CBLQueryExpression_Parameter("country"))),
        NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
        CBLQueryLimit_Limit(CBLQueryExpression_Int(2)), &err);
    CHECK_OK(query != NULL, err);
    CHECK(CBLQuery_ColumnCount(query) == 2);
    CHECK_STR(CBLQuery_ColumnName(query, 0), "id");
    CHECK_STR(CBLQuery_ColumnName(query, 1), "name");

    CHECK_OK(CBLQuery_SetParameters(query, "{\"country\": \"France\"}", &err), err);
    CHECK_COLUMN(query, "name", false, "Bristol", "Crillon");
    CHECK_COLUMN(query, "id", false, "hotel_4", "hotel_2");
    CHECK_OK(CBLQuery_SetParameters(query, "{\"country\": \"Germany\"}", &err), err);
    CHECK_COLUMN(query, "name", false, "Adlon");

    /* The JSON compiles again, through the JSON query API, to the same query. */
    char* json = CBLQuery_CopyJSON(query);
    CHECK(json != NULL && strstr(json, "\"WHERE\"") && strstr(json, "[\"$country\"]") && strstr(json, "\"LIMIT\""));
    int position;
    CBLQuery* copy = CBLDatabase_CreateQuery(database, kCBLJSONLanguage, json, &position, &err);
    CHECK_OK(copy != NULL, err);
    CHECK_OK(CBLQuery_SetParameters(copy, "{\"country\": \"France\"}", &err), err);
    if (copy) CHECK_COLUMN(copy, "name", false, "Bristol", "Crillon");
    CBL_Release(copy);
    char* explain = CBLQuery_Explain(query, &err);
    CHECK_OK(explain != NULL, err);
    CBL_FreeString(explain);
    CBL_FreeString(json);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Landmarks whose lower-cased name is LIKE "eng%e%", with LIMIT and OFFSET, and IN. */
static void test_like_in_offset(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)),
                                  CBLQuerySelectResult_Property("country"),
                                  CBLQuerySelectResult_Property("name")}, 3, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("type"), S("landmark")),
                               CBLQueryExpression_Like(CBLQueryFunction_Lower(P("name")), S("%eng%e%"))),
        NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Descending(P("name"))}, 1,
        CBLQueryLimit_Limit(CBLQueryExpression_Int(10)), &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "name", false, "Royal Engineers Museum", "Engine Shed");
    CBL_Release(query);

    /* WHERE country IN ["Germany", "United Kingdom"] AND rooms BETWEEN 100 AND 300, LIMIT 5 OFFSET 0 */
    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_And(
            CBLQueryExpression_In(P("country"), (CBLQueryExpression*[]){S("Germany"), S("United Kingdom"), S("France")}, 3),
            CBLQueryExpression_Between(P("rooms"), CBLQueryExpression_Int(100), CBLQueryExpression_Multiply(
                CBLQueryExpression_Int(100), CBLQueryExpression_Double(3.0)))),
        NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("rooms"))}, 1,
        CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(5), CBLQueryExpression_Int(1)), &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "name", false, "Ritz", "Savoy");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* SELECT DISTINCT-free aggregates: country, COUNT(*) AS n, GROUP BY country HAVING n > 1. */
static void test_group_by_having(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("country"),
                                  CBLQuerySelectResult_ExpressionAs(CBLQueryFunction_Count(NULL), "n")}, 2, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        NULL,
        (CBLQueryExpression*[]){P("country")}, 1,
        CBLQueryExpression_GreaterThan(CBLQueryFunction_Count(NULL), CBLQueryExpression_Int(1)),
        (CBLQueryOrdering*[]){CBLQueryOrdering_Descending(CBLQueryFunction_Count(NULL))}, 1,
        NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    CHECK(rs && CBLResultSet_Next(rs, &err));
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "France");
    CHECK(CBLResultSet_IntForKey(rs, "n") == 4);
    CHECK(rs && CBLResultSet_Next(rs, &err));
    CHECK_STR(CBLResultSet_StringAtIndex(rs, 0), "United Kingdom");
    CHECK(CBLResultSet_IntForKey(rs, "n") == 3);
    CHECK(!CBLResultSet_Next(rs, &err) && err.code == 0);
    CBL_Release(rs);
    CBL_Release(query);

    /* SELECT DISTINCT country WHERE type = "hotel" ORDER BY country */
    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("country")}, 1, true,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_EqualTo(P("type"), S("hotel")), NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("country"))}, 1, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "country", false, "France", "Germany", "United Kingdom");
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Hotels with their city's name: an inner join and a left join, aliased sources. */
static void test_joins(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("name", "h")),
                                  CBLQuerySelectResult_ExpressionAs(CBLQueryExpression_PropertyFrom("name", "c"), "city")}, 2, false,
        CBLQueryDataSource_CollectionAs(travel, "h"),
        (CBLQueryJoin*[]){CBLQueryJoin_Join(CBLQueryDataSource_CollectionAs(cities, "c"),
                                            CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("city", "h"),
                                                                       CBLQueryMeta_ID("c")))}, 1,
        CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "h"), S("hotel")),
        NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(CBLQueryExpression_PropertyFrom("name", "h"))}, 1,
        NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "name", false, "Crillon", "Ritz", "Savoy");
    CHECK_COLUMN(query, "city", false, "Paris", "Paris", "London");
    CBL_Release(query);

    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("name", "h")),
                                  CBLQuerySelectResult_ExpressionAs(CBLQueryExpression_IsNotValued(
                                      CBLQueryExpression_PropertyFrom("name", "c")), "unknown")}, 2, false,
        CBLQueryDataSource_CollectionAs(travel, "h"),
        (CBLQueryJoin*[]){CBLQueryJoin_LeftJoin(CBLQueryDataSource_CollectionAs(cities, "c"),
                                                CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("city", "h"),
                                                                           CBLQueryMeta_ID("c")))}, 1,
        CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "h"), S("hotel")),
        NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(CBLQueryExpression_PropertyFrom("name", "h"))}, 1,
        NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK_OK(rs != NULL, err);
    int unknown = 0, rows = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        rows++;
        if (CBLResultSet_BoolForKey(rs, "unknown")) unknown++;
    }
    CHECK(rows == 5 && unknown == 2);   /* Adlon (berlin) and Bristol (nice) have no city */
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* No select results: each row is the whole document, keyed by the collection's name. */
static void test_select_all(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_EqualTo(CBLQueryMeta_ID(NULL), S("hotel_5")), NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK(rs && CBLResultSet_Next(rs, &err));
    CHECK(CBLResultSet_TypeForKey(rs, "travel") == kCBLValueDict);
    CHECK(CBLResultSet_JSONForKey(rs, "travel") && strstr(CBLResultSet_JSONForKey(rs, "travel"), "\"Adlon\""));
    CBL_Release(rs);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* The JSON of every part constructor, as Couchbase Lite's Objective-C builder writes it. */
static void test_json_of_every_part(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
#define A(name) CBLQueryExpression_PropertyFrom(name, "a")
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){
            CBLQuerySelectResult_All("a"),
            CBLQuerySelectResult_ExpressionAs(CBLQueryFunction_Upper(A("name")), "u"),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Length(A("name"))),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Sum(CBLQueryExpression_Subtract(A("x"), CBLQueryExpression_Double(1.5)))),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Avg(CBLQueryExpression_Divide(A("x"), CBLQueryExpression_Int(2)))),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Min(CBLQueryExpression_Add(A("x"), CBLQueryExpression_Int(1)))),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Max(CBLQueryMeta_ID("b"))),
            CBLQuerySelectResult_Expression(CBLQueryFunction_Count(NULL)),
            CBLQuerySelectResult_Expression(CBLQueryExpression_All("b"))}, 9, true,
        CBLQueryDataSource_CollectionAs(travel, "a"),
        (CBLQueryJoin*[]){CBLQueryJoin_CrossJoin(CBLQueryDataSource_CollectionAs(travel, "b"))}, 1,
        CBLQueryExpression_Or(
            CBLQueryExpression_Not(CBLQueryExpression_IsValued(A("y"))),
            CBLQueryExpression_And(
                CBLQueryExpression_NotEqualTo(A("z"), CBLQueryExpression_Null()),
                CBLQueryExpression_And(
                    CBLQueryExpression_LessThanOrEqualTo(A("p"), CBLQueryExpression_Bool(true)),
                    CBLQueryExpression_GreaterThanOrEqualTo(A("q"), CBLQueryExpression_LessThan(A("r"), CBLQueryExpression_Int(-3)))))),
        (CBLQueryExpression*[]){A("k")}, 1,
        CBLQueryExpression_GreaterThan(CBLQueryFunction_Count(A("x")), CBLQueryExpression_Int(0)),
        NULL, 0, CBLQueryLimit_LimitOffset(CBLQueryExpression_Parameter("n"), CBLQueryExpression_Int(2)), &err);
#undef A
    CHECK_OK(query != NULL, err);
    char* json = CBLQuery_CopyJSON(query);
    CHECK_STR(json,
        "{\"DISTINCT\":true,\"FROM\":[{\"AS\":\"a\",\"COLLECTION\":\"_default.travel\"},"
        "{\"AS\":\"b\",\"COLLECTION\":\"_default.travel\",\"JOIN\":\"CROSS\"}],"
        "\"GROUP_BY\":[[\".a.k\"]],\"HAVING\":[\">\",[\"COUNT()\",[\".a.x\"]],0],\"LIMIT\":[\"$n\"],\"OFFSET\":2,"
        "\"WHAT\":[[\".a.\"],[\"AS\",[\"UPPER()\",[\".a.name\"]],\"u\"],[\"LENGTH()\",[\".a.name\"]],"
        "[\"SUM()\",[\"-\",[\".a.x\"],1.5]],[\"AVG()\",[\"/\",[\".a.x\"],2]],[\"MIN()\",[\"+\",[\".a.x\"],1]],"
        "[\"MAX()\",[\".b._id\"]],[\"COUNT()\",[\".\"]],[\".b.\"]],"
        "\"WHERE\":[\"OR\",[\"NOT\",[\"IS VALUED\",[\".a.y\"]]],[\"AND\",[\"!=\",[\".a.z\"],null],"
        "[\"AND\",[\"<=\",[\".a.p\"],true],[\">=\",[\".a.q\"],[\"<\",[\".a.r\"],-3]]]]]}");
    CBL_FreeString(json);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

static void test_misuse(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;

    /* A NULL operand: an error part (never NULL), and the builder fails with it. */
    CBLQueryExpression* bad = CBLQueryExpression_EqualTo(NULL, S("hotel"));
    CHECK(bad != NULL);
    check_where_fails(travel, CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("type"), S("hotel")), bad),
                      kCBLErrorInvalidParameter, "left operand of EqualTo is NULL");

    /* A consumed part used again. */
    CBLQueryExpression* name = P("name");
    CBLQueryExpression* first = CBLQueryExpression_EqualTo(name, S("Ritz"));
    CBLQueryExpression* again = CBLQueryExpression_EqualTo(name, S("Savoy"));   /* `name` was consumed */
    CBL_Release(first);
    check_where_fails(travel, again, kCBLErrorInvalidParameter, "not a live handle");

    /* A part from a released handle. */
    CBLQueryExpression* released = P("rooms");
    CBL_Release(released);
    CBLQueryOrdering* ordering = CBLQueryOrdering_Ascending(released);
    CHECK(ordering != NULL);
    CBLQuery* query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0,
                                             NULL, NULL, 0, NULL, &ordering, 1, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "ordering expression is not a live handle");

    /* A part of the wrong kind is an error, and consumed. */
    CBLQuerySelectResult* result = CBLQuerySelectResult_Property("name");
    check_where_fails(travel, (CBLQueryExpression*)result, kCBLErrorInvalidParameter, "is a CBLQuerySelectResult, not a CBLQueryExpression");
    CHECK(CBL_Retain(result) == NULL);

    /* A handle that is not a query part (a collection) is an error, and left to its owner. */
    check_where_fails(travel, (CBLQueryExpression*)travel, kCBLErrorInvalidParameter, "is a CBLCollection");
    CHECK(CBLCollection_Count(travel) == 8);

    /* A part used in two places is retained first. */
    CBLQueryExpression* type = P("type");
    CBL_Retain(type);
    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(type)}, 1, true,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_EqualTo(type, S("landmark")), NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "type", false, "landmark");
    CBL_Release(query);

    /* A NULL data source, a NULL string, a join without ON: every other part is still consumed. */
    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
                                   NULL, NULL, 0, CBLQueryExpression_EqualTo(P("type"), S("hotel")), NULL, 0, NULL,
                                   (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
                                   CBLQueryLimit_Limit(CBLQueryExpression_Int(1)), &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "FROM data source is NULL");
    check_where_fails(travel, CBLQueryExpression_EqualTo(P("name"), CBLQueryExpression_String(NULL)),
                      kCBLErrorInvalidParameter, "string literal is NULL");
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel),
                                   (CBLQueryJoin*[]){CBLQueryJoin_Join(CBLQueryDataSource_CollectionAs(cities, "c"), NULL)}, 1,
                                   NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "ON condition of Join is NULL");
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(NULL), NULL, 0,
                                   NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "collection is NULL");
    query = CBLQueryBuilder_Create(NULL, 2, false, CBLQueryDataSource_Collection(travel), NULL, 0,
                                   NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "array is NULL");

    /* Clauses the builder cannot order, and a query the compiler rejects. */
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0, NULL, NULL, 0,
                                   CBLQueryExpression_Bool(true), NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "HAVING needs GROUP BY");
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0, NULL, NULL, 0,
                                   NULL, NULL, 0, CBLQueryLimit_LimitOffset(NULL, CBLQueryExpression_Int(3)), &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "LIMIT expression is NULL");
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0,
                                   CBLQueryExpression_EqualTo(P("a..b"), CBLQueryExpression_Null()), NULL, 0, NULL,
                                   NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidQuery);

    /* Bad handles elsewhere. */
    CHECK(CBLQuery_CopyJSON(NULL) == NULL);
    CBL_Release(NULL);
    CHECK(CBL_InstanceCount() == start);
}

/* The step-by-step builder: clauses in any order, the same query as CBLQueryBuilder_Create,
   built twice; DISTINCT; its mistakes reported by _Build. */
static void test_step_by_step(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Limit(b, CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(2), CBLQueryExpression_Int(1)));
    CBLQueryBuilder_OrderBy(b, CBLQueryOrdering_Ascending(P("name")));
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("name"));
    CBLQueryBuilder_Where(b, CBLQueryExpression_EqualTo(P("type"), S("hotel")));
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQuery* stepped = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(stepped != NULL, err);
    CBLQuery* again = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(again != NULL, err);
    CBL_Release(b);
    CBLQuery* whole = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)), CBLQuerySelectResult_Property("name")}, 2,
        false, CBLQueryDataSource_Collection(travel), NULL, 0, CBLQueryExpression_EqualTo(P("type"), S("hotel")), NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
        CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(2), CBLQueryExpression_Int(1)), &err);
    CHECK_OK(whole != NULL, err);
    char* steppedJSON = CBLQuery_CopyJSON(stepped);
    char* againJSON = CBLQuery_CopyJSON(again);
    char* wholeJSON = CBLQuery_CopyJSON(whole);
    CHECK_STR(steppedJSON, "{\"FROM\":[{\"COLLECTION\":\"_default.travel\"}],\"LIMIT\":2,\"OFFSET\":1,\"ORDER_BY\":[[\".name\"]],"
                           "\"WHAT\":[[\"._id\"],[\".name\"]],\"WHERE\":[\"=\",[\".type\"],\"hotel\"]}");
    CHECK_STR(againJSON, wholeJSON);
    CHECK_STR(steppedJSON, wholeJSON);
    CHECK_COLUMN(stepped, "name", false, "Bristol", "Crillon");
    CHECK_COLUMN(whole, "id", false, "hotel_4", "hotel_2");
    CBL_FreeString(steppedJSON);
    CBL_FreeString(againJSON);
    CBL_FreeString(wholeJSON);
    CBL_Release(stepped);
    CBL_Release(again);
    CBL_Release(whole);

    /* SELECT DISTINCT country … GROUP BY / HAVING through the steps. */
    b = CBLQueryBuilder_New();
    CBLQueryBuilder_SetDistinct(b, true);
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("country"));
    CBLQueryBuilder_From(b, CBLQueryDataSource_CollectionAs(travel, "t"));
    CBLQueryBuilder_Where(b, CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom("type", "t"), S("hotel")));
    CBLQueryBuilder_OrderBy(b, CBLQueryOrdering_Descending(P("country")));
    CBLQuery* query = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "country", false, "United Kingdom", "Germany", "France");
    CBL_Release(query);
    CBL_Release(b);

    b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("country"));
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_ExpressionAs(CBLQueryFunction_Count(NULL), "n"));
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_GroupBy(b, P("country"));
    CBLQueryBuilder_Having(b, CBLQueryExpression_GreaterThan(CBLQueryFunction_Count(NULL), CBLQueryExpression_Int(2)));
    query = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "country", false, "France", "United Kingdom");
    CBL_Release(query);
    CBL_Release(b);

    /* Joins, one call each. */
    b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Expression(CBLQueryExpression_PropertyFrom("name", "h")));
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_ExpressionAs(CBLQueryExpression_PropertyFrom("population", "c"), "population"));
    CBLQueryBuilder_From(b, CBLQueryDataSource_CollectionAs(travel, "h"));
    CBLQueryBuilder_Join(b, CBLQueryJoin_Join(CBLQueryDataSource_CollectionAs(cities, "c"),
                                              CBLQueryExpression_EqualTo(CBLQueryMeta_ID("c"),
                                                                         CBLQueryExpression_PropertyFrom("city", "h"))));
    CBLQueryBuilder_OrderBy(b, CBLQueryOrdering_Descending(CBLQueryExpression_PropertyFrom("name", "h")));
    query = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "name", false, "Savoy", "Ritz", "Crillon");
    CBL_Release(query);
    CBL_Release(b);

    /* Mistakes: remembered, reported by _Build, every part still consumed. */
    b = CBLQueryBuilder_New();
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_Where(b, CBLQueryExpression_EqualTo(P("type"), S("hotel")));
    CBLQueryBuilder_Where(b, CBLQueryExpression_EqualTo(P("type"), S("landmark")));
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "WHERE expression is given twice");
    CBL_Release(b);

    b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("name"));
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "no FROM");
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_OrderBy(b, NULL);
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "ordering is NULL");
    CBL_Release(b);

    b = CBLQueryBuilder_New();
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_Having(b, CBLQueryExpression_Bool(true));
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "HAVING needs GROUP BY");
    CBL_Release(b);
    b = CBLQueryBuilder_New();
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_Limit(b, CBLQueryLimit_Limit(CBLQueryExpression_Int(1)));
    CBLQueryBuilder_Limit(b, CBLQueryLimit_Limit(S("many")));
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "LIMIT is given twice");
    CBL_Release(b);
    b = CBLQueryBuilder_New();   /* an optional OFFSET, as Objective-C's nullable offset: */
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_OrderBy(b, CBLQueryOrdering_Ascending(CBLQueryMeta_ID(NULL)));
    CBLQueryBuilder_Limit(b, CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(2), NULL));
    query = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(query != NULL, err);
    CHECK_COLUMN(query, "id", false, "hotel_1", "hotel_2");
    CBL_Release(query);
    CBL_Release(b);

    /* A part of the wrong kind, a NULL or released builder: no crash, the part consumed. */
    b = CBLQueryBuilder_New();
    CBLQueryBuilder_From(b, (CBLQueryDataSource*)CBLQueryExpression_Property("oops"));
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "CBLQueryDataSource");
    CBL_Release(b);
    CBLQueryBuilder_Select(NULL, CBLQuerySelectResult_Property("name"));
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(travel));
    CBLQueryBuilder_SetDistinct(b, true);
    CHECK(CBLQueryBuilder_Build(b, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLQueryBuilder_Build(NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "query builder is NULL");
    CHECK(CBL_InstanceCount() == start);
}

/* Typed parameters: every setter, copies, the query's copy, clearing, and mistakes. */
static void test_parameters(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("country"), CBLQueryExpression_Parameter("country")),
                               CBLQueryExpression_GreaterThanOrEqualTo(P("rooms"), CBLQueryExpression_Parameter("rooms"))),
        NULL, 0, NULL, (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
        CBLQueryLimit_Limit(CBLQueryExpression_Parameter("n")), &err);
    CHECK_OK(query != NULL, err);
    CHECK(CBLQuery_CopyParameters(query) == NULL);

    CBLQueryParameters* params = CBLQueryParameters_New();
    CBLQueryParameters_SetString(params, "country", "France");
    CBLQueryParameters_SetInt(params, "rooms", 100);
    CBLQueryParameters_SetInt(params, "n", 5);
    CHECK_OK(CBLQuery_SetQueryParameters(query, params, &err), err);
    CHECK_COLUMN(query, "name", false, "Crillon", "Ritz");
    CBLQueryParameters_SetDouble(params, "rooms", 130.5);   /* the query kept a copy */
    CHECK_COLUMN(query, "name", false, "Crillon", "Ritz");
    CHECK_OK(CBLQuery_SetQueryParameters(query, params, &err), err);
    CHECK_COLUMN(query, "name", false, "Ritz");
    CBLQueryParameters_SetInt(params, "rooms", 0);
    CBLQueryParameters_SetInt(params, "n", 1);
    CHECK_OK(CBLQuery_SetQueryParameters(query, params, &err), err);
    CHECK_COLUMN(query, "name", false, "Crillon");

    CBLQueryParameters* kept = CBLQuery_CopyParameters(query);
    char* json = CBLQueryParameters_CopyJSON(kept);
    CHECK_STR(json, "{\"country\":\"France\",\"n\":1,\"rooms\":0}");
    CBL_FreeString(json);
    CBL_Release(kept);

    /* Every type, as JSON. */
    CBLQueryParameters* typed = CBLQueryParameters_Copy(params);
    CBLQueryParameters_SetFloat(typed, "f", 1.1f);
    CBLQueryParameters_SetBool(typed, "b", true);
    CBLQueryParameters_SetDate(typed, "d", 1704897074000);
    CBLQueryParameters_SetNull(typed, "z");
    CBLQueryParameters_SetJSON(typed, "list", "[1, \"two\", {\"three\": 3}]");
    CBLQueryParameters_SetString(typed, "country", "Germany");
    json = CBLQueryParameters_CopyJSON(typed);
    CHECK_STR(json, "{\"b\":true,\"country\":\"Germany\",\"d\":\"2024-01-10T14:31:14.000Z\",\"f\":1.1,"
                    "\"list\":[1,\"two\",{\"three\":3}],\"n\":1,\"rooms\":0,\"z\":null}");
    CBL_FreeString(json);
    json = CBLQueryParameters_CopyJSON(params);   /* the original is unchanged */
    CHECK_STR(json, "{\"country\":\"France\",\"n\":1,\"rooms\":0}");
    CBL_FreeString(json);
    CHECK_OK(CBLQuery_SetQueryParameters(query, typed, &err), err);   /* values the query does not use */
    CHECK(CBLQuery_Execute(query, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQueryParam, "unknown query parameter 'b'");
    CBL_Release(typed);
    CBLQueryParameters* germany = CBLQueryParameters_Copy(params);
    CBLQueryParameters_SetString(germany, "country", "Germany");
    CHECK_OK(CBLQuery_SetQueryParameters(query, germany, &err), err);
    CHECK_COLUMN(query, "name", false, "Adlon");
    CBL_Release(germany);

    /* Cleared. */
    CHECK_OK(CBLQuery_SetQueryParameters(query, NULL, &err), err);
    CHECK(CBLQuery_CopyParameters(query) == NULL);

    /* Mistakes are remembered and reported when given to a query, which keeps its parameters. */
    CHECK_OK(CBLQuery_SetQueryParameters(query, params, &err), err);
    const char* badNames[] = {"a-b", "", NULL};
    for (size_t i = 0; i < 3; i++) {
        CBLQueryParameters* bad = CBLQueryParameters_Copy(params);
        CBLQueryParameters_SetInt(bad, badNames[i], 1);
        CHECK(!CBLQuery_SetQueryParameters(query, bad, &err));
        CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "parameter name");
        CHECK(CBLQueryParameters_CopyJSON(bad) == NULL);
        CBL_Release(bad);
    }
    CBLQueryParameters* bad = CBLQueryParameters_New();
    CBLQueryParameters_SetDouble(bad, "x", NAN);
    CBLQueryParameters_SetString(bad, "y", "fine");
    CBLQueryParameters* badCopy = CBLQueryParameters_Copy(bad);
    CHECK(!CBLQuery_SetQueryParameters(query, badCopy, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NaN");
    CBL_Release(bad);
    CBL_Release(badCopy);
    bad = CBLQueryParameters_New();
    CBLQueryParameters_SetJSON(bad, "x", "[1,");
    CHECK(!CBLQuery_SetQueryParameters(query, bad, &err));
    CHECK_ERROR(err, kCBLFleeceDomain, kCBLFleeceErrorJSON, "malformed JSON at byte 3");
    CBL_Release(bad);
    bad = CBLQueryParameters_New();
    CBLQueryParameters_SetString(bad, "y", "\xC3\x28");
    CHECK(!CBLQuery_SetQueryParameters(query, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "UTF-8");
    CBL_Release(bad);
    CHECK_COLUMN(query, "name", false, "Crillon");

    /* Bad handles. */
    CBLQueryParameters_SetInt(NULL, "x", 1);
    CHECK(CBLQueryParameters_CopyJSON(NULL) == NULL);
    CBLQueryParameters* orphan = CBLQueryParameters_Copy(NULL);
    CHECK(!CBLQuery_SetQueryParameters(query, orphan, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBL_Release(orphan);
    CHECK(!CBLQuery_SetQueryParameters(query, (CBLQueryParameters*)travel, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "CBLQueryParameters");
    CHECK(!CBLQuery_SetQueryParameters(NULL, params, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLQuery_CopyParameters(NULL) == NULL);
    CBL_Release(params);
    CBL_Release(query);
    CHECK(CBL_InstanceCount() == start);
}

/* Objective-C's [CBLQueryOrdering property:] / expression: (ascending) and
   [… descending], each one line in C too. */
static void test_orderings_as_in_objective_c(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false, CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_EqualTo(P("type"), S("hotel")), NULL, 0, NULL,
        (CBLQueryOrdering*[]){CBLQueryOrdering_Descend(CBLQueryOrdering_Property("country")),
                              CBLQueryOrdering_Expression(CBLQueryFunction_Lower(P("name")))}, 2,
        NULL, &err);
    CHECK_OK(query != NULL, err);
    if (query) CHECK_COLUMN(query, "name", false, "Savoy", "Adlon", "Bristol", "Crillon", "Ritz");
    char* json = query ? CBLQuery_CopyJSON(query) : NULL;
    CHECK(json && strstr(json, "\"ORDER_BY\":[[\"DESC\",[\".country\"]],[\"LOWER()\",[\".name\"]]]"));
    CBL_FreeString(json);
    CBL_Release(query);
    /* Descend of something that is not an ordering is an error part. */
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0, NULL, NULL, 0, NULL,
                                   (CBLQueryOrdering*[]){CBLQueryOrdering_Descend((CBLQueryOrdering*)P("name"))}, 1, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "ordering of Descend");
    CHECK(CBL_InstanceCount() == start);
}

/* NaN, the infinities and out-of-range dates are error parts (kCBLErrorInvalidParameter),
   never null in the JSON or a SQLite syntax error when run. */
static void test_literals_json_cannot_hold(void) {
    uint64_t start = CBL_InstanceCount();
    CBLQueryExpression* literals[] = {CBLQueryExpression_Double(INFINITY), CBLQueryExpression_Double(NAN),
                                      CBLQueryExpression_Float(-INFINITY), CBLQueryExpression_Date(INT64_MAX),
                                      CBLQueryExpression_Date(INT64_MIN)};
    for (size_t i = 0; i < sizeof literals / sizeof literals[0]; i++) {
        CBLError err;
        CBLQuery* query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Collection(travel), NULL, 0,
                                                 CBLQueryExpression_EqualTo(P("rooms"), literals[i]), NULL, 0, NULL, NULL, 0, NULL, &err);
        CHECK(query == NULL);
        CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
        CBL_Release(query);
    }
    CHECK(CBL_InstanceCount() == start);
}

/* SELECT META().id FROM points ORDER BY EUCLIDEAN_DISTANCE(v, [0, 0]), then by
   COSINE_DISTANCE: the distance functions of the builders' table. */
static CBLQueryExpression* distance_from_1_1(int cosine) {
    CBLQueryExpression* target = CBLQueryExpression_Array(
        (CBLQueryExpression*[]){CBLQueryExpression_Int(1), CBLQueryExpression_Int(1)}, 2);
    return cosine ? CBLQueryFunction_CosineDistance(P("v"), target) : CBLQueryFunction_EuclideanDistance(P("v"), target);
}

static void test_vector_distances(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLCollection* points = CBLDatabase_CreateCollection(database, "points", NULL, &err);
    CHECK_OK(points != NULL, err);
    save_json(points, "far", "{\"v\": [10, 10]}");
    save_json(points, "near", "{\"v\": [1, 1]}");
    save_json(points, "axis", "{\"v\": [0, 3]}");
    save_json(points, "none", "{\"v\": \"not a vector\"}");
    for (int cosine = 0; cosine <= 1; cosine++) {
        CBLQuery* query = CBLQueryBuilder_Create(
            (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))}, 1, false,
            CBLQueryDataSource_Collection(points), NULL, 0,
            CBLQueryExpression_IsValued(distance_from_1_1(cosine)), NULL, 0, NULL,
            (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(distance_from_1_1(cosine)),
                                  CBLQueryOrdering_Ascending(CBLQueryMeta_ID(NULL))}, 2, NULL, &err);
        CHECK_OK(query != NULL, err);
        if (cosine) CHECK_COLUMN(query, "id", false, "far", "near", "axis");   /* same angle: 0 */
        else CHECK_COLUMN(query, "id", false, "near", "axis", "far");
        CBL_Release(query);
    }
    CBL_Release(points);
    CHECK(CBL_InstanceCount() == start);
}

int main(void) {
    const char* dir = test_directory("query_builder");
    uint64_t start = CBL_InstanceCount();
    CBLDatabase* db = open_database(dir, "travel");
    database = db;
    fill(db);
    test_hotels_by_country();
    test_like_in_offset();
    test_group_by_having();
    test_joins();
    test_select_all();
    test_json_of_every_part();
    test_misuse();
    test_step_by_step();
    test_parameters();
    test_orderings_as_in_objective_c();
    test_literals_json_cannot_hold();
    test_vector_distances();

    /* A part keeps its collection: the query builds after the caller released every handle. */
    CBLError err;
    CBLQueryDataSource* source = CBLQueryDataSource_Collection(cities);
    CBL_Release(cities);
    CBL_Release(travel);
    CBLQuery* query = CBLQueryBuilder_Create(NULL, 0, false, source, NULL, 0, NULL, NULL, 0, NULL,
                                             (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
                                             NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rs = query ? CBLQuery_Execute(query, &err) : NULL;
    CHECK(rs && CBLResultSet_Next(rs, &err));
    CBL_Release(rs);
    CBL_Release(query);

    close_database(db);
    CHECK(CBL_InstanceCount() == start);
    return test_finish("query_builder_test");
}
