/* The QueryBuilder by handle: seed-style queries (Objective-C examples of the
   Couchbase Lite guide written in C) built by nested construction without
   naming parts, run and checked row by row; the query's JSON; and misuse
   (NULL, consumed, released and wrong-kind parts) as errors, never crashes.
   Every test checks that CBL_InstanceCount() returns to where it started. */
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

/* Runs `query` and checks that the column `key` of the rows is `expected` (in order). */
static void check_rows(CBLQuery* query, const char* key, const char* const* expected, size_t count) {
    CBLError err;
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    CHECK_OK(rs != NULL, err);
    size_t row = 0;
    while (rs && CBLResultSet_Next(rs, &err)) {
        CHECK(row < count);
        if (row < count) CHECK_STR(CBLResultSet_StringForKey(rs, key), expected[row]);
        row++;
    }
    CHECK(err.code == 0);
    CHECK(row == count);
    CBL_Release(rs);
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
    check_rows(query, "name", (const char*[]){"Bristol", "Crillon"}, 2);
    check_rows(query, "id", (const char*[]){"hotel_4", "hotel_2"}, 2);
    CHECK_OK(CBLQuery_SetParameters(query, "{\"country\": \"Germany\"}", &err), err);
    check_rows(query, "name", (const char*[]){"Adlon"}, 1);

    /* The JSON compiles again, through the JSON query API, to the same query. */
    char* json = CBLQuery_CopyJSON(query);
    CHECK(json != NULL && strstr(json, "\"WHERE\"") && strstr(json, "[\"$country\"]") && strstr(json, "\"LIMIT\""));
    int position;
    CBLQuery* copy = CBLDatabase_CreateQuery(database, kCBLJSONLanguage, json, &position, &err);
    CHECK_OK(copy != NULL, err);
    CHECK_OK(CBLQuery_SetParameters(copy, "{\"country\": \"France\"}", &err), err);
    if (copy) check_rows(copy, "name", (const char*[]){"Bristol", "Crillon"}, 2);
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
    check_rows(query, "name", (const char*[]){"Royal Engineers Museum", "Engine Shed"}, 2);
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
    check_rows(query, "name", (const char*[]){"Ritz", "Savoy"}, 2);
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
    check_rows(query, "country", (const char*[]){"France", "Germany", "United Kingdom"}, 3);
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
    check_rows(query, "name", (const char*[]){"Crillon", "Ritz", "Savoy"}, 3);
    check_rows(query, "city", (const char*[]){"Paris", "Paris", "London"}, 3);
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

/* Builds with only `where` varying; expects failure with `code` and a message containing `text`. */
static void check_where_fails(CBLQueryExpression* where, int code, const char* text) {
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
        CBLQueryDataSource_Collection(travel), NULL, 0, where, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, code, text);
    CBL_Release(query);
}

static void test_misuse(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;

    /* A NULL operand: an error part (never NULL), and the builder fails with it. */
    CBLQueryExpression* bad = CBLQueryExpression_EqualTo(NULL, S("hotel"));
    CHECK(bad != NULL);
    check_where_fails(CBLQueryExpression_And(CBLQueryExpression_EqualTo(P("type"), S("hotel")), bad),
                      kCBLErrorInvalidParameter, "left operand of EqualTo is NULL");

    /* A consumed part used again. */
    CBLQueryExpression* name = P("name");
    CBLQueryExpression* first = CBLQueryExpression_EqualTo(name, S("Ritz"));
    CBLQueryExpression* again = CBLQueryExpression_EqualTo(name, S("Savoy"));   /* `name` was consumed */
    CBL_Release(first);
    check_where_fails(again, kCBLErrorInvalidParameter, "not a live handle");

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
    check_where_fails((CBLQueryExpression*)result, kCBLErrorInvalidParameter, "is a CBLQuerySelectResult, not a CBLQueryExpression");
    CHECK(CBL_Retain(result) == NULL);

    /* A handle that is not a query part (a collection) is an error, and left to its owner. */
    check_where_fails((CBLQueryExpression*)travel, kCBLErrorInvalidParameter, "is a CBLCollection");
    CHECK(CBLCollection_Count(travel) == 8);

    /* A part used in two places is retained first. */
    CBLQueryExpression* type = P("type");
    CBL_Retain(type);
    query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(type)}, 1, true,
        CBLQueryDataSource_Collection(travel), NULL, 0,
        CBLQueryExpression_EqualTo(type, S("landmark")), NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    check_rows(query, "type", (const char*[]){"landmark"}, 1);
    CBL_Release(query);

    /* A NULL data source, a NULL string, a join without ON: every other part is still consumed. */
    query = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_Property("name")}, 1, false,
                                   NULL, NULL, 0, CBLQueryExpression_EqualTo(P("type"), S("hotel")), NULL, 0, NULL,
                                   (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1,
                                   CBLQueryLimit_Limit(CBLQueryExpression_Int(1)), &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "FROM data source is NULL");
    check_where_fails(CBLQueryExpression_EqualTo(P("name"), CBLQueryExpression_String(NULL)),
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
