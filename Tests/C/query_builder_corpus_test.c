/* Couchbase Lite's own QueryBuilder tests (the conformance corpus's sw/, om/, oj/
   and dt/ cases, whose JSON the Objective-C builder rendered) rebuilt through the
   C QueryBuilder. For each case the case's line is read from cases.jsonl (DocLite
   parses it: the line is saved as a document of a scratch database and its parts
   read back with a JSON query), its dataset is loaded into a fresh database, and
   the query built through the C API must
     - have the same CBLQuery_CopyJSON as the case's own JSON query compiled by
       CBLDatabase_CreateQuery (both canonical),
     - have the same column titles, and give the same rows (each row as
       CBLResultSet_CreateRowArrayJSON, in order), at least one unless the case
       expects none,
     - give the case's `expect.ids` (first column, in order) and `expect.count`
       when it states them.
   Parameters are set through the typed CBLQueryParameters API on the built query
   and from the case's `params` JSON on the JSON query.

   The corpus is found at $DOCLITE_SHARED_DIR/conformance, else at the compile
   definition DOCLITE_SHARED_DIR; without it the test exits 77 (skipped). */
#include <float.h>
#include <stdint.h>
#include "test_support.h"

#define P(name) CBLQueryExpression_Property(name)
#define PF(name, alias) CBLQueryExpression_PropertyFrom(name, alias)
#define S(text) CBLQueryExpression_String(text)
#define I(n) CBLQueryExpression_Int(n)
#define V(name) CBLQueryArrayExpression_Variable(name)
#define PARAM(name) CBLQueryExpression_Parameter(name)
#define SEL(expr) CBLQuerySelectResult_Expression(expr)
#define SELAS(expr, alias) CBLQuerySelectResult_ExpressionAs(expr, alias)
#define PROP(name) CBLQuerySelectResult_Property(name)
#define ID CBLQueryMeta_ID(NULL)
#define ASC(expr) CBLQueryOrdering_Ascending(expr)
#define DESC(expr) CBLQueryOrdering_Descending(expr)
/* A borrowed array of parts and its count, for CBLQueryBuilder_Create (sizeof does not evaluate). */
#define LIST(type, ...) (type*[]){__VA_ARGS__}, sizeof((type*[]){__VA_ARGS__}) / sizeof(type*)
#define NONE(type) (type* const*)NULL, 0

/* What a case's builder gets: the fresh database and its default collection. */
typedef struct {
    CBLDatabase* db;
    CBLCollection* collection;
} Context;

typedef CBLQuery* (*BuildFunction)(const Context* x, CBLError* err);
typedef void (*ParamsFunction)(CBLQueryParameters* params);

typedef struct {
    const char* id;
    BuildFunction build;
    ParamsFunction params; /* NULL when the case has no params */
} Case;

#define CASE(name) static CBLQuery* name(const Context* x, CBLError* err)

static CBLQueryDataSource* source(const Context* x) { return CBLQueryDataSource_Collection(x->collection); }
static CBLQueryDataSource* source_as(const Context* x, const char* alias) {
    return CBLQueryDataSource_CollectionAs(x->collection, alias);
}

/* SELECT META().id FROM _default WHERE where, as the Swift tests' many whereID cases. */
static CBLQuery* where_id(const Context* x, CBLQueryExpression* where, CBLError* err) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(ID)), false, source(x), NONE(CBLQueryJoin), where,
                                  NONE(CBLQueryExpression), NULL, NONE(CBLQueryOrdering), NULL, err);
}

/* ---- swift_numbers_10: number1 and number2 comparisons and arithmetic ---- */

CASE(where_le) { return where_id(x, CBLQueryExpression_LessThanOrEqualTo(P("number1"), I(3)), err); }
CASE(where_gt) { return where_id(x, CBLQueryExpression_GreaterThan(P("number1"), I(6)), err); }
CASE(where_ge) { return where_id(x, CBLQueryExpression_GreaterThanOrEqualTo(P("number1"), I(6)), err); }
CASE(where_eq) { return where_id(x, CBLQueryExpression_EqualTo(P("number1"), I(7)), err); }
CASE(where_ne) { return where_id(x, CBLQueryExpression_NotEqualTo(P("number1"), I(7)), err); }
CASE(div_gt) {
    return where_id(x, CBLQueryExpression_GreaterThan(CBLQueryExpression_Divide(P("number1"), I(2)), I(3)), err);
}
CASE(mod_eq) { return where_id(x, CBLQueryExpression_EqualTo(CBLQueryExpression_Modulo(P("number1"), I(2)), I(0)), err); }
CASE(add_gt) { return where_id(x, CBLQueryExpression_GreaterThan(CBLQueryExpression_Add(P("number1"), I(5)), I(10)), err); }
CASE(sub_gt) {
    return where_id(x, CBLQueryExpression_GreaterThan(CBLQueryExpression_Subtract(P("number1"), I(5)), I(0)), err);
}
CASE(div_props_gt) {
    return where_id(x, CBLQueryExpression_GreaterThan(CBLQueryExpression_Divide(P("number2"), P("number1")), I(3)), err);
}
CASE(add_props_eq) {
    return where_id(x, CBLQueryExpression_EqualTo(CBLQueryExpression_Add(P("number1"), P("number2")), I(10)), err);
}
CASE(where_and) {
    return where_id(x, CBLQueryExpression_And(CBLQueryExpression_GreaterThan(P("number1"), I(3)),
                                              CBLQueryExpression_GreaterThan(P("number2"), I(3))), err);
}
CASE(where_or) {
    return where_id(x, CBLQueryExpression_Or(CBLQueryExpression_LessThan(P("number1"), I(3)),
                                             CBLQueryExpression_LessThan(P("number2"), I(3))), err);
}
CASE(where_between) { return where_id(x, CBLQueryExpression_Between(P("number1"), I(3), I(7)), err); }

