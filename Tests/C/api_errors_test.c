/* Errors a C programmer meets at run time: a deleted collection is
 * kCBLErrorNotOpen everywhere it is named, failures inside DocLite's SQL
 * functions come in DocLite's domain (SQLite's is left for SQLite's own),
 * a collation around LIKE's operand applies, and CBLQueryParameters_SetNull
 * reads as MISSING, as in Couchbase Lite. */
#include "test_support.h"

static CBLQuery* json_query(CBLDatabase* db, const char* json) {
    CBLError err;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage, json, NULL, &err);
    CHECK_OK(query != NULL, err);
    return query;
}

/* The number of rows `query` gives, or -1 with `err` set when it fails. */
static int count_rows(CBLQuery* query, CBLError* err) {
    CBLResultSet* rows = CBLQuery_Execute(query, err);
    if (!rows) return -1;
    int count = 0;
    while (CBLResultSet_Next(rows, err)) count++;
    bool failed = err->code != 0;
    CBL_Release(rows);
    return failed ? -1 : count;
}

/* Runs `query` and checks that it fails with `domain`/`code` and `text`;
   the SQLite domain is never what a misuse reports. */
#define CHECK_RUN_FAILS(query, want_domain, want_code, text) \
    do {                                                    \
        CBLError err_ = poisoned_error();                   \
        CHECK(count_rows((query), &err_) == -1);            \
        CHECK_ERROR(err_, (want_domain), (want_code), (text)); \
        CHECK(err_.domain != kCBLSQLiteDomain);             \
    } while (0)

static void ignore_change(void* context, CBLQuery* query, CBLListenerToken* token) {
    (void)context;
    (void)query;
    (void)token;
}

/* Point 2: every query, result set, listener and index call naming a deleted
   collection fails with kCBLErrorNotOpen, naming it, before any SQL runs. */
