/* The QueryBuilder by handle against the JSON query language: each case is
   built through the C API (meta properties, functions, array and dictionary
   literals, ANY / EVERY, collations,
   full-text MATCH / RANK…); its CBLQuery_CopyJSON must equal the expected JSON,
   and its rows must equal those of the same JSON given to CBLDatabase_CreateQuery.
   Then misuse of each new part kind is an error, never a crash. Every test
   checks that CBL_InstanceCount() returns to where it started. */
#include "test_support.h"

#define P(name) CBLQueryExpression_Property(name)
#define S(text) CBLQueryExpression_String(text)
#define I(n) CBLQueryExpression_Int(n)
#define V(name) CBLQueryArrayExpression_Variable(name)
#define SEL(expr) CBLQuerySelectResult_Expression(expr)
#define SELAS(expr, alias) CBLQuerySelectResult_ExpressionAs(expr, alias)
#define ID CBLQueryMeta_ID(NULL)
#define FROM "\"FROM\":[{\"COLLECTION\":\"_default.items\"}]"

static CBLDatabase* database;
static CBLCollection* items;
static int cases;

static void fill(CBLDatabase* db) {
    CBLError err;
    items = CBLDatabase_CreateCollection(db, "items", NULL, &err);
    CHECK_OK(items != NULL, err);
    save_json(items, "a", "{\"name\": \"Apple\", \"n\": 3, \"x\": -2.5, \"text\": \"the quick brown fox jumps\","
                          " \"tags\": [\"red\", \"fruit\"], \"kids\": [{\"age\": 4}, {\"age\": 9}], \"opt\": null,"
                          " \"born\": \"2024-01-10T14:31:14Z\", \"ms\": 1704897074000, \"word\": \"  pad  \", \"city\": \"Z\xc3\xbcrich\"}");
    save_json(items, "b", "{\"name\": \"banana\", \"n\": 4, \"x\": 1.25, \"text\": \"lazy dogs sleep all day\","
                          " \"tags\": [\"yellow\", \"fruit\"], \"kids\": [{\"age\": 12}, {\"age\": 15}],"
                          " \"born\": \"2023-06-01T00:00:00Z\", \"ms\": 0, \"word\": \"x \", \"city\": \"Zurich\"}");
    save_json(items, "c", "{\"name\": \"Cherry\", \"n\": 7, \"x\": 0.5, \"text\": \"a quick red fox and a quick dog\","
                          " \"tags\": [], \"kids\": [], \"born\": \"2025-03-03T10:00:00+02:00\", \"city\": \"zurich\"}");
    save_json(items, "d", "{\"name\": \"apricot\", \"n\": 10, \"x\": 9, \"text\": \"nothing here\", \"tags\": [\"orange\"],"
                          " \"kids\": [{\"age\": 20}], \"city\": \"\xc3\x85ngstr\xc3\xb6m\"}");
    save_json(items, "gone", "{\"name\": \"Ghost\", \"n\": 1}");
    const CBLDocument* gone = CBLCollection_GetDocument(items, "gone", &err);
    CHECK_OK(gone != NULL, err);
    CHECK_OK(gone && CBLCollection_DeleteDocument(items, gone, &err), err);
    CBL_Release(gone);
    CHECK_OK(CBLCollection_SetDocumentExpiration(items, "d", CBL_Now() + 86400000, &err), err);
    CBLFullTextIndexConfiguration config = {kCBLJSONLanguage, "[[\".text\"]]", false, "en", NULL};
    CHECK_OK(CBLCollection_CreateFullTextIndex(items, "textIndex", config, &err), err);
}

/* Checks the built `query` (made with `err`): its JSON is `json`, and it returns
   `rows` rows, the same as `json` compiled by CBLDatabase_CreateQuery; and, when
   `rowsText` is not NULL, those rows (each as a JSON array, one a line). */