/* ---- swift_numbers_*: meta, parameters, limits, aggregates, select all, deleted ---- */

CASE(params_between_and_echo) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, PROP("number1"));
    const char* names[] = {"string", "maxInt64", "minInt64", "maxDouble", "minDouble", "bool", "array", "dict"};
    for (size_t i = 0; i < sizeof names / sizeof names[0]; i++) CBLQueryBuilder_Select(b, SEL(PARAM(names[i])));
    CBLQueryBuilder_From(b, source(x));
    CBLQueryBuilder_Where(b, CBLQueryExpression_Between(P("number1"), PARAM("num1"), PARAM("num2")));
    CBLQueryBuilder_OrderBy(b, ASC(P("number1")));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}
static void params_between_and_echo_values(CBLQueryParameters* p) {
    CBLQueryParameters_SetInt(p, "num1", 2);
    CBLQueryParameters_SetInt(p, "num2", 5);
    CBLQueryParameters_SetString(p, "string", "someString");
    CBLQueryParameters_SetInt(p, "maxInt64", INT64_MAX);
    CBLQueryParameters_SetInt(p, "minInt64", INT64_MIN);
    CBLQueryParameters_SetDouble(p, "maxDouble", DBL_MAX);
    CBLQueryParameters_SetDouble(p, "minDouble", DBL_MIN);
    CBLQueryParameters_SetBool(p, "bool", true);
    CBLQueryParameters_SetJSON(p, "array", "[\"a\", \"b\"]");
    CBLQueryParameters_SetJSON(p, "dict", "{\"a\": \"aa\", \"b\": \"bb\"}");
}

CASE(meta_id_sequence) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(ID), SEL(CBLQueryMeta_RevisionID(NULL)),
                                       SEL(CBLQueryMeta_Sequence(NULL)), PROP("number1")),
                                  false, source(x), NONE(CBLQueryJoin), NULL, NONE(CBLQueryExpression), NULL,
                                  LIST(CBLQueryOrdering, ASC(CBLQueryMeta_Sequence(NULL))), NULL, err);
}

CASE(limit_5) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("number1")), false, source(x), NONE(CBLQueryJoin), NULL,
                                  NONE(CBLQueryExpression), NULL, LIST(CBLQueryOrdering, ASC(P("number1"))),
                                  CBLQueryLimit_Limit(I(5)), err);
}

CASE(limit_offset_params) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Limit(b, CBLQueryLimit_LimitOffset(PARAM("LIMIT_NUM"), PARAM("OFFSET_NUM")));   /* any order */
    CBLQueryBuilder_OrderBy(b, ASC(P("number1")));
    CBLQueryBuilder_From(b, source(x));
    CBLQueryBuilder_Select(b, PROP("number1"));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}
static void limit_offset_values(CBLQueryParameters* p) {
    CBLQueryParameters_SetInt(p, "LIMIT_NUM", 3);
    CBLQueryParameters_SetInt(p, "OFFSET_NUM", 5);
}

CASE(aggregate_projecting_keys) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(CBLQueryFunction_Avg(P("number1"))),
                                       SEL(CBLQueryFunction_Count(P("number1"))),
                                       SELAS(CBLQueryFunction_Min(P("number1")), "min"),
                                       SEL(CBLQueryFunction_Max(P("number1"))),
                                       SELAS(CBLQueryFunction_Sum(P("number1")), "sum")),
                                  false, source(x), NONE(CBLQueryJoin), NULL, NONE(CBLQueryExpression), NULL,
                                  NONE(CBLQueryOrdering), NULL, err);
}

CASE(select_all_alias_and_property) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, CBLQuerySelectResult_All("testdb"), SEL(PF("number1", "testdb"))),
                                  false, source_as(x, "testdb"), NONE(CBLQueryJoin), NULL, NONE(CBLQueryExpression), NULL,
                                  NONE(CBLQueryOrdering), NULL, err);
}

CASE(none_deleted) { return where_id(x, CBLQueryMeta_IsDeleted(NULL), err); }

/* ---- swift_numbers_100 + extra docs: joins ---- */

/* JOIN _default AS secondary ON main.number1 = secondary.<key>. */
static CBLQueryJoin* join_on(const Context* x, const char* key) {
    return CBLQueryJoin_Join(source_as(x, "secondary"), CBLQueryExpression_EqualTo(PF("number1", "main"), PF(key, "secondary")));
}

CASE(join_inner) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(CBLQueryMeta_ID("main"))), false, source_as(x, "main"),
                                  LIST(CBLQueryJoin, join_on(x, "theone")), NULL, NONE(CBLQueryExpression), NULL,
                                  NONE(CBLQueryOrdering), NULL, err);
}

CASE(join_left_outer) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(PF("number2", "main")), SEL(PF("theone", "secondary"))),
                                  false, source_as(x, "main"),
                                  LIST(CBLQueryJoin, CBLQueryJoin_LeftJoin(source_as(x, "secondary"),
                                       CBLQueryExpression_EqualTo(PF("number1", "main"), PF("theone", "secondary")))),
                                  NULL, NONE(CBLQueryExpression), NULL, NONE(CBLQueryOrdering), NULL, err);
}

