/* Expression depth through the C API: for each constructor family, a tree as
   deep as DOCLITE_QUERY_MAX_DEPTH allows builds, writes JSON that CBLDatabase_CreateQuery
   reads back, and runs; one level more is an error part (kCBLErrorInvalidQuery)
   that makes the builder fail; a million levels deep is an error too, not a
   crash, and releasing it frees everything. */
#include "test_support.h"

static CBLDatabase* db;
static CBLCollection* items;

typedef CBLQueryExpression* (*Wrap)(CBLQueryExpression*);

static CBLQueryExpression* wrap_not(CBLQueryExpression* e) { return CBLQueryExpression_Not(e); }
static CBLQueryExpression* wrap_add(CBLQueryExpression* e) { return CBLQueryExpression_Add(CBLQueryExpression_Int(1), e); }
static CBLQueryExpression* wrap_lower(CBLQueryExpression* e) { return CBLQueryFunction_Lower(e); }
static CBLQueryExpression* wrap_array(CBLQueryExpression* e) { return CBLQueryExpression_Array((CBLQueryExpression*[]){e}, 1); }

static CBLQueryExpression* wrap_power(CBLQueryExpression* e) { return CBLQueryFunction_Power(CBLQueryExpression_Int(1), e); }
static CBLQueryExpression* wrap_between(CBLQueryExpression* e) {
    return CBLQueryExpression_Between(CBLQueryExpression_Int(1), CBLQueryExpression_Int(0), e);
}
static CBLQueryExpression* wrap_collate(CBLQueryExpression* e) { return CBLQueryExpression_Collate(e, CBLQueryCollation_ASCII(false)); }
static CBLQueryExpression* wrap_dictionary(CBLQueryExpression* e) {
    return CBLQueryExpression_Dictionary((const char* const[]){"k"}, (CBLQueryExpression*[]){e}, 1);
}
static CBLQueryExpression* wrap_any(CBLQueryExpression* e) {   /* counts three levels */
    return CBLQueryArrayExpression_Any(CBLQueryArrayExpression_Variable("v"), CBLQueryExpression_Property("tags"), e);
}

static const struct { const char* name; Wrap wrap; int levels; } families[] = {
    {"Not", wrap_not, 1}, {"Add", wrap_add, 1}, {"Lower", wrap_lower, 1}, {"Array", wrap_array, 1},
    {"Power", wrap_power, 1}, {"Between", wrap_between, 1}, {"Collate", wrap_collate, 1},
    {"Dictionary", wrap_dictionary, 1}, {"Any", wrap_any, 3}};

/* SELECT e, META().id FROM items ORDER BY e: consumes e. */
static CBLQuery* build(CBLQueryExpression* e, CBLError* err) {
    return CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_ExpressionAs(e, "e"),
                                  CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))}, 2, false,
        CBLQueryDataSource_Collection(items), NULL, 0, NULL, NULL, 0, NULL, NULL, 0, NULL, err);
}

/* `wrap` applied `times` times around a property. */
static CBLQueryExpression* nest(Wrap wrap, long times) {
    CBLQueryExpression* e = CBLQueryExpression_Property("x");
    for (long i = 0; i < times; i++) e = wrap(e);
    return e;
}

static void test_family(const char* name, Wrap wrap, int levels) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    long fits = (DOCLITE_QUERY_MAX_DEPTH - 1) / levels;   /* the deepest nest: one level is the property */

    CBLQuery* query = build(nest(wrap, fits), &err);
    CHECK_OK(query != NULL, err);
    if (query) {
        CHECK(test_row_count(query) == 1);
        char* json = CBLQuery_CopyJSON(query);
        int position = -1;
        CBLQuery* reread = json ? CBLDatabase_CreateQuery(db, kCBLJSONLanguage, json, &position, &err) : NULL;
        CHECK_OK(reread != NULL, err);
        if (reread) CHECK(test_row_count(reread) == 1);
        CBL_Release(reread);
        CBL_FreeString(json);
    }
    CBL_Release(query);

    query = build(nest(wrap, fits + 1), &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "nests deeper than the 16 levels");
    CBL_Release(query);

    /* The snippet: a million levels (fewer under valgrind), then only the outermost part released. */
    long times = (running_under_valgrind() ? 10000 : 1000000) / levels;
    CBLQueryExpression* deep = nest(wrap, times);
    CBL_Release(deep);
    query = build(nest(wrap, times), &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "nests deeper");
    CHECK(CBL_InstanceCount() == start);
    if (CBL_InstanceCount() != start) fprintf(stderr, "%s: instances leaked\n", name);
}

int main(void) {
    db = open_database(test_directory("query_depth"), "depth");
    CBLError err;
    items = db ? CBLDatabase_DefaultCollection(db, &err) : NULL;
    if (!items) {
        fprintf(stderr, "cannot set up the database\n");
        return 1;
    }
    save_json(items, "a", "{\"x\": 1, \"tags\": [1]}");
    for (size_t i = 0; i < sizeof families / sizeof families[0]; i++) {
        test_family(families[i].name, families[i].wrap, families[i].levels);
    }
    CBL_Release(items);
    close_database(db);
    return test_finish("query_depth_test");
}