static void conform_rows(const char* name, const char* rowsText, CBLQuery* query, CBLError err, const char* json,
                         size_t rows) {
    cases++;
    CHECK_OK(query != NULL, err);
    if (!query) {
        fprintf(stderr, "  in case %s\n", name);
        return;
    }
    char* actual = CBLQuery_CopyJSON(query);
    CHECK_STR(actual, json);
    int position;
    CBLQuery* copy = CBLDatabase_CreateQuery(database, kCBLJSONLanguage, json, &position, &err);
    CHECK_OK(copy != NULL, err);
    size_t builtCount = 0, copyCount = 0;
    char* built = query_rows_text(query, &builtCount, NULL);
    char* expected = copy ? query_rows_text(copy, &copyCount, NULL) : NULL;
    CHECK(builtCount == rows);
    CHECK(copy != NULL && copyCount == rows);
    if (expected) CHECK_STR(built, expected);
    if (rowsText) CHECK_STR(built, rowsText);
    if (getenv("CONFORMANCE_VERBOSE") || builtCount != rows || !expected || strcmp(built, expected) != 0 ||
        !actual || strcmp(actual, json) != 0)
        fprintf(stderr, "  case %s: %s\n%s", name, actual ? actual : "(NULL)", built);
    free(built);
    free(expected);
    CBL_FreeString(actual);
    CBL_Release(copy);
    CBL_Release(query);
}

static void conform(const char* name, CBLQuery* query, CBLError err, const char* json, size_t rows) {
    conform_rows(name, NULL, query, err, json, rows);
}

/* SELECT what FROM items WHERE where ORDER BY order (one ordering or none). */
static CBLQuery* build(CBLQuerySelectResult* const* what, size_t count, CBLQueryExpression* where,
                       CBLQueryOrdering* order, CBLError* err) {
    return CBLQueryBuilder_Create(what, count, false, CBLQueryDataSource_Collection(items), NULL, 0, where, NULL, 0,
                                  NULL, order ? (CBLQueryOrdering*[]){order} : NULL, order ? 1 : 0, NULL, err);
}

#define BY_ID CBLQueryOrdering_Ascending(CBLQueryMeta_ID(NULL))
#define ORDER_ID "\"ORDER_BY\":[[\"._id\"]]"

static void test_meta(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){SEL(ID), SEL(CBLQueryMeta_Sequence(NULL))}, 2,
                        CBLQueryExpression_GreaterThan(CBLQueryMeta_Sequence(NULL), I(0)),
                        CBLQueryOrdering_Descending(CBLQueryMeta_Sequence(NULL)), &err);
    conform("meta_sequence", q, err,
            "{" FROM ",\"ORDER_BY\":[[\"DESC\",[\"._sequence\"]]],\"WHAT\":[[\"._id\"],[\"._sequence\"]],"
            "\"WHERE\":[\">\",[\"._sequence\"],0]}", 4);

    q = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){SEL(CBLQueryMeta_ID("i")), SEL(CBLQueryMeta_RevisionID("i"))}, 2,
                               false, CBLQueryDataSource_CollectionAs(items, "i"), NULL, 0,
                               CBLQueryExpression_EqualTo(CBLQueryMeta_ID("i"), S("a")), NULL, 0, NULL, NULL, 0,
                               NULL, &err);
    conform("meta_revision_id_alias", q, err,
            "{\"FROM\":[{\"AS\":\"i\",\"COLLECTION\":\"_default.items\"}],\"WHAT\":[[\".i._id\"],[\".i._revisionID\"]],"
            "\"WHERE\":[\"=\",[\".i._id\"],\"a\"]}", 1);

    q = build((CBLQuerySelectResult*[]){SEL(ID), SEL(CBLQueryMeta_IsDeleted(NULL))}, 2,
              CBLQueryExpression_EqualTo(CBLQueryMeta_IsDeleted(NULL), CBLQueryExpression_Bool(true)), NULL, &err);
    conform_rows("meta_is_deleted", "[\"gone\",true]\n", q, err,
            "{" FROM ",\"WHAT\":[[\"._id\"],[\"._deleted\"]],\"WHERE\":[\"=\",[\"._deleted\"],true]}", 1);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1, CBLQueryExpression_IsValued(CBLQueryMeta_Expiration(NULL)),
              NULL, &err);
    conform_rows("meta_expiration", "[\"d\"]\n", q, err, "{" FROM ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"IS VALUED\",[\"._expiration\"]]}", 1);
    CHECK(CBL_InstanceCount() == start);
}