CASE(join_by_doc_id) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, SELAS(CBLQueryMeta_ID("main"), "mainDocID"));
    CBLQueryBuilder_Select(b, SELAS(CBLQueryMeta_ID("secondary"), "secondaryDocID"));
    CBLQueryBuilder_Select(b, SEL(PF("theone", "secondary")));
    CBLQueryBuilder_From(b, source_as(x, "main"));
    CBLQueryBuilder_Join(b, CBLQueryJoin_Join(source_as(x, "secondary"),
                                              CBLQueryExpression_EqualTo(CBLQueryMeta_ID("main"), PF("numberID", "secondary"))));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}

CASE(select_all_two_sources) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, CBLQuerySelectResult_All("main"), CBLQuerySelectResult_All("secondary")),
                                  true, source_as(x, "main"), LIST(CBLQueryJoin, join_on(x, "theOne")), NULL,
                                  NONE(CBLQueryExpression), NULL, NONE(CBLQueryOrdering), NULL, err);
}

CASE(join_group_by_having) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, SEL(CBLQueryMeta_ID("main")));
    CBLQueryBuilder_Select(b, SELAS(CBLQueryFunction_Count(I(1)), "count"));
    CBLQueryBuilder_From(b, source_as(x, "main"));
    CBLQueryBuilder_Join(b, join_on(x, "theone"));
    CBLQueryBuilder_GroupBy(b, PF("theone", "secondary"));
    CBLQueryBuilder_Having(b, CBLQueryExpression_LessThan(CBLQueryFunction_Count(I(1)), I(2)));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}

static CBLQuery* join_order_by(const Context* x, bool distinct, CBLError* err) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(CBLQueryMeta_ID("main")), SEL(PF("number1", "main"))),
                                  distinct, source_as(x, "main"), LIST(CBLQueryJoin, join_on(x, "theone")), NULL,
                                  NONE(CBLQueryExpression), NULL, LIST(CBLQueryOrdering, ASC(PF("number1", "main"))), NULL, err);
}
CASE(join_order) { return join_order_by(x, false, err); }
CASE(join_order_distinct) { return join_order_by(x, true, err); }

CASE(join_group_by_order_limit) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, SEL(CBLQueryMeta_ID("main")));
    CBLQueryBuilder_Select(b, SEL(PF("number1", "main")));
    CBLQueryBuilder_Select(b, SELAS(CBLQueryFunction_Count(I(1)), "count"));
    CBLQueryBuilder_From(b, source_as(x, "main"));
    CBLQueryBuilder_Join(b, join_on(x, "theone"));
    CBLQueryBuilder_GroupBy(b, PF("theone", "secondary"));
    CBLQueryBuilder_OrderBy(b, ASC(PF("number1", "main")));
    CBLQueryBuilder_Limit(b, CBLQueryLimit_Limit(I(10)));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}

/* ---- names_100_swift ---- */

CASE(regex_prefix) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, SEL(ID)), false, source(x), NONE(CBLQueryJoin),
                                  CBLQueryExpression_Regex(P("name.first"), S("^Mar.*")), NONE(CBLQueryExpression), NULL,
                                  LIST(CBLQueryOrdering, ASC(P("name.first"))), NULL, err);
}

static CBLQuery* first_names(const Context* x, CBLQueryOrdering* order, CBLError* err) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("name.first")), false, source(x), NONE(CBLQueryJoin), NULL,
                                  NONE(CBLQueryExpression), NULL, LIST(CBLQueryOrdering, order), NULL, err);
}
CASE(first_name_asc) { return first_names(x, ASC(P("name.first")), err); }
CASE(first_name_desc) { return first_names(x, DESC(P("name.first")), err); }

CASE(distinct_states) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("contact.address.state")), true, source(x),
                                  NONE(CBLQueryJoin), NULL, NONE(CBLQueryExpression), NULL,
                                  LIST(CBLQueryOrdering, ASC(P("contact.address.state"))), NULL, err);
}

static CBLQuery* female_by_state(const Context* x, CBLQueryExpression* having, CBLError* err) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("contact.address.state"), SEL(CBLQueryFunction_Count(I(1))),
                                       SEL(CBLQueryFunction_Max(P("contact.address.zip")))),
                                  false, source(x), NONE(CBLQueryJoin), CBLQueryExpression_EqualTo(P("gender"), S("female")),
                                  LIST(CBLQueryExpression, P("contact.address.state")), having,
                                  LIST(CBLQueryOrdering, ASC(P("contact.address.state"))), NULL, err);
}
CASE(group_by_state) { return female_by_state(x, NULL, err); }
CASE(having_count) {
    return female_by_state(x, CBLQueryExpression_GreaterThan(CBLQueryFunction_Count(I(1)), I(1)), err);
}

CASE(every_likes_taxes) {
    return where_id(x, CBLQueryArrayExpression_Every(V("LIKE"), P("likes"), CBLQueryExpression_EqualTo(V("LIKE"), S("taxes"))),
                    err);
}

/* ---- inline documents ---- */

CASE(name_is_not_valued) { return where_id(x, CBLQueryExpression_IsNotValued(P("name")), err); }
CASE(address_is_not_valued) { return where_id(x, CBLQueryExpression_IsNotValued(P("address")), err); }
CASE(address_is_valued) { return where_id(x, CBLQueryExpression_IsValued(P("address")), err); }
CASE(work_is_not_valued) { return where_id(x, CBLQueryExpression_IsNotValued(P("work")), err); }
CASE(work_is_valued) { return where_id(x, CBLQueryExpression_IsValued(P("work")), err); }
CASE(is_string) { return where_id(x, CBLQueryExpression_Is(P("string"), S("string")), err); }

CASE(distinct_same_number) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("number")), true, source(x), NONE(CBLQueryJoin), NULL,
                                  NONE(CBLQueryExpression), NULL, NONE(CBLQueryOrdering), NULL, err);
}