static void test_deleted_collection(CBLDatabase* db) {
    CBLError err;
    CBLCollection* hotels = CBLDatabase_CreateCollection(db, "hotels", "travel", &err);
    CHECK_OK(hotels != NULL, err);
    save_json(hotels, "h1", "{\"name\": \"Ritz\"}");

    CBLQuery* by_name = json_query(db, "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"travel.hotels\"}]}");
    CBLQuerySelectResult* what[] = {CBLQuerySelectResult_Property("name")};
    CBLQuery* built = CBLQueryBuilder_Create(what, 1, false, CBLQueryDataSource_Collection(hotels), NULL, 0,
                                             NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(built != NULL, err);
    CHECK(count_rows(by_name, &err) == 1);
    CHECK(count_rows(built, &err) == 1);
    CBLResultSet* open_rows = CBLQuery_Execute(built, &err);
    CHECK_OK(open_rows != NULL, err);

    CHECK_OK(CBLDatabase_DeleteCollection(db, "hotels", "travel", &err), err);

    /* Queries made before the deletion. */
    CHECK_RUN_FAILS(by_name, kCBLDomain, kCBLErrorNotOpen, "collection 'travel.hotels' was deleted");
    CHECK_RUN_FAILS(built, kCBLDomain, kCBLErrorNotOpen, "collection 'travel.hotels' was deleted");
    err = poisoned_error();
    char* plan = CBLQuery_Explain(built, &err);
    CHECK(plan == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "travel.hotels");
    CBL_FreeString(plan);
    err = poisoned_error();
    CBLListenerToken* token = CBLQuery_AddChangeListener(by_name, ignore_change, NULL, &err);
    CHECK(token == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "collection 'travel.hotels' was deleted");
    CBLListener_Remove(token);
    /* A result set opened before reads the snapshot it was opened on. */
    CHECK_OK(CBLResultSet_Next(open_rows, &err), err);
    CBL_Release(open_rows);

    /* A query built on the deleted collection's handle. */
    CBLQuerySelectResult* what2[] = {CBLQuerySelectResult_Property("name")};
    err = poisoned_error();
    CBLQuery* late = CBLQueryBuilder_Create(what2, 1, false, CBLQueryDataSource_Collection(hotels), NULL, 0,
                                            NULL, NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK(late == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "collection 'travel.hotels' was deleted");
    CBL_Release(late);

    /* Index calls on it. */
    CBLValueIndexConfiguration config = {kCBLJSONLanguage, "[[\".name\"]]", NULL};
    err = poisoned_error();
    CHECK(!CBLCollection_CreateValueIndex(hotels, "by_name", config, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorNotOpen, "collection 'travel.hotels' was deleted");

    /* Recreated, the name is a new, empty collection: a new query reads it. */
    CBLCollection* again = CBLDatabase_CreateCollection(db, "hotels", "travel", &err);
    CHECK_OK(again != NULL, err);
    CBLQuery* fresh = json_query(db, "{\"WHAT\": [[\".name\"]], \"FROM\": [{\"COLLECTION\": \"travel.hotels\"}]}");
    CHECK(count_rows(fresh, &err) == 0);
    CBL_Release(fresh);
    CBL_Release(again);

    CBL_Release(by_name);
    CBL_Release(built);
    CBL_Release(hotels);
}

/* Point 3: failures inside DocLite's SQL functions, in DocLite's domain. */
static void test_function_errors_are_doclite_errors(CBLDatabase* db) {
    CBLError err;
    CBLQuery* regex = json_query(db, "{\"WHAT\": [[\"._id\"]], \"WHERE\": [\"REGEXP_LIKE()\", [\".s\"], [\"$p\"]]}");
    CHECK_OK(CBLQuery_SetParameters(regex, "{\"p\": \"a(b\"}", &err), err);
    CHECK_RUN_FAILS(regex, kCBLDomain, kCBLErrorInvalidQuery, "invalid regular expression 'a(b' at offset 3");
    CHECK_OK(CBLQuery_SetParameters(regex, "{\"p\": \"^(a+)+$\"}", &err), err);
    CHECK_RUN_FAILS(regex, kCBLDomain, kCBLErrorInvalidQuery, "regular expression match stopped at PCRE2's limit");
    CHECK_OK(CBLQuery_SetParameters(regex, "{\"p\": \"^a+!$\"}", &err), err);
    CHECK(count_rows(regex, &err) == 1);   /* the statement is still usable */
    CBL_Release(regex);

    CBLQuery* limit = json_query(db, "{\"WHAT\": [[\"._id\"]], \"LIMIT\": [\"$n\"]}");
    CHECK_OK(CBLQuery_SetParameters(limit, "{\"n\": \"three\"}", &err), err);
    CHECK_RUN_FAILS(limit, kCBLDomain, kCBLErrorInvalidQueryParam, "LIMIT must be an integer");
    CHECK_OK(CBLQuery_SetParameters(limit, "{}", &err), err);
    CHECK_RUN_FAILS(limit, kCBLDomain, kCBLErrorInvalidQueryParam, "LIMIT is MISSING or null");
    CBL_Release(limit);

    CBLQuery* power = json_query(db, "{\"WHAT\": [[\"POWER()\", [\".s\"], 2]]}");
    CHECK_RUN_FAILS(power, kCBLDomain, kCBLErrorInvalidQuery, "Invalid numeric value");
    CBL_Release(power);

    /* A query SQLite refuses is an invalid query too, with SQLite's words. */
    CBLQuery* unknown = json_query(db, "{\"WHAT\": [[\".s\"]], \"LIMIT\": [\".s\"]}");
    CHECK_RUN_FAILS(unknown, kCBLDomain, kCBLErrorInvalidQuery, "SQLite cannot run the query: no such column");
    CBL_Release(unknown);
}

/* Point 4: Like(Collate(p), pattern) applies the collation, as Collate(Like(p, pattern)) does. */
static void test_collation_inside_like(CBLDatabase* db) {
    CBLError err;
    CBLQueryExpression* conditions[] = {
        CBLQueryExpression_Like(CBLQueryExpression_Collate(CBLQueryExpression_Property("name"), CBLQueryCollation_ASCII(false)),
                                CBLQueryExpression_String("RIT%")),
        CBLQueryExpression_Collate(CBLQueryExpression_Like(CBLQueryExpression_Property("name"), CBLQueryExpression_String("RIT%")),
                                   CBLQueryCollation_ASCII(false)),
        CBLQueryExpression_Like(CBLQueryExpression_Property("name"),
                                CBLQueryExpression_Collate(CBLQueryExpression_String("RIT%"), CBLQueryCollation_ASCII(false))),
        CBLQueryExpression_Like(CBLQueryExpression_Collate(CBLQueryExpression_Property("name"),
                                                           CBLQueryCollation_Unicode(false, false, NULL)),
                                CBLQueryExpression_String("rîtz")),
    };
    for (size_t i = 0; i < sizeof conditions / sizeof conditions[0]; i++) {
        CBLQuerySelectResult* what[] = {CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))};
        CBLQuery* query = CBLQueryBuilder_Create(what, 1, false, CBLQueryDataSource_Database(db), NULL, 0,
                                                 conditions[i], NULL, 0, NULL, NULL, 0, NULL, &err);
        CHECK_OK(query != NULL, err);
        if (!query) continue;
        if (count_rows(query, &err) != 1) {
            char* json = CBLQuery_CopyJSON(query);
            fprintf(stderr, "condition %zu (%s) should match 'Ritz' once\n", i, json ? json : "?");
            CBL_FreeString(json);
            CHECK(false);
        }
        CBL_Release(query);
    }
    /* Without a collation, LIKE is case-sensitive. */
    CBLQuery* plain = json_query(db, "{\"WHAT\": [[\"._id\"]], \"WHERE\": [\"LIKE\", [\".name\"], \"RIT%\"]}");
    CHECK(count_rows(plain, &err) == 0);
    CBL_Release(plain);
}

/* Point 4: CBLQueryParameters_SetNull sets JSON null, which Couchbase Lite
   leaves unbound (LiteCore's bindParameters): the parameter reads as MISSING. */
static void test_set_null_binds_missing(CBLDatabase* db) {
    CBLError err;
    CBLQuery* query = json_query(db, "{\"WHAT\": [[\"TYPE()\", [\"$v\"]], [\"IS\", [\"$v\"], [\"MISSING\"]]],"
                                     " \"WHERE\": [\"=\", [\"._id\"], \"probe\"]}");
    CBLQueryParameters* parameters = CBLQueryParameters_New();
    CBLQueryParameters_SetNull(parameters, "v");
    char* json = CBLQueryParameters_CopyJSON(parameters);
    CHECK_STR(json, "{\"v\":null}");
    CBL_FreeString(json);
    CHECK_OK(CBLQuery_SetQueryParameters(query, parameters, &err), err);
    CBLResultSet* rows = CBLQuery_Execute(query, &err);
    CHECK_OK(rows != NULL, err);
    CHECK(rows && CBLResultSet_Next(rows, &err));
    char* row = rows ? CBLResultSet_CreateRowArrayJSON(rows) : NULL;
    CHECK_STR(row, "[\"missing\",true]");
    CBL_FreeString(row);
    CBL_Release(rows);
    CBL_Release(parameters);
    CBL_Release(query);
}

int main(void) {
    CBLDatabase* db = open_database(test_directory("api_errors"), "errors");
    CBLError err;
    CBLCollection* collection = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(collection != NULL, err);
    save_json(collection, "probe", "{\"name\": \"Ritz\", \"s\": \"aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa!\"}");

    test_deleted_collection(db);
    test_function_errors_are_doclite_errors(db);
    test_collation_inside_like(db);
    test_set_null_binds_missing(db);

    CBL_Release(collection);
    close_database(db);
    return test_finish("api_errors_test");
}