static void test_operators(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
                        CBLQueryExpression_Is(P("opt"), CBLQueryExpression_Null()), NULL, &err);
    conform_rows("is_null", "[\"a\"]\n", q, err, "{" FROM ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"IS\",[\".opt\"],null]}", 1);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1, CBLQueryExpression_IsNot(P("name"), S("Apple")), BY_ID, &err);
    conform_rows("is_not", "[\"b\"]\n[\"c\"]\n[\"d\"]\n", q, err, "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"IS NOT\",[\".name\"],\"Apple\"]}", 3);

    q = build((CBLQuerySelectResult*[]){SEL(ID), SELAS(CBLQueryExpression_Modulo(P("n"), I(3)), "m")}, 2,
              CBLQueryExpression_EqualTo(CBLQueryExpression_Modulo(P("n"), I(2)), I(0)), BY_ID, &err);
    conform_rows("modulo", "[\"b\",1]\n[\"d\",1]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"],[\"AS\",[\"%\",[\".n\"],3],\"m\"]],"
            "\"WHERE\":[\"=\",[\"%\",[\".n\"],2],0]}", 2);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1, CBLQueryExpression_Regex(P("name"), S("^[Aa]p")), BY_ID, &err);
    conform_rows("regex", "[\"a\"]\n[\"d\"]\n", q, err, "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"regexp_like()\",[\".name\"],\"^[Aa]p\"]}", 2);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryExpression_Negated(CBLQueryExpression_GreaterThan(P("n"), I(4))), BY_ID, &err);
    conform_rows("negated", "[\"a\"]\n[\"b\"]\n", q, err, "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"NOT\",[\">\",[\".n\"],4]]}", 2);

    q = build((CBLQuerySelectResult*[]){SELAS(CBLQueryExpression_Multiply(P("n"), CBLQueryExpression_Float(1.1f)), "f")}, 1,
              NULL, BY_ID, &err);
    conform("float", q, err, "{" FROM "," ORDER_ID ",\"WHAT\":[[\"AS\",[\"*\",[\".n\"],1.1],\"f\"]]}", 4);

    q = build((CBLQuerySelectResult*[]){SEL(ID), SELAS(CBLQueryFunction_StringToMillis(CBLQueryExpression_Date(1704897074000)), "d")}, 2,
              CBLQueryExpression_LessThan(P("born"), CBLQueryExpression_Date(1704897074000)), NULL, &err);
    conform_rows("date", "[\"b\",1704897074000]\n", q, err,
            "{" FROM ",\"WHAT\":[[\"._id\"],[\"AS\",[\"STR_TO_MILLIS()\",\"2024-01-10T14:31:14.000Z\"],\"d\"]],"
            "\"WHERE\":[\"<\",[\".born\"],\"2024-01-10T14:31:14.000Z\"]}", 1);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryArrayFunction_Contains(CBLQueryExpression_Array((CBLQueryExpression*[]){S("Apple"), S("Cherry"),
                                                                                              CBLQueryExpression_Null()}, 3),
                                             P("name")), BY_ID, &err);
    conform_rows("array_literal", "[\"a\"]\n[\"c\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],"
            "\"WHERE\":[\"ARRAY_CONTAINS()\",[\"[]\",\"Apple\",\"Cherry\",null],[\".name\"]]}", 2);

    q = build((CBLQuerySelectResult*[]){SELAS(CBLQueryExpression_Dictionary((const char*[]){"id", "twice"},
        (CBLQueryExpression*[]){ID, CBLQueryExpression_Multiply(P("n"), I(2))}, 2), "d")}, 1,
              CBLQueryExpression_LessThan(P("n"), I(5)), BY_ID, &err);
    conform_rows("dictionary_literal", "[{\"id\":\"a\",\"twice\":6}]\n[{\"id\":\"b\",\"twice\":8}]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"AS\",{\"id\":[\"._id\"],\"twice\":[\"*\",[\".n\"],2]},\"d\"]],"
            "\"WHERE\":[\"<\",[\".n\"],5]}", 2);
    CHECK(CBL_InstanceCount() == start);
}