CASE(distinct_group_by_name) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_SetDistinct(b, true);
    CBLQueryBuilder_Select(b, PROP("number"));
    CBLQueryBuilder_Select(b, PROP("name"));
    CBLQueryBuilder_From(b, source(x));
    CBLQueryBuilder_GroupBy(b, P("name"));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}

CASE(distinct_group_by_having_order_limit) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, PROP("number"), PROP("name")), true, source(x),
                                  NONE(CBLQueryJoin), NULL, LIST(CBLQueryExpression, P("name")),
                                  CBLQueryExpression_LessThan(CBLQueryFunction_Count(I(1)), I(2)),
                                  LIST(CBLQueryOrdering, ASC(P("name"))), CBLQueryLimit_Limit(I(2)), err);
}

/* SELECT each of `exprs` (consumed) FROM _default. */
static CBLQuery* select_all_of(const Context* x, CBLQueryExpression* const* exprs, size_t count, CBLError* err) {
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    for (size_t i = 0; i < count; i++) CBLQueryBuilder_Select(b, SEL(exprs[i]));
    CBLQueryBuilder_From(b, source(x));
    CBLQuery* q = CBLQueryBuilder_Build(b, err);
    CBL_Release(b);
    return q;
}
#define SELECT_EACH(...) select_all_of(x, LIST(CBLQueryExpression, __VA_ARGS__), err)

CASE(array_length) { return SELECT_EACH(CBLQueryArrayFunction_Length(P("array"))); }

CASE(math_functions_1) {
    return SELECT_EACH(CBLQueryFunction_Abs(P("number")), CBLQueryFunction_Acos(P("number")),
                       CBLQueryFunction_Asin(P("number")), CBLQueryFunction_Atan(P("number")),
                       CBLQueryFunction_Atan2(I(90), P("number")), CBLQueryFunction_Ceil(P("number")),
                       CBLQueryFunction_Cos(P("number")), CBLQueryFunction_Degrees(P("number")),
                       CBLQueryFunction_Exp(P("number")), CBLQueryFunction_Floor(P("number")),
                       CBLQueryFunction_Ln(P("number")), CBLQueryFunction_Log(P("number")));
}

CASE(math_functions_2) {
    return SELECT_EACH(CBLQueryFunction_Power(P("number"), I(2)), CBLQueryFunction_Radians(P("number")),
                       CBLQueryFunction_Round(P("number")), CBLQueryFunction_RoundDigits(P("number"), I(1)),
                       CBLQueryFunction_Sign(P("number")), CBLQueryFunction_Sin(P("number")),
                       CBLQueryFunction_Sqrt(P("number")), CBLQueryFunction_Tan(P("number")),
                       CBLQueryFunction_Trunc(P("number")), CBLQueryFunction_TruncDigits(P("number"), I(1)),
                       CBLQueryFunction_E(), CBLQueryFunction_Pi());
}

CASE(string_length) { return SELECT_EACH(CBLQueryFunction_Length(P("greeting"))); }

CASE(string_case_and_trim) {
    return SELECT_EACH(CBLQueryFunction_Lower(P("greeting")), CBLQueryFunction_Ltrim(P("greeting")),
                       CBLQueryFunction_Rtrim(P("greeting")), CBLQueryFunction_Trim(P("greeting")),
                       CBLQueryFunction_Upper(P("greeting")));
}

/* SELECT * FROM _default WHERE where. */
static CBLQuery* all_where(const Context* x, CBLQueryExpression* where, CBLError* err) {
    return CBLQueryBuilder_Create(LIST(CBLQuerySelectResult, CBLQuerySelectResult_All(NULL)), false, source(x),
                                  NONE(CBLQueryJoin), where, NONE(CBLQueryExpression), NULL, NONE(CBLQueryOrdering), NULL, err);
}
#define COLLATED(collation) CBLQueryExpression_Collate(P("value"), collation)
CASE(ascii_binary_lt) {
    return all_where(x, CBLQueryExpression_LessThan(COLLATED(CBLQueryCollation_ASCII(true)), S("abc")), err);
}
CASE(ascii_case_insensitive_eq) {
    return all_where(x, CBLQueryExpression_EqualTo(COLLATED(CBLQueryCollation_ASCII(false)), S("A")), err);
}
CASE(ascii_case_insensitive_lt) {
    return all_where(x, CBLQueryExpression_LessThan(COLLATED(CBLQueryCollation_ASCII(false)), S("commonprefix2")), err);
}

CASE(any_variable_key_path) {
    return where_id(x, CBLQueryArrayExpression_Any(V("path"), P("paths"),
                                                   CBLQueryExpression_EqualTo(V("path.city"), S("San Francisco"))), err);
}

CASE(match_single_quoted) { return where_id(x, CBLQueryFullTextFunction_Match("sentence", NULL, "'woman'"), err); }

CASE(str_to_millis) { return SELECT_EACH(CBLQueryFunction_StringToMillis(P("dateString"))); }
CASE(str_to_utc) { return SELECT_EACH(CBLQueryFunction_StringToUTC(P("dateString"))); }
CASE(millis_to_utc) { return SELECT_EACH(CBLQueryFunction_MillisToUTC(P("dateString"))); }
CASE(millis_to_str) { return SELECT_EACH(CBLQueryFunction_MillisToString(P("dateString"))); }

/* Every sw/, om/, oj/ and dt/ case on swift_numbers_*, names_100_swift or inline docs, but:
   - sw/collation/unicode_* and unicode_order (10 cases): their JSON has "LOCALE": null, and
     CBLQueryCollation_Unicode with a NULL locale writes the current locale (as Couchbase
     Lite's ObjC builder does), so the C builder cannot produce that JSON;
   - sw/fts/default_collection_match_rank: its JSON has no FROM, which the builder always writes;
   - sw/deleted/all_after_delete and the three sw/expiration cases: they need `setup` ops (and {"$now": d} params). */
static const Case all_cases[] = {
    {"sw/where/comparison_le", where_le, NULL},
    {"sw/where/comparison_gt", where_gt, NULL},
    {"sw/where/comparison_ge", where_ge, NULL},
    {"sw/where/comparison_eq", where_eq, NULL},
    {"sw/where/comparison_ne", where_ne, NULL},
    {"sw/where/arithmetic_div_gt", div_gt, NULL},
    {"sw/where/arithmetic_mod_eq", mod_eq, NULL},
    {"sw/where/arithmetic_add_gt", add_gt, NULL},
    {"sw/where/arithmetic_sub_gt", sub_gt, NULL},
    {"sw/where/arithmetic_div_props_gt", div_props_gt, NULL},
    {"sw/where/arithmetic_add_props_eq", add_props_eq, NULL},
    {"sw/where/and", where_and, NULL},
    {"sw/where/or", where_or, NULL},
    {"sw/where/between", where_between, NULL},
    {"sw/params/between_and_echo", params_between_and_echo, params_between_and_echo_values},
    {"sw/meta/id_sequence_ordered", meta_id_sequence, NULL},
    {"sw/limit/limit_5", limit_5, NULL},
    {"sw/limit/limit_offset_params", limit_offset_params, limit_offset_values},
    {"sw/aggregate/projecting_keys", aggregate_projecting_keys, NULL},
    {"sw/select_all/alias_star_and_property", select_all_alias_and_property, NULL},
    {"sw/deleted/none_deleted", none_deleted, NULL},
    {"sw/join/inner", join_inner, NULL},
    {"sw/join/left_outer", join_left_outer, NULL},
    {"sw/join/by_doc_id", join_by_doc_id, NULL},
    {"sw/select_all/distinct_two_sources", select_all_two_sources, NULL},
    {"oj/join/group_by_having", join_group_by_having, NULL},
    {"oj/join/order_by", join_order, NULL},
    {"oj/join/order_by_distinct", join_order_distinct, NULL},
    {"oj/join/group_by_order_limit", join_group_by_order_limit, NULL},
    {"sw/regex/regexp_like_prefix", regex_prefix, NULL},
    {"sw/order_by/first_name_asc", first_name_asc, NULL},
    {"sw/order_by/first_name_desc", first_name_desc, NULL},
    {"om/order_by/distinct_states_asc", distinct_states, NULL},
    {"sw/group_by/female_by_state", group_by_state, NULL},
    {"sw/having/female_by_state_count_gt_1", having_count, NULL},
    {"sw/every/likes_taxes", every_likes_taxes, NULL},
    {"sw/missing_null/name_is_not_valued", name_is_not_valued, NULL},
    {"sw/missing_null/address_is_not_valued", address_is_not_valued, NULL},
    {"sw/missing_null/address_is_valued", address_is_valued, NULL},
    {"sw/missing_null/work_is_not_valued", work_is_not_valued, NULL},
    {"sw/missing_null/work_is_valued", work_is_valued, NULL},
    {"sw/comparison/is_string", is_string, NULL},
    {"sw/distinct/same_number", distinct_same_number, NULL},
    {"om/distinct/group_by_name", distinct_group_by_name, NULL},
    {"om/distinct/group_by_having_order_limit", distinct_group_by_having_order_limit, NULL},
    {"sw/array_fn/array_length", array_length, NULL},
    {"sw/math_fn/functions_1", math_functions_1, NULL},
    {"sw/math_fn/functions_2", math_functions_2, NULL},
    {"sw/string_fn/length", string_length, NULL},
    {"sw/string_fn/case_and_trim", string_case_and_trim, NULL},
    {"sw/collation/ascii_binary_lt_02", ascii_binary_lt, NULL},
    {"sw/collation/ascii_case_insensitive_eq_01", ascii_case_insensitive_eq, NULL},
    {"sw/collation/ascii_case_insensitive_lt_02", ascii_case_insensitive_lt, NULL},
    {"om/any/variable_key_path", any_variable_key_path, NULL},
    {"sw/fts/match_single_quoted", match_single_quoted, NULL},
    {"dt/str_to_millis", str_to_millis, NULL},
    {"dt/str_to_utc", str_to_utc, NULL},
    {"dt/millis_to_utc", millis_to_utc, NULL},
    {"dt/millis_to_str", millis_to_str, NULL},
};

/* ---- Reading the corpus ---- */

static char shared_dir[1024];
static const char* work_dir;

/* The scratch database holding every line of cases.jsonl as a document of its "cases" collection. */
static CBLDatabase* corpus_db;
static CBLQuery* case_query;

/* The parts of one case, as DocLite's JSON text (owned; NULL when absent). */
typedef struct {
    char* query;
    char* params;
    char* docs;
    char* extra_docs;
    char* dataset;     /* a string value: the name itself */
    char* expect_ids;
    int64_t expect_count;  /* -1 when absent */
    int64_t expect_rows;   /* ARRAY_LENGTH(expect.rows), -1 when absent */
    bool has_setup;
    int64_t index_count;   /* ARRAY_LENGTH(indexes), -1 when absent */
    char* index_name;
    char* index_expressions;
    char* index_language;  /* NULL: none */
    bool index_ignore_diacritics;
} CaseData;

static char* dup_or_null(const char* text) { return text ? strdup(text) : NULL; }