/* The default collection through the database's legacy data source. */
static void test_database_source(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLCollection* defaults = CBLDatabase_DefaultCollection(database, &err);
    CHECK_OK(defaults != NULL, err);
    save_json(defaults, "p1", "{\"name\": \"Paris\", \"population\": 2100000}");
    save_json(defaults, "p2", "{\"name\": \"Lyon\", \"population\": 520000}");
    CBL_Release(defaults);
    CBLQuery* q = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){CBLQuerySelectResult_All(NULL)}, 1, false,
                                         CBLQueryDataSource_Database(database), NULL, 0, NULL, NULL, 0, NULL,
                                         (CBLQueryOrdering*[]){CBLQueryOrdering_Ascending(P("name"))}, 1, NULL, &err);
    CHECK_STR(q ? CBLQuery_ColumnName(q, 0) : NULL, "conformance");   /* keyed by the database's name */
    conform("database_source", q, err, "{\"FROM\":[{\"AS\":\"conformance\"}],\"ORDER_BY\":[[\".name\"]],\"WHAT\":[[\".\"]]}", 2);
    q = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){SEL(CBLQueryExpression_PropertyFrom("name", "db"))}, 1, false,
                               CBLQueryDataSource_DatabaseAs(database, "db"), NULL, 0,
                               CBLQueryExpression_GreaterThan(CBLQueryExpression_PropertyFrom("population", "db"), I(1000000)),
                               NULL, 0, NULL, NULL, 0, NULL, &err);
    conform_rows("database_source_alias", "[\"Paris\"]\n", q, err,
            "{\"FROM\":[{\"AS\":\"db\"}],\"WHAT\":[[\".db.name\"]],\"WHERE\":[\">\",[\".db.population\"],1000000]}", 1);
    CHECK(CBL_InstanceCount() == start);
}

static void test_functions(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){
                            SEL(CBLQueryFunction_Abs(P("x"))), SEL(CBLQueryFunction_Ceil(P("x"))),
                            SEL(CBLQueryFunction_Floor(P("x"))), SEL(CBLQueryFunction_Round(P("x"))),
                            SEL(CBLQueryFunction_RoundDigits(P("x"), I(1))), SEL(CBLQueryFunction_Trunc(P("x"))),
                            SEL(CBLQueryFunction_TruncDigits(P("x"), I(1))), SEL(CBLQueryFunction_Sign(P("x")))}, 8,
                        NULL, BY_ID, &err);
    conform("math_rounding", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"ABS()\",[\".x\"]],[\"CEIL()\",[\".x\"]],[\"FLOOR()\",[\".x\"]],"
            "[\"ROUND()\",[\".x\"]],[\"ROUND()\",[\".x\"],1],[\"TRUNC()\",[\".x\"]],[\"TRUNC()\",[\".x\"],1],"
            "[\"SIGN()\",[\".x\"]]]}", 4);

    q = build((CBLQuerySelectResult*[]){
                  SEL(CBLQueryFunction_Sqrt(P("n"))), SEL(CBLQueryFunction_Power(P("n"), I(2))),
                  SEL(CBLQueryFunction_Exp(I(1))), SEL(CBLQueryFunction_Ln(P("n"))), SEL(CBLQueryFunction_Log(P("n"))),
                  SEL(CBLQueryFunction_Pi()), SEL(CBLQueryFunction_E()),
                  SEL(CBLQueryFunction_Degrees(CBLQueryFunction_Pi())), SEL(CBLQueryFunction_Radians(I(180)))}, 9,
              NULL, BY_ID, &err);
    conform("math_powers", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"SQRT()\",[\".n\"]],[\"POWER()\",[\".n\"],2],[\"EXP()\",1],"
            "[\"LN()\",[\".n\"]],[\"LOG()\",[\".n\"]],[\"PI()\"],[\"E()\"],[\"DEGREES()\",[\"PI()\"]],[\"RADIANS()\",180]]}", 4);

    q = build((CBLQuerySelectResult*[]){
                  SEL(CBLQueryFunction_Sin(P("x"))), SEL(CBLQueryFunction_Cos(P("x"))), SEL(CBLQueryFunction_Tan(P("x"))),
                  SEL(CBLQueryFunction_Asin(CBLQueryExpression_Double(0.5))),
                  SEL(CBLQueryFunction_Acos(CBLQueryExpression_Double(0.5))), SEL(CBLQueryFunction_Atan(P("x"))),
                  SEL(CBLQueryFunction_Atan2(P("n"), P("x")))}, 7,
              NULL, BY_ID, &err);
    conform("math_trigonometry", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"SIN()\",[\".x\"]],[\"COS()\",[\".x\"]],[\"TAN()\",[\".x\"]],"
            "[\"ASIN()\",0.5],[\"ACOS()\",0.5],[\"ATAN()\",[\".x\"]],[\"ATAN2()\",[\".n\"],[\".x\"]]]}", 4);

    q = build((CBLQuerySelectResult*[]){
                  SEL(ID), SELAS(CBLQueryFunction_Trim(P("word")), "t"), SELAS(CBLQueryFunction_Ltrim(P("word")), "l"),
                  SELAS(CBLQueryFunction_Rtrim(P("word")), "r")}, 4,
              CBLQueryFunction_Contains(P("text"), S("quick")), BY_ID, &err);
    conform_rows("strings", "[\"a\",\"pad\",\"pad  \",\"  pad\"]\n[\"c\",null,null,null]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"],[\"AS\",[\"TRIM()\",[\".word\"]],\"t\"],"
            "[\"AS\",[\"LTRIM()\",[\".word\"]],\"l\"],[\"AS\",[\"RTRIM()\",[\".word\"]],\"r\"]],"
            "\"WHERE\":[\"CONTAINS()\",[\".text\"],\"quick\"]}", 2);

    q = build((CBLQuerySelectResult*[]){
                  SEL(CBLQueryFunction_StringToMillis(P("born"))), SEL(CBLQueryFunction_StringToUTC(P("born"))),
                  SEL(CBLQueryFunction_MillisToUTC(P("ms"))), SEL(CBLQueryFunction_MillisToString(P("ms")))}, 4,
              NULL, BY_ID, &err);
    conform("dates", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"STR_TO_MILLIS()\",[\".born\"]],[\"STR_TO_UTC()\",[\".born\"]],"
            "[\"MILLIS_TO_UTC()\",[\".ms\"]],[\"MILLIS_TO_STR()\",[\".ms\"]]]}", 4);

    q = build((CBLQuerySelectResult*[]){SEL(ID), SELAS(CBLQueryArrayFunction_Length(P("tags")), "len")}, 2,
              CBLQueryArrayFunction_Contains(P("tags"), S("fruit")), BY_ID, &err);
    conform_rows("array_functions", "[\"a\",2]\n[\"b\",2]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"],[\"AS\",[\"ARRAY_LENGTH()\",[\".tags\"]],\"len\"]],"
            "\"WHERE\":[\"ARRAY_CONTAINS()\",[\".tags\"],\"fruit\"]}", 2);
    CHECK(CBL_InstanceCount() == start);
}