static void free_case(CaseData* d) {
    free(d->query);
    free(d->params);
    free(d->docs);
    free(d->extra_docs);
    free(d->dataset);
    free(d->expect_ids);
    free(d->index_name);
    free(d->index_expressions);
    free(d->index_language);
}

static int64_t int_or(const CBLResultSet* rs, unsigned column, int64_t missing) {
    return CBLResultSet_TypeAtIndex(rs, column) == kCBLValueInteger ? CBLResultSet_IntAtIndex(rs, column) : missing;
}

/* Saves every line of cases.jsonl into the scratch database; returns the number saved. */
static int load_corpus(const char* path) {
    CBLError err = {0};
    char dir[1100];
    snprintf(dir, sizeof dir, "%s/corpus", work_dir);
    corpus_db = open_database(dir, "corpus");
    if (!corpus_db) return 0;
    CBLCollection* cases = CBLDatabase_CreateCollection(corpus_db, "cases", NULL, &err);
    CHECK_OK(cases != NULL, err);
    FILE* file = fopen(path, "r");
    CHECK(file != NULL);
    int saved = 0, lines = 0;
    char* line = NULL;
    size_t capacity = 0;
    CHECK_OK(CBLDatabase_BeginTransaction(corpus_db, &err), err);
    while (file && cases && getline(&line, &capacity, file) > 0) {
        size_t length = strlen(line);
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        if (length == 0) continue;
        char docID[32];
        snprintf(docID, sizeof docID, "line-%d", ++lines);
        /* Not checked: a line DocLite cannot store only matters if it is one of ours (then "not found"). */
        CBLDocument* doc = CBLDocument_CreateWithID(docID, &err);
        if (doc && CBLDocument_SetJSON(doc, line, &err) && CBLCollection_SaveDocument(cases, doc, &err)) saved++;
        else fprintf(stderr, "  note: cases.jsonl line %d not stored\n", lines);
        CBL_Release(doc);
    }
    CHECK_OK(CBLDatabase_EndTransaction(corpus_db, true, &err), err);
    free(line);
    if (file) fclose(file);
    CBL_Release(cases);
    int position;
    case_query = CBLDatabase_CreateQuery(corpus_db, kCBLJSONLanguage,
        "{\"WHAT\": [[\".query\"], [\".params\"], [\".docs\"], [\".extra_docs\"], [\".dataset\"], [\".expect.ids\"],"
        " [\".expect.count\"], [\"ARRAY_LENGTH()\", [\".expect.rows\"]], [\"IS VALUED\", [\".setup\"]],"
        " [\"ARRAY_LENGTH()\", [\".indexes\"]], [\".indexes[0].name\"], [\".indexes[0].expressions\"],"
        " [\".indexes[0].language\"], [\".indexes[0].ignore_diacritics\"]],"
        " \"FROM\": [{\"COLLECTION\": \"_default.cases\"}], \"WHERE\": [\"=\", [\".id\"], [\"$id\"]]}",
        &position, &err);
    CHECK_OK(case_query != NULL, err);
    return saved;
}

/* The case `id`'s parts; false when it is not in the corpus. */
static bool read_case(const char* id, CaseData* d) {
    memset(d, 0, sizeof *d);
    CBLError err = {0};
    CBLQueryParameters* params = CBLQueryParameters_New();
    CBLQueryParameters_SetString(params, "id", id);
    CHECK_OK(CBLQuery_SetQueryParameters(case_query, params, &err), err);
    CBL_Release(params);
    CBLResultSet* rs = CBLQuery_Execute(case_query, &err);
    CHECK_OK(rs != NULL, err);
    bool found = false;
    if (rs && CBLResultSet_Next(rs, &err)) {
        found = true;
        d->query = dup_or_null(CBLResultSet_JSONAtIndex(rs, 0));
        d->params = dup_or_null(CBLResultSet_JSONAtIndex(rs, 1));
        d->docs = dup_or_null(CBLResultSet_JSONAtIndex(rs, 2));
        d->extra_docs = dup_or_null(CBLResultSet_JSONAtIndex(rs, 3));
        d->dataset = dup_or_null(CBLResultSet_StringAtIndex(rs, 4));
        d->expect_ids = dup_or_null(CBLResultSet_JSONAtIndex(rs, 5));
        d->expect_count = int_or(rs, 6, -1);
        d->expect_rows = int_or(rs, 7, -1);
        d->has_setup = CBLResultSet_BoolAtIndex(rs, 8);
        d->index_count = int_or(rs, 9, -1);
        d->index_name = dup_or_null(CBLResultSet_StringAtIndex(rs, 10));
        d->index_expressions = dup_or_null(CBLResultSet_JSONAtIndex(rs, 11));
        d->index_language = dup_or_null(CBLResultSet_StringAtIndex(rs, 12));
        d->index_ignore_diacritics = CBLResultSet_BoolAtIndex(rs, 13);
        CHECK(!CBLResultSet_Next(rs, &err));   /* one line per id */
    }
    CHECK(err.code == 0);
    CBL_Release(rs);
    return found;
}

/* ---- A small scanner over DocLite's JSON text, to split `docs` into documents ---- */

static const char* skip_space(const char* p) {
    while (*p == ' ' || *p == '\n' || *p == '\t' || *p == '\r') p++;
    return p;
}