static void test_array_expressions(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
                        CBLQueryArrayExpression_Any(V("k"), P("kids"),
                                                    CBLQueryExpression_GreaterThan(V("k.age"), I(10))), BY_ID, &err);
    conform_rows("any", "[\"b\"]\n[\"d\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],"
            "\"WHERE\":[\"ANY\",\"k\",[\".kids\"],[\">\",[\"?k.age\"],10]]}", 2);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryArrayExpression_Every(V("k"), P("kids"), CBLQueryExpression_GreaterThan(V("k.age"), I(10))),
              BY_ID, &err);
    conform_rows("every", "[\"b\"]\n[\"c\"]\n[\"d\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],"
            "\"WHERE\":[\"EVERY\",\"k\",[\".kids\"],[\">\",[\"?k.age\"],10]]}", 3);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryArrayExpression_AnyAndEvery(V("k"), P("kids"), CBLQueryExpression_GreaterThan(V("k.age"), I(10))),
              BY_ID, &err);
    conform_rows("any_and_every", "[\"b\"]\n[\"d\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],"
            "\"WHERE\":[\"ANY AND EVERY\",\"k\",[\".kids\"],[\">\",[\"?k.age\"],10]]}", 2);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryArrayExpression_Any(V("t"), P("tags"), CBLQueryExpression_Like(V("t"), S("%ll%"))), BY_ID, &err);
    conform_rows("any_like", "[\"b\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],"
            "\"WHERE\":[\"ANY\",\"t\",[\".tags\"],[\"LIKE\",[\"?t\"],\"%ll%\"]]}", 1);
    CHECK(CBL_InstanceCount() == start);
}

static void test_collations(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
                        CBLQueryExpression_EqualTo(CBLQueryExpression_Collate(P("name"), CBLQueryCollation_ASCII(false)),
                                                   S("APPLE")), NULL, &err);
    conform_rows("collate_ascii", "[\"a\"]\n", q, err,
            "{" FROM ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"=\",[\"COLLATE\",{\"CASE\":false,\"DIAC\":true,\"LOCALE\":null,"
            "\"UNICODE\":false},[\".name\"]],\"APPLE\"]}", 1);

    q = build((CBLQuerySelectResult*[]){SEL(P("name"))}, 1, NULL,
              CBLQueryOrdering_Ascending(CBLQueryExpression_Collate(P("name"), CBLQueryCollation_Unicode(false, true, "en_US"))),
              &err);
    conform_rows("collate_unicode_order", "[\"Apple\"]\n[\"apricot\"]\n[\"banana\"]\n[\"Cherry\"]\n", q, err,
            "{" FROM ",\"ORDER_BY\":[[\"COLLATE\",{\"CASE\":false,\"DIAC\":true,\"LOCALE\":\"en_US\",\"UNICODE\":true},"
            "[\".name\"]]],\"WHAT\":[[\".name\"]]}", 4);

    q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
              CBLQueryExpression_EqualTo(CBLQueryExpression_Collate(P("city"), CBLQueryCollation_Unicode(false, false, "en_US")),
                                         S("zurich")), BY_ID, &err);
    conform_rows("collate_unicode_accents", "[\"a\"]\n[\"b\"]\n[\"c\"]\n", q, err,
            "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"=\",[\"COLLATE\",{\"CASE\":false,\"DIAC\":false,"
            "\"LOCALE\":\"en_US\",\"UNICODE\":true},[\".city\"]],\"zurich\"]}", 3);
    CHECK(CBL_InstanceCount() == start);
}