/* The end of the JSON value starting at `p`, or NULL if it is malformed. */
static const char* skip_value(const char* p) {
    p = skip_space(p);
    if (*p == '"') {
        for (p++; *p && *p != '"'; p++)
            if (*p == '\\' && !*++p) return NULL;
        return *p ? p + 1 : NULL;
    }
    if (*p == '[' || *p == '{') {
        int depth = 0;
        while (*p) {
            if (*p == '"') {
                p = skip_value(p);
                if (!p) return NULL;
                continue;
            }
            if (*p == '[' || *p == '{') depth++;
            else if ((*p == ']' || *p == '}') && --depth == 0) return p + 1;
            p++;
        }
        return NULL;
    }
    const char* start = p;
    while (*p && *p != ',' && *p != ']' && *p != '}' && *p != ' ' && *p != '\n' && *p != '\t' && *p != '\r') p++;
    return p > start ? p : NULL;
}

/* Saves the JSON object [start, end) as a document: its "_id" member is the ID, the rest the body. */
static bool save_object(CBLCollection* collection, const char* start, const char* end) {
    char* body = malloc((size_t)(end - start) + 2);
    size_t used = 0;
    char id[256] = "";
    bool ok = body != NULL && *start == '{';
    if (ok) body[used++] = '{';
    const char* p = ok ? skip_space(start + 1) : start;
    while (ok && *p != '}') {
        const char* keyEnd = *p == '"' ? skip_value(p) : NULL;
        const char* colon = keyEnd ? skip_space(keyEnd) : NULL;
        const char* value = colon && *colon == ':' ? skip_space(colon + 1) : NULL;
        const char* valueEnd = value ? skip_value(value) : NULL;
        if (!valueEnd || valueEnd > end) {
            ok = false;
            break;
        }
        if (keyEnd - p == 5 && strncmp(p, "\"_id\"", 5) == 0) {
            size_t length = (size_t)(valueEnd - value);
            ok = *value == '"' && length >= 3 && length - 2 < sizeof id && !memchr(value, '\\', length);
            if (ok) {
                memcpy(id, value + 1, length - 2);
                id[length - 2] = 0;
            }
        } else {
            if (used > 1) body[used++] = ',';
            memcpy(body + used, p, (size_t)(valueEnd - p));
            used += (size_t)(valueEnd - p);
        }
        p = skip_space(valueEnd);
        if (*p == ',') p = skip_space(p + 1);
        else if (*p != '}') ok = false;
    }
    if (ok) {
        body[used++] = '}';
        body[used] = 0;
        ok = id[0] != 0 && save_json(collection, id, body);
    }
    CHECK(ok);
    free(body);
    return ok;
}

/* Saves each object of the JSON array `array` (NULL: none). */
static bool save_docs(CBLCollection* collection, const char* array) {
    if (!array) return true;
    const char* p = skip_space(array);
    if (*p != '[') return false;
    p = skip_space(p + 1);
    while (*p != ']') {
        const char* end = skip_value(p);
        if (!end || !save_object(collection, p, end)) return false;
        p = skip_space(end);
        if (*p == ',') p = skip_space(p + 1);
        else if (*p != ']') return false;
    }
    return true;
}

/* ---- Datasets ---- */

static bool load_numbers(CBLCollection* collection, int n) {
    bool ok = true;
    for (int i = 1; i <= n && ok; i++) {
        char id[32], body[64];
        snprintf(id, sizeof id, "doc%d", i);
        snprintf(body, sizeof body, "{\"number1\": %d, \"number2\": %d}", i, n - i);
        ok = save_json(collection, id, body);
    }
    return ok;
}

static bool load_names(CBLCollection* collection) {
    char path[1200];
    snprintf(path, sizeof path, "%s/conformance/data/names_100.json", shared_dir);
    FILE* file = fopen(path, "r");
    CHECK(file != NULL);
    if (!file) return false;
    char* line = NULL;
    size_t capacity = 0;
    int count = 0;
    bool ok = true;
    while (ok && getline(&line, &capacity, file) > 0) {
        size_t length = strlen(line);
        while (length > 0 && (line[length - 1] == '\n' || line[length - 1] == '\r')) line[--length] = 0;
        if (length == 0) continue;
        char id[32];
        snprintf(id, sizeof id, "doc-%03d", ++count);
        ok = save_json(collection, id, line);
    }
    free(line);
    fclose(file);
    CHECK(count == 100);
    return ok && count == 100;
}

/* Loads the case's dataset and extra docs, and creates its index. */
static bool load_dataset(CBLDatabase* db, CBLCollection* collection, const CaseData* d) {
    CBLError err = {0};
    int n = 0;
    char tail = 0;
    bool ok;
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    if (!d->dataset) ok = false;
    else if (strcmp(d->dataset, "inline") == 0) ok = d->docs != NULL && save_docs(collection, d->docs);
    else if (strcmp(d->dataset, "names_100_swift") == 0) ok = load_names(collection);
    else if (sscanf(d->dataset, "swift_numbers_%d%c", &n, &tail) == 1 && n > 0) ok = load_numbers(collection, n);
    else ok = false;
    ok = ok && save_docs(collection, d->extra_docs);
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    if (ok && d->index_count > 0) {
        ok = d->index_count == 1 && d->index_name && d->index_expressions;
        if (ok) {
            CBLFullTextIndexConfiguration config = {kCBLJSONLanguage, d->index_expressions, d->index_ignore_diacritics,
                                                    d->index_language, NULL};
            ok = CBLCollection_CreateFullTextIndex(collection, d->index_name, config, &err);
            CHECK_OK(ok, err);
        }
    }
    if (!ok) fprintf(stderr, "  cannot load dataset %s\n", d->dataset ? d->dataset : "(none)");
    return ok;
}

/* ---- Running a case ---- */

static int built_count, passed_count;