static void test_full_text(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    CBLQuery* q = build((CBLQuerySelectResult*[]){SEL(ID)}, 1,
                        CBLQueryFullTextFunction_Match("textIndex", NULL, "quick"), BY_ID, &err);
    conform_rows("match", "[\"a\"]\n[\"c\"]\n", q, err, "{" FROM "," ORDER_ID ",\"WHAT\":[[\"._id\"]],\"WHERE\":[\"MATCH()\",\"textIndex\",\"quick\"]}", 2);

    q = CBLQueryBuilder_Create((CBLQuerySelectResult*[]){SEL(CBLQueryMeta_ID("i"))}, 1, false,
                               CBLQueryDataSource_CollectionAs(items, "i"), NULL, 0,
                               CBLQueryFullTextFunction_Match("textIndex", "i", "quick OR dogs"), NULL, 0, NULL,
                               (CBLQueryOrdering*[]){CBLQueryOrdering_Descending(CBLQueryFullTextFunction_Rank("textIndex", "i")),
                                                     CBLQueryOrdering_Ascending(CBLQueryMeta_ID("i"))}, 2,
                               NULL, &err);
    conform_rows("match_rank_alias", "[\"c\"]\n[\"b\"]\n[\"a\"]\n", q, err,
            "{\"FROM\":[{\"AS\":\"i\",\"COLLECTION\":\"_default.items\"}],"
            "\"ORDER_BY\":[[\"DESC\",[\"RANK()\",\"i.textIndex\"]],[\".i._id\"]],\"WHAT\":[[\".i._id\"]],"
            "\"WHERE\":[\"MATCH()\",\"i.textIndex\",\"quick OR dogs\"]}", 3);
    CHECK(CBL_InstanceCount() == start);
}

static void test_misuse(void) {
    uint64_t start = CBL_InstanceCount();
    CBLError err;
    /* Collations: NULL, wrong kind, released, bad locale, and a collation in an expression position. */
    check_where_fails(items, CBLQueryExpression_Collate(P("name"), NULL), kCBLErrorInvalidParameter, "collation of Collate is NULL");
    check_where_fails(items, CBLQueryExpression_Collate(P("name"), (CBLQueryCollation*)S("x")), kCBLErrorInvalidParameter,
                      "is a CBLQueryExpression, not a CBLQueryCollation");
    CBLQueryCollation* released = CBLQueryCollation_ASCII(true);
    CBL_Release(released);
    check_where_fails(items, CBLQueryExpression_Collate(P("name"), released), kCBLErrorInvalidParameter,
                      "collation of Collate is not a live handle");
    check_where_fails(items, CBLQueryExpression_Collate(P("name"), CBLQueryCollation_Unicode(true, true, "\xff")),
                      kCBLErrorInvalidParameter, "collation locale is not valid UTF-8");
    CBLQueryCollation* collation = CBLQueryCollation_Unicode(true, true, NULL);
    check_where_fails(items, CBLQueryExpression_EqualTo(P("name"), (CBLQueryExpression*)collation), kCBLErrorInvalidParameter,
                      "is a CBLQueryCollation, not a CBLQueryExpression");
    CHECK(CBL_Retain(collation) == NULL);   /* consumed */
    check_where_fails(items, CBLQueryExpression_Collate(NULL, CBLQueryCollation_ASCII(false)), kCBLErrorInvalidParameter,
                      "operand of Collate is NULL");

    /* Array and dictionary literals: a bad item, NULL arrays, a duplicate or NULL key. */
    check_where_fails(items, CBLQueryExpression_In(P("n"), (CBLQueryExpression*[]){CBLQueryExpression_Array(
                          (CBLQueryExpression*[]){I(1), NULL}, 2)}, 1), kCBLErrorInvalidParameter, "item of Array 2 is NULL");
    check_where_fails(items, CBLQueryExpression_Array(NULL, 1), kCBLErrorInvalidParameter, "item of Array array is NULL");
    check_where_fails(items, CBLQueryExpression_Dictionary((const char*[]){"k", "k"}, (CBLQueryExpression*[]){I(1), I(2)}, 2),
                      kCBLErrorInvalidParameter, "keys of Dictionary are not unique");
    check_where_fails(items, CBLQueryExpression_Dictionary((const char*[]){"k", NULL}, (CBLQueryExpression*[]){I(1), I(2)}, 2),
                      kCBLErrorInvalidParameter, "key 2 of Dictionary is NULL");
    check_where_fails(items, CBLQueryExpression_Dictionary(NULL, (CBLQueryExpression*[]){I(1)}, 1),
                      kCBLErrorInvalidParameter, "key array of Dictionary is NULL");

    /* Array expressions: a variable that is not one, NULL parts, a NULL name. */
    check_where_fails(items, CBLQueryArrayExpression_Any(P("k"), P("kids"), CBLQueryExpression_Bool(true)),
                      kCBLErrorInvalidParameter, "variable of Any is not a CBLQueryArrayExpression_Variable");
    check_where_fails(items, CBLQueryArrayExpression_Every(V("k"), NULL, CBLQueryExpression_Bool(true)),
                      kCBLErrorInvalidParameter, "array of Every is NULL");
    check_where_fails(items, CBLQueryArrayExpression_AnyAndEvery(V("k"), P("kids"), NULL),
                      kCBLErrorInvalidParameter, "condition of AnyAndEvery is NULL");
    check_where_fails(items, CBLQueryArrayExpression_Any(NULL, P("kids"), CBLQueryExpression_Bool(true)),
                      kCBLErrorInvalidParameter, "variable of Any is NULL");
    check_where_fails(items, CBLQueryExpression_EqualTo(V(NULL), I(1)), kCBLErrorInvalidParameter, "variable name is NULL");
    check_where_fails(items, CBLQueryArrayExpression_Any(V("k"), P("kids"), CBLQueryExpression_EqualTo(V("k..x"), I(1))),
                      kCBLErrorInvalidQuery, "");

    /* Full-text functions, meta, functions and operators with bad parts. */
    check_where_fails(items, CBLQueryFullTextFunction_Match(NULL, NULL, "quick"), kCBLErrorInvalidParameter,
                      "full-text index name is NULL");
    check_where_fails(items, CBLQueryFullTextFunction_Match("textIndex", NULL, NULL), kCBLErrorInvalidParameter,
                      "full-text query is NULL");
    check_where_fails(items, CBLQueryExpression_GreaterThan(CBLQueryFullTextFunction_Rank("textIndex", "\xfe"), I(0)),
                      kCBLErrorInvalidParameter, "data source alias is not valid UTF-8");
    check_where_fails(items, CBLQueryExpression_EqualTo(CBLQueryMeta_Sequence("\xfe"), I(1)), kCBLErrorInvalidParameter,
                      "data source alias is not valid UTF-8");
    check_where_fails(items, CBLQueryFunction_Power(P("n"), NULL), kCBLErrorInvalidParameter, "right operand of Power is NULL");
    check_where_fails(items, CBLQueryFunction_Contains(NULL, S("x")), kCBLErrorInvalidParameter, "left operand of Contains is NULL");
    check_where_fails(items, CBLQueryArrayFunction_Length(NULL), kCBLErrorInvalidParameter, "operand of ArrayFunction_Length is NULL");
    check_where_fails(items, CBLQueryExpression_Is(P("n"), NULL), kCBLErrorInvalidParameter, "right operand of Is is NULL");
    check_where_fails(items, CBLQueryExpression_Regex(NULL, S("x")), kCBLErrorInvalidParameter, "left operand of Regex is NULL");
    CBLQuery* query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Database(NULL), NULL, 0, NULL, NULL, 0,
                                             NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "database is NULL");
    query = CBLQueryBuilder_Create(NULL, 0, false, CBLQueryDataSource_Database((CBLDatabase*)items), NULL, 0, NULL, NULL, 0,
                                   NULL, NULL, 0, NULL, &err);
    CHECK(query == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "is a CBLCollection, not a CBLDatabase");
    check_where_fails(items, CBLQueryExpression_Negated(NULL), kCBLErrorInvalidParameter, "operand of Negated is NULL");
    CHECK(CBL_InstanceCount() == start);
}

int main(void) {
    const char* dir = test_directory("query_builder_conformance");
    uint64_t start = CBL_InstanceCount();
    CBLDatabase* db = open_database(dir, "conformance");
    database = db;
    fill(db);
    test_meta();
    test_operators();
    test_functions();
    test_array_expressions();
    test_collations();
    test_full_text();
    test_database_source();
    CHECK(cases >= 20);
    test_misuse();
    CBL_Release(items);
    close_database(db);
    CHECK(CBL_InstanceCount() == start);
    return test_finish("query_builder_conformance_test");
}