static void run_case(const Case* c, int number) {
    int failuresBefore = test_failures;
    uint64_t start = CBL_InstanceCount();
    CaseData d;
    if (!read_case(c->id, &d)) {
        test_checks++;
        test_failures++;
        fprintf(stderr, "case %s: not found in cases.jsonl\n", c->id);
        free_case(&d);
        return;
    }
    CHECK(d.query != NULL);
    CHECK(!d.has_setup);   /* none of the chosen cases needs setup ops */
    CHECK((d.params != NULL) == (c->params != NULL));

    char name[32];
    snprintf(name, sizeof name, "case-%d", number);
    CBLDatabase* db = open_database(work_dir, name);
    CBLError err = {0};
    CBLCollection* collection = db ? CBLDatabase_DefaultCollection(db, &err) : NULL;
    CHECK_OK(collection != NULL, err);
    Context context = {db, collection};
    if (collection && d.query && load_dataset(db, collection, &d)) {
        CBLQuery* built = c->build(&context, &err);
        CHECK_OK(built != NULL, err);
        if (built) built_count++;
        int position = 0;
        CBLQuery* expected = CBLDatabase_CreateQuery(db, kCBLJSONLanguage, d.query, &position, &err);
        CHECK_OK(expected != NULL, err);
        if (built && expected) {
            if (c->params) {
                CBLQueryParameters* params = CBLQueryParameters_New();
                c->params(params);
                CHECK_OK(CBLQuery_SetQueryParameters(built, params, &err), err);
                CBL_Release(params);
                CHECK_OK(CBLQuery_SetParameters(expected, d.params, &err), err);
            }
            char* builtJSON = CBLQuery_CopyJSON(built);
            char* expectedJSON = CBLQuery_CopyJSON(expected);
            CHECK(builtJSON != NULL && expectedJSON != NULL);
            if (builtJSON && expectedJSON) CHECK_STR(builtJSON, expectedJSON);
            unsigned columns = CBLQuery_ColumnCount(built);
            CHECK(columns > 0 && columns == CBLQuery_ColumnCount(expected));
            for (unsigned i = 0; i < columns; i++) {
                const char* title = CBLQuery_ColumnName(built, i);
                const char* other = CBLQuery_ColumnName(expected, i);
                CHECK(title != NULL && other != NULL);
                if (title && other) CHECK_STR(title, other);
            }
            size_t builtCount = 0, expectedCount = 0;
            char *builtIDs = NULL, *expectedIDs = NULL;
            char* builtRows = query_rows_text(built, &builtCount, &builtIDs);
            char* expectedRows = query_rows_text(expected, &expectedCount, &expectedIDs);
            CHECK_STR(builtRows, expectedRows);
            CHECK(builtCount == expectedCount);
            bool expectsNone = d.expect_count == 0 || d.expect_rows == 0 || (d.expect_ids && strcmp(d.expect_ids, "[]") == 0);
            CHECK(expectsNone ? builtCount == 0 : builtCount > 0);
            if (d.expect_count >= 0) CHECK((int64_t)builtCount == d.expect_count);
            if (d.expect_rows >= 0 && d.expect_count < 0) CHECK((int64_t)builtCount == d.expect_rows);
            if (d.expect_ids) CHECK_STR(builtIDs, d.expect_ids);
            if (getenv("CORPUS_VERBOSE") || test_failures != failuresBefore)
                fprintf(stderr, "  case %s: %s\n  JSON query: %s\n%s", c->id, builtJSON ? builtJSON : "(NULL)",
                        expectedJSON ? expectedJSON : "(NULL)", builtRows);
            free(builtRows);
            free(expectedRows);
            free(builtIDs);
            free(expectedIDs);
            CBL_FreeString(builtJSON);
            CBL_FreeString(expectedJSON);
        }
        CBL_Release(built);
        CBL_Release(expected);
    }
    CBL_Release(collection);
    if (db) {
        CHECK_OK(CBLDatabase_Delete(db, &err), err);
        CBL_Release(db);
    }
    free_case(&d);
    CHECK(CBL_InstanceCount() == start);
    if (test_failures == failuresBefore) {
        passed_count++;
        printf("ok   %s\n", c->id);
    } else {
        fprintf(stderr, "FAIL %s\n", c->id);
    }
}

int main(void) {
    const char* env = getenv("DOCLITE_SHARED_DIR");
#ifdef DOCLITE_SHARED_DIR
    const char* compiled = DOCLITE_SHARED_DIR;
#else
    const char* compiled = "../shared";
#endif
    snprintf(shared_dir, sizeof shared_dir, "%s", env && *env ? env : compiled);
    char cases_path[1200];
    snprintf(cases_path, sizeof cases_path, "%s/conformance/cases.jsonl", shared_dir);
    if (access(cases_path, R_OK) != 0) {
        printf("query_builder_corpus_test: skipped: %s/conformance not found (no %s; "
               "set DOCLITE_SHARED_DIR to the directory holding conformance/)\n", shared_dir, cases_path);
        return 77;
    }
    work_dir = test_directory("query_builder_corpus");
    uint64_t start = CBL_InstanceCount();
    int stored = load_corpus(cases_path);
    CHECK(stored > 0);
    size_t total = sizeof all_cases / sizeof all_cases[0];
    if (case_query)
        for (size_t i = 0; i < total; i++) run_case(&all_cases[i], (int)i + 1);
    CBL_Release(case_query);
    if (corpus_db) close_database(corpus_db);
    CHECK(CBL_InstanceCount() == start);
    printf("query_builder_corpus_test: %zu corpus cases, %d built through the C QueryBuilder, %d passed\n", total,
           built_count, passed_count);
    CHECK(built_count >= 20 && passed_count == built_count);
    return test_finish("query_builder_corpus_test");
}
