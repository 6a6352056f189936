/* A deterministic fuzz test of the QueryBuilder by handle: random queries built
   from every part constructor of doclite.h (expression trees of depth <= 4,
   select results, data sources, joins, orderings, limits, collations, typed
   parameters), assembled with CBLQueryBuilder_Create or step by step with
   CBLQueryBuilder_New/.../_Build, with random misuse injected (NULL parts, a
   part passed twice, a part of the wrong kind, a released part, a random
   integer as a handle, bad UTF-8, NULL names, clauses given twice, calls on a
   NULL or released builder) next to legitimate sharing (CBL_Retain first).

   What it proves: errors, not crashes (every NULL result carries a non-zero
   error code and a message; a misuse that the header says must fail does
   fail), and no leaks (CBL_InstanceCount() is back to its value after every
   iteration; the _valgrind variant checks memory).

   Reproducing: the PRNG is SplitMix64, reseeded per iteration from the seed
   and the iteration number, so one iteration replays alone:
     DOCLITE_FUZZ_SEED=<seed>        (default below)
     DOCLITE_FUZZ_ITERATIONS=<n>     (default 10000; 1000 under valgrind, detected
                                      by LD_PRELOAD naming vgpreload)
     DOCLITE_FUZZ_ONLY=<iteration>   (run just that iteration)
     DOCLITE_FUZZ_VERBOSE=1          (print each iteration's query JSON) */
#include <math.h>
#include <stdint.h>

#include "test_support.h"

/* ---- PRNG ------------------------------------------------------------------ */

static const uint64_t default_seed = 0xD0C11E5EED2024ULL;
static uint64_t seed;
static uint64_t rng;
static long iteration;

static uint64_t next64(void) {
    uint64_t z = (rng += 0x9E3779B97F4A7C15ULL);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ULL;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBULL;
    return z ^ (z >> 31);
}

static unsigned rnd(unsigned n) { return n ? (unsigned)(next64() % n) : 0; }
static bool chance(unsigned percent) { return rnd(100) < percent; }

#define PICK(pool) (pool[rnd((unsigned)(sizeof pool / sizeof *pool))])

/* ---- Checks ------------------------------------------------------------------ */

#define FCHECK(cond, what)                                                              \
    do {                                                                                \
        test_checks++;                                                                  \
        if (!(cond)) {                                                                  \
            test_failures++;                                                            \
            if (test_failures <= 60)                                                    \
                fprintf(stderr, "%s:%d: seed %llu iteration %ld: CHECK failed: %s (%s)\n", \
                        __FILE__, __LINE__, (unsigned long long)seed, iteration, #cond, (what)); \
        }                                                                               \
    } while (0)

/* A call returned NULL/false: its error must be set, with a message, and in
   DocLite's domain: a misuse is never reported as an SQLite failure. */
static void check_error_set(const CBLError* err, const char* call) {
    char* msg = CBLError_Message(err);
    FCHECK(err->code != 0, call);
    FCHECK(msg != NULL && msg[0] != '\0', call);
    if (err->domain == kCBLSQLiteDomain) fprintf(stderr, "%s: SQLite's domain: %s\n", call, msg ? msg : "?");
    FCHECK(err->domain != kCBLSQLiteDomain, call);
    CBL_FreeString(msg);
}

/* ---- State of one iteration ------------------------------------------------------ */

static CBLDatabase* db;
static CBLCollection* coll;

static unsigned misuse_percent;   /* chance of a misuse at each site; 0: none this iteration */
static bool expect_fail;          /* a misuse was injected that the header says must fail */
static const char* fail_why;      /* the first such misuse */
static CBLQueryExpression* stash; /* an expression to use in a second place */
static bool stash_retained;       /* ...retained first (legit), or not (a consumed part) */

static struct {
    long built, failed, rows, misuses, expected_failures, executed, execute_errors;
} stats;

static void note_fail(const char* why) {
    stats.misuses++;
    if (getenv("DOCLITE_FUZZ_TRACE")) fprintf(stderr, "misuse: %s\n", why);
    if (!expect_fail) {
        expect_fail = true;
        fail_why = why;
    }
}

static bool misuse_now(void) { return misuse_percent && chance(misuse_percent); }

/* ---- Values ------------------------------------------------------------------ */

static const char* const bad_utf8[] = {"\xff\xfe", "abc\xc3", "\xed\xa0\x80", "\xc0\xaf"};
static const char* const property_names[] = {"n", "s", "a", "d", "d.x", "a[0]", "d.list[1]", "missing",
                                             "nested.deep.v", "t", "f", "s", "n", "é", "a[-1]"};
static const char* const aliases[] = {"main", "other", "m", "nope"};
static const char* const from_aliases[] = {"main", "m"};
static const char* const join_aliases[] = {"other", "j", "main"};
static const char* const good_column_aliases[] = {"c1", "c2", "total"};
static const char* const column_aliases[] = {"c1", "c2", "n", "id", "$1", "c1", ""};
static const char* const strings[] = {"", "a", "alpha", "Beta", "ünïcödé", "%", "_", "x y", "null", "42", "😀"};
static const char* const good_param_names[] = {"p", "limit", "x_1"};
static const char* const param_names[] = {"p", "limit", "x_1", "Q9", "bad name", "", "é", "$p", "p-q"};
static const char* const like_patterns[] = {"%a%", "_", "\\%", "a%", "%", "", "[a]", "%%_%"};
static const char* const regex_patterns[] = {"^a", "(", "[", "a{2,1}", "*", ".*", "\\", "(?<n>a)", "a|b", "[[:alpha:]]+"};
static const char* const locales[] = {"en_US", "se", "fr_FR", "", "xx_YY", "not a locale!", "de@collation=phonebook", "C", "root"};
static const char* const index_names[] = {"fts_s", "nope", "", "fts s"};
static const char* const fts_queries[] = {"alpha", "a*", "\"", "alpha OR beta", "", "NEAR(", "-x"};
static const char* const var_names[] = {"x", "item", "v"};
static const char* const dict_keys[] = {"k", "v", "k", "x", "", "k.l"};
static const char* const parameter_json[] = {"{}", "{\"p\": 1}", "{\"limit\": 3, \"p\": \"a\"}", "[1]", "{",
                                              "{\"p\": [1, 2], \"x_1\": {\"a\": null}}", "null", ""};
static const char* const json_values[] = {"[1,2]", "{\"a\":1}", "3", "\"s\"", "null", "{", "[1,", "", "nan", "tru"};

/* A string argument of a part constructor: from `pool`, or (as misuse) bad UTF-8
   or NULL (a fault unless the argument is optional). Optional ones are often NULL. */
static const char* name_arg(const char* const* pool, unsigned count, bool optional) {
    if (misuse_now()) {
        if (rnd(2)) {
            note_fail("bad UTF-8 string");
            return bad_utf8[rnd(4)];
        }
        if (!optional) note_fail("NULL string");
        return NULL;
    }
    if (optional && chance(30)) return NULL;
    return pool[rnd(count)];
}
#define NAME(pool, optional) name_arg(pool, (unsigned)(sizeof pool / sizeof *pool), optional)

static int64_t random_int(void) {
    switch (rnd(8)) {
    case 0: return 0;
    case 1: return -1;
    case 2: return INT64_MAX;
    case 3: return INT64_MIN;
    case 4: return (int64_t)next64();
    default: return (int64_t)rnd(100);
    }
}

static double random_double(void) {
    switch (rnd(9)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return -INFINITY;
    case 3: return -0.0;
    case 4: return 1e308;
    case 5: return 4.9e-324;
    case 6: return 3.14159;
    default: return (double)rnd(1000) / 8.0 - 50;
    }
}

static float random_float(void) {
    switch (rnd(5)) {
    case 0: return NAN;
    case 1: return INFINITY;
    case 2: return 1.1f;
    case 3: return -0.0f;
    default: return (float)rnd(100) / 4.0f;
    }
}

/* ---- Misuse ------------------------------------------------------------------ */

enum { K_EXPR, K_SELECT, K_SOURCE, K_JOIN, K_ORDER, K_COLLATION, K_LIMIT, K_COUNT };

/* A valid part of kind `kind`, for the wrong-kind misuse. */
static void* make_simple(int kind) {
    switch (kind) {
    case K_EXPR: return CBLQueryExpression_Int(1);
    case K_SELECT: return CBLQuerySelectResult_Property("n");
    case K_SOURCE: return CBLQueryDataSource_Collection(coll);
    case K_JOIN: return CBLQueryJoin_CrossJoin(CBLQueryDataSource_Collection(coll));
    case K_ORDER: return CBLQueryOrdering_Ascending(CBLQueryExpression_Int(1));
    case K_COLLATION: return CBLQueryCollation_ASCII(true);
    default: return CBLQueryLimit_Limit(CBLQueryExpression_Int(1));
    }
}

/* A handle DocLite never made: handles are multiples of 0x10, this one is not. */
static void* random_handle(void) {
    return (void*)(uintptr_t)(((next64() & 0xFFFFFFF) << 4) | (1 + rnd(15)));
}

static bool is_live(const void* handle) {
    if (!CBL_Retain(handle)) return false;
    CBL_Release(handle);
    return true;
}

/* Puts the fresh +1 `part` (of kind `kind`) in a part position, or, as misuse,
   something else there (releasing `part`). `required`: NULL is a fault there. */
static void* place(void* part, int kind, bool required) {
    bool reuse = kind == K_EXPR && stash && misuse_percent && chance(20);
    if (!reuse && !misuse_now()) return part;
    switch (reuse ? 8 : rnd(kind == K_EXPR ? 8 : 4)) {
    case 0:
        if (!required && expect_fail) return part;   /* dropping it could drop the misuse noted inside it */
        CBL_Release(part);
        if (required) note_fail("NULL part");
        return NULL;
    case 1:
        CBL_Release(part);
        note_fail("released part");
        return part;
    case 2:
        CBL_Release(part);
        note_fail("part of the wrong kind");
        return make_simple((kind + 1 + (int)rnd(K_COUNT - 1)) % K_COUNT);
    case 3:
        CBL_Release(part);
        note_fail("random integer as a handle");
        return random_handle();
    case 4: /* used here, and again later without a retain */
        if (stash) return part;
        stash = part;
        stash_retained = false;
        return part;
    case 5: /* retained, used here and later: legit */
    case 6:
        if (stash) return part;
        stash = CBL_Retain(part);
        stash_retained = true;
        return part;
    default: { /* the stashed part, used a second time */
        if (!stash || (stash_retained && expect_fail)) return part;   /* as in case 0 */
        CBL_Release(part);
        CBLQueryExpression* again = stash;
        if (!stash_retained) note_fail(is_live(again) ? "part passed twice (not yet consumed at its second use)"
                                                      : "part passed twice (consumed before its second use)");
        stash = NULL;
        return again;
    }
    }
}

#define PLACE_E(e, required) ((CBLQueryExpression*)place((e), K_EXPR, (required)))

/* ---- Expressions ---------------------------------------------------------------- */

typedef CBLQueryExpression* (*Unary)(CBLQueryExpression*);
typedef CBLQueryExpression* (*Binary)(CBLQueryExpression*, CBLQueryExpression*);
typedef CBLQueryExpression* (*Ternary)(CBLQueryExpression*, CBLQueryExpression*, CBLQueryExpression*);

static const Unary unaries[] = {
    CBLQueryExpression_Not, CBLQueryExpression_Negated, CBLQueryExpression_IsValued,
    CBLQueryExpression_IsNotValued, CBLQueryFunction_Count, CBLQueryFunction_Sum, CBLQueryFunction_Avg,
    CBLQueryFunction_Min, CBLQueryFunction_Max, CBLQueryFunction_Lower, CBLQueryFunction_Upper,
    CBLQueryFunction_Length, CBLQueryFunction_Abs, CBLQueryFunction_Acos, CBLQueryFunction_Asin,
    CBLQueryFunction_Atan, CBLQueryFunction_Ceil, CBLQueryFunction_Cos, CBLQueryFunction_Degrees,
    CBLQueryFunction_Exp, CBLQueryFunction_Floor, CBLQueryFunction_Ln, CBLQueryFunction_Log,
    CBLQueryFunction_Radians, CBLQueryFunction_Round, CBLQueryFunction_Sign, CBLQueryFunction_Sin,
    CBLQueryFunction_Sqrt, CBLQueryFunction_Tan, CBLQueryFunction_Trunc, CBLQueryFunction_Ltrim,
    CBLQueryFunction_Rtrim, CBLQueryFunction_Trim, CBLQueryFunction_StringToMillis,
    CBLQueryFunction_StringToUTC, CBLQueryFunction_MillisToString, CBLQueryFunction_MillisToUTC,
    CBLQueryArrayFunction_Length};

static const Binary binaries[] = {
    CBLQueryExpression_EqualTo, CBLQueryExpression_NotEqualTo, CBLQueryExpression_LessThan,
    CBLQueryExpression_LessThanOrEqualTo, CBLQueryExpression_GreaterThan,
    CBLQueryExpression_GreaterThanOrEqualTo, CBLQueryExpression_And, CBLQueryExpression_Or,
    CBLQueryExpression_Like, CBLQueryExpression_Add, CBLQueryExpression_Subtract,
    CBLQueryExpression_Multiply, CBLQueryExpression_Divide, CBLQueryExpression_Modulo,
    CBLQueryExpression_Is, CBLQueryExpression_IsNot, CBLQueryExpression_Regex, CBLQueryFunction_Atan2,
    CBLQueryFunction_Power, CBLQueryFunction_RoundDigits, CBLQueryFunction_TruncDigits,
    CBLQueryFunction_Contains, CBLQueryArrayFunction_Contains};

static const Ternary array_expressions[] = {CBLQueryArrayExpression_Any, CBLQueryArrayExpression_Every,
                                            CBLQueryArrayExpression_AnyAndEvery};

static CBLQueryExpression* gen_expr(int depth);

static CBLQueryExpression* gen_meta(const char* alias) {
    switch (rnd(5)) {
    case 0: return CBLQueryMeta_ID(alias);
    case 1: return CBLQueryMeta_Sequence(alias);
    case 2: return CBLQueryMeta_IsDeleted(alias);
    case 3: return CBLQueryMeta_Expiration(alias);
    default: return CBLQueryMeta_RevisionID(alias);
    }
}

/* The FROM's alias this iteration (NULL: none), for aliases that usually resolve. */
static const char* from_alias;

static const char* alias_arg(bool optional) {
    if (chance(80) && !misuse_percent) return optional && chance(50) ? NULL : (from_alias ? from_alias : "main");
    return NAME(aliases, optional);
}

static CBLQueryExpression* gen_leaf(void) {
    unsigned pick = rnd(40);
    if (pick >= 20 && pick < 36) pick = pick % 8; /* mostly properties and literals */
    else if (pick >= 36) pick = chance(40) ? 16 + (pick - 36) : 20; /* MATCH, RANK, unbound variables, COUNT(*): rare */
    else if (pick >= 16 && pick < 20) pick = 20;
    switch (pick) {
    case 0: case 1: case 2: return CBLQueryExpression_Property(NAME(property_names, false));
    case 3: {
        const char* name = NAME(property_names, false);
        return CBLQueryExpression_PropertyFrom(name, alias_arg(false));
    }
    case 4: return CBLQueryExpression_All(alias_arg(true));
    case 5: case 6: return CBLQueryExpression_String(NAME(strings, false));
    case 7: return CBLQueryExpression_Int(random_int());
    case 8: return CBLQueryExpression_Double(random_double());
    case 9: return CBLQueryExpression_Bool(rnd(2));
    case 10: return CBLQueryExpression_Null();
    case 11: return CBLQueryExpression_Parameter(chance(80) ? NAME(good_param_names, false) : NAME(param_names, false));
    case 12: return CBLQueryExpression_Float(random_float());
    case 13: return CBLQueryExpression_Date(random_int());
    case 14: return gen_meta(alias_arg(true));
    case 15: return rnd(2) ? CBLQueryFunction_E() : CBLQueryFunction_Pi();
    case 16: {
        const char* index = NAME(index_names, false);
        const char* alias = NAME(aliases, true);
        return CBLQueryFullTextFunction_Match(index, alias, NAME(fts_queries, false));
    }
    case 17: {
        const char* index = NAME(index_names, false);
        return CBLQueryFullTextFunction_Rank(index, NAME(aliases, true));
    }
    case 18: return CBLQueryArrayExpression_Variable(NAME(var_names, false)); /* unbound */
    case 19: return CBLQueryFunction_Count(NULL);
    default: return CBLQueryExpression_Int((int64_t)rnd(10));
    }
}

static CBLQueryExpression* child(int depth) { return PLACE_E(gen_expr(depth), true); }

static CBLQueryCollation* gen_collation(void) {
    if (chance(35)) return CBLQueryCollation_ASCII(rnd(2));
    bool caseSensitive = rnd(2), diacritics = rnd(2);
    return CBLQueryCollation_Unicode(caseSensitive, diacritics, NAME(locales, true));
}

static CBLQueryExpression* gen_expr(int depth) {
    if (depth <= 0 || chance(20)) return gen_leaf();
    switch (rnd(12)) {
    case 0: case 1: {
        Unary fn = PICK(unaries);
        if (!chance(15)) /* aggregates (COUNT..MAX, at 4..8) only now and then */
            while (fn == unaries[4] || fn == unaries[5] || fn == unaries[6] || fn == unaries[7] || fn == unaries[8])
                fn = PICK(unaries);
        CBLQueryExpression* a = PLACE_E(gen_expr(depth - 1), fn != CBLQueryFunction_Count);
        return fn(a);
    }
    case 2: case 3: case 4: case 5: {
        Binary fn = PICK(binaries);
        CBLQueryExpression* a = child(depth - 1);
        CBLQueryExpression* b;
        if (fn == CBLQueryExpression_Like && chance(70))
            b = PLACE_E(CBLQueryExpression_String(PICK(like_patterns)), true);
        else if (fn == CBLQueryExpression_Regex && chance(70))
            b = PLACE_E(CBLQueryExpression_String(PICK(regex_patterns)), true);
        else
            b = child(depth - 1);
        return fn(a, b);
    }
    case 6: {
        CBLQueryExpression* a = child(depth - 1);
        CBLQueryExpression* low = child(depth - 1);
        CBLQueryExpression* high = child(depth - 1);
        return CBLQueryExpression_Between(a, low, high);
    }
    case 7: {
        CBLQueryExpression* a = child(depth - 1);
        CBLQueryExpression* items[4];
        size_t count = rnd(5);
        for (size_t i = 0; i < count; i++) items[i] = child(depth - 2);
        return CBLQueryExpression_In(a, count ? items : NULL, count);
    }
    case 8: {
        CBLQueryExpression* a = child(depth - 1);
        CBLQueryCollation* collation = place(gen_collation(), K_COLLATION, true);
        return CBLQueryExpression_Collate(a, collation);
    }
    case 9: {
        CBLQueryExpression* items[4];
        size_t count = rnd(5);
        for (size_t i = 0; i < count; i++) items[i] = child(depth - 2);
        return CBLQueryExpression_Array(count ? items : NULL, count);
    }
    case 10: {
        CBLQueryExpression* values[4];
        const char* keys[4];
        size_t count = rnd(5);
        for (size_t i = 0; i < count; i++) {
            static const char* const unique_keys[] = {"k0", "k1", "k2", "k3"};
            keys[i] = misuse_percent && chance(30) ? NAME(dict_keys, false) : unique_keys[i];
            for (size_t j = 0; j < i; j++)
                if (keys[i] && keys[j] && strcmp(keys[i], keys[j]) == 0) note_fail("duplicate dictionary key");
            values[i] = child(depth - 2);
        }
        return CBLQueryExpression_Dictionary(count ? keys : NULL, count ? values : NULL, count);
    }
    default: {
        Ternary fn = PICK(array_expressions);
        const char* name = PICK(var_names);
        CBLQueryExpression* variable;
        if (misuse_percent && chance(15)) {
            note_fail("invalid array variable");
            switch (rnd(3)) {
            case 0: variable = NULL; break;
            case 1: variable = CBLQueryExpression_Property(name); break;
            default: variable = CBLQueryExpression_Int(3); break;
            }
        } else {
            variable = CBLQueryArrayExpression_Variable(name);
        }
        CBLQueryExpression* in = chance(60) ? PLACE_E(CBLQueryExpression_Property(rnd(2) ? "a" : "d.list"), true)
                                            : child(depth - 1);
        CBLQueryExpression* satisfies;
        if (chance(60)) {
            CBLQueryExpression* item = CBLQueryArrayExpression_Variable(rnd(2) ? name : "x.v");
            satisfies = CBLQueryExpression_GreaterThan(item, child(depth - 2));
        } else {
            satisfies = child(depth - 1);
        }
        return fn(variable, in, satisfies);
    }
    }
}

/* ---- Other parts ------------------------------------------------------------------ */

static CBLQuerySelectResult* gen_select(void) {
    switch (rnd(5)) {
    case 0: case 1: return CBLQuerySelectResult_Expression(PLACE_E(gen_expr((int)rnd(4)), true));
    case 2: return CBLQuerySelectResult_Property(NAME(property_names, false));
    case 3: {
        CBLQueryExpression* e = PLACE_E(gen_expr((int)rnd(3)), true);
        return CBLQuerySelectResult_ExpressionAs(e, chance(80) ? PICK(good_column_aliases) : NAME(column_aliases, false));
    }
    default: return CBLQuerySelectResult_All(alias_arg(true));
    }
}

/* A data source named `alias` (NULL: not aliased); with misuse, a bad collection or alias. */
static CBLQueryDataSource* gen_source(const char* alias) {
    const CBLCollection* c = coll;
    const CBLDatabase* d = db;
    if (misuse_now()) {
        note_fail(rnd(2) ? "NULL collection or database" : "random integer as a collection or database");
        c = rnd(2) ? NULL : random_handle();
        d = (const CBLDatabase*)c;
    }
    if (alias && misuse_now()) {
        note_fail("bad UTF-8 alias");
        alias = bad_utf8[rnd(4)];
    }
    bool database = chance(10);
    if (!alias) return database ? CBLQueryDataSource_Database(d) : CBLQueryDataSource_Collection(c);
    return database ? CBLQueryDataSource_DatabaseAs(d, alias) : CBLQueryDataSource_CollectionAs(c, alias);
}
#define SOURCE(pool) gen_source(chance(10) ? NULL : PICK(pool))
#define FROM_SOURCE() gen_source(from_alias)

static CBLQueryJoin* gen_join(void) {
    CBLQueryDataSource* source = place(chance(85) ? gen_source("other") : SOURCE(join_aliases), K_SOURCE, true);
    if (rnd(3) == 0) return CBLQueryJoin_CrossJoin(source);
    CBLQueryExpression* on;
    if (misuse_percent && chance(10)) {
        note_fail("NULL ON");
        on = NULL;
    } else if (chance(50)) {
        on = CBLQueryExpression_EqualTo(CBLQueryExpression_PropertyFrom(PICK(property_names), from_alias ? from_alias : "main"),
                                        CBLQueryExpression_PropertyFrom(PICK(property_names), "other"));
        on = PLACE_E(on, true);
    } else {
        on = PLACE_E(gen_expr(2), true);
    }
    return rnd(2) ? CBLQueryJoin_Join(source, on) : CBLQueryJoin_LeftJoin(source, on);
}

static CBLQueryOrdering* gen_ordering(void) {
    CBLQueryExpression* e = PLACE_E(gen_expr((int)rnd(3)), true);
    return rnd(2) ? CBLQueryOrdering_Ascending(e) : CBLQueryOrdering_Descending(e);
}

static CBLQueryExpression* gen_limit_value(void) {
    switch (rnd(7)) {
    case 0: return CBLQueryExpression_Int(-1 - (int64_t)rnd(5));
    case 1: return CBLQueryExpression_String(rnd(2) ? "ten" : "3");
    case 2: return CBLQueryExpression_Parameter("limit");
    case 3: return CBLQueryExpression_Double(rnd(2) ? NAN : 2.5);
    case 4: return gen_expr(1);
    default: return CBLQueryExpression_Int((int64_t)rnd(30));
    }
}

static CBLQueryLimit* gen_limit(void) {
    CBLQueryExpression* limit = PLACE_E(gen_limit_value(), true);
    if (chance(50)) return CBLQueryLimit_Limit(limit);
    CBLQueryExpression* offset = chance(30) ? NULL : PLACE_E(gen_limit_value(), false);
    return CBLQueryLimit_LimitOffset(limit, offset);
}

/* ---- Parameters ------------------------------------------------------------------- */

static bool valid_parameter_name(const char* name) {
    if (!name || !*name) return false;
    for (const char* p = name; *p; p++)
        if (!((*p >= 'a' && *p <= 'z') || (*p >= 'A' && *p <= 'Z') || (*p >= '0' && *p <= '9') || *p == '_'))
            return false;
    return true;
}

static bool valid_json_value(const char* json) {
    for (size_t i = 0; i < 5; i++)
        if (strcmp(json, json_values[i]) == 0) return true;
    return false;
}

/* Random typed parameters; `*bad` when a mistake was made while setting them. */
static CBLQueryParameters* gen_parameters(bool* bad) {
    CBLQueryParameters* parameters = CBLQueryParameters_New();
    *bad = false;
    unsigned count = rnd(4);
    for (unsigned i = 0; i < count; i++) {
        const char* name = chance(85) ? PICK(param_names) : (rnd(2) ? NULL : bad_utf8[rnd(4)]);
        /* A setter on NULL does nothing: its mistakes are not the handle's. */
        CBLQueryParameters* target = chance(5) ? NULL : parameters;
        bool mistake = !valid_parameter_name(name);
        switch (rnd(8)) {
        case 0: {
            bool badText = chance(10);
            const char* value = badText ? bad_utf8[rnd(4)] : PICK(strings);
            mistake = mistake || badText;
            CBLQueryParameters_SetString(target, name, value);
            break;
        }
        case 1: CBLQueryParameters_SetInt(target, name, random_int()); break;
        case 2: {
            double value = random_double();
            mistake = mistake || !isfinite(value);
            CBLQueryParameters_SetDouble(target, name, value);
            break;
        }
        case 3: {
            float value = random_float();
            mistake = mistake || !isfinite(value);
            CBLQueryParameters_SetFloat(target, name, value);
            break;
        }
        case 4: CBLQueryParameters_SetBool(target, name, rnd(2)); break;
        case 5: CBLQueryParameters_SetDate(target, name, (int64_t)rnd(2000000000) * 1000); break;
        case 6: CBLQueryParameters_SetNull(target, name); break;
        default: {
            const char* json = PICK(json_values);
            mistake = mistake || !valid_json_value(json);
            CBLQueryParameters_SetJSON(target, name, json);
            break;
        }
        }
        if (target && mistake) *bad = true;
    }
    if (chance(20)) {
        CBLQueryParameters* copy = CBLQueryParameters_Copy(parameters);
        CBL_Release(parameters);
        parameters = copy;
    }
    return parameters;
}

/* ---- Running a query ------------------------------------------------------------------- */

static void read_row(CBLQuery* query, CBLResultSet* rs, unsigned columns) {
    for (unsigned i = 0; i <= columns; i++) { /* one past the end too */
        CBLValueType type = CBLResultSet_TypeAtIndex(rs, i);
        (void)CBLResultSet_BoolAtIndex(rs, i);
        (void)CBLResultSet_IntAtIndex(rs, i);
        (void)CBLResultSet_DoubleAtIndex(rs, i);
        const char* string = CBLResultSet_StringAtIndex(rs, i);
        const char* json = CBLResultSet_JSONAtIndex(rs, i);
        FCHECK(type >= kCBLValueMissing && type <= kCBLValueDict, "type in range");
        FCHECK((type == kCBLValueString) == (string != NULL), "a string column has a string");
        FCHECK((type == kCBLValueMissing) == (json == NULL), "JSON is NULL only when MISSING");
        if (i == columns) FCHECK(type == kCBLValueMissing, "no column past the end");
        const char* name = query ? CBLQuery_ColumnName(query, i) : NULL;
        if (name) {
            (void)CBLResultSet_TypeForKey(rs, name);
            (void)CBLResultSet_BoolForKey(rs, name);
            (void)CBLResultSet_IntForKey(rs, name);
            (void)CBLResultSet_DoubleForKey(rs, name);
            (void)CBLResultSet_StringForKey(rs, name);
            (void)CBLResultSet_JSONForKey(rs, name);
        }
    }
    FCHECK(CBLResultSet_TypeForKey(rs, "no such column") == kCBLValueMissing, "unknown key is MISSING");
    char* dict = CBLResultSet_CreateRowDictJSON(rs);
    char* array = CBLResultSet_CreateRowArrayJSON(rs);
    FCHECK(dict != NULL && array != NULL, "row JSON");
    CBL_FreeString(dict);
    CBL_FreeString(array);
}

/* Runs `query` and reads every row (up to 300) with every getter. */
static void execute(CBLQuery* query) {
    CBLError err = {0};
    unsigned columns = CBLQuery_ColumnCount(query);
    stats.executed++;
    CBLResultSet* rs = CBLQuery_Execute(query, &err);
    if (!rs) {
        stats.execute_errors++;
        check_error_set(&err, "CBLQuery_Execute returned NULL");
        return;
    }
    long rows = 0;
    memset(&err, 0, sizeof err);
    while (rows < 300 && CBLResultSet_Next(rs, &err)) {
        read_row(query, rs, columns);
        rows++;
    }
    if (rows < 300 && err.code != 0) {
        stats.execute_errors++;
        check_error_set(&err, "CBLResultSet_Next failed");
    }
    stats.rows += rows;
    CBL_Release(rs);
}

static void exercise(CBLQuery* query) {
    CBLError err = {0};
    char* json = CBLQuery_CopyJSON(query);
    FCHECK(json != NULL, "CBLQuery_CopyJSON of a built query");
    if (getenv("DOCLITE_FUZZ_VERBOSE")) printf("iteration %ld: %s\n", iteration, json ? json : "(null)");
    if (json && chance(15)) {
        int position = 0;
        CBLQuery* copy = CBLDatabase_CreateQuery(db, kCBLJSONLanguage, json, &position, &err);
        if (!copy) check_error_set(&err, "CBLDatabase_CreateQuery of CBLQuery_CopyJSON");
        CBL_Release(copy);
    }
    CBL_FreeString(json);
    if (chance(20)) {
        memset(&err, 0, sizeof err);
        char* plan = CBLQuery_Explain(query, &err);
        if (!plan) check_error_set(&err, "CBLQuery_Explain returned NULL");
        CBL_FreeString(plan);
    }
    if (chance(50)) {
        bool bad;
        CBLQueryParameters* parameters = gen_parameters(&bad);
        char* text = CBLQueryParameters_CopyJSON(parameters);
        memset(&err, 0, sizeof err);
        bool ok = CBLQuery_SetQueryParameters(query, parameters, &err);
        if (!ok) check_error_set(&err, "CBLQuery_SetQueryParameters failed");
        FCHECK(ok == (text != NULL), "CopyJSON is NULL exactly after a mistake");
        if (bad) FCHECK(!ok, "a mistake in the parameters is reported");
        CBL_FreeString(text);
        CBL_Release(parameters);
        CBLQueryParameters* back = CBLQuery_CopyParameters(query);
        CBL_Release(back);
    } else if (chance(20)) {
        memset(&err, 0, sizeof err);
        if (!CBLQuery_SetParameters(query, chance(10) ? NULL : PICK(parameter_json), &err))
            check_error_set(&err, "CBLQuery_SetParameters failed");
    }
    execute(query);
    if (chance(10)) execute(query);
    if (chance(10)) { /* the result set keeps its query alive */
        memset(&err, 0, sizeof err);
        CBLResultSet* rs = CBLQuery_Execute(query, &err);
        CBL_Release(query);
        query = NULL;
        if (rs) {
            while (CBLResultSet_Next(rs, &err)) {} /* drained */
            CBL_Release(rs);
        }
        return;
    }
    CBL_Release(query);
}

/* ---- One iteration ----------------------------------------------------------------- */

static CBLQuery* build_with_create(CBLError* err) {
    CBLQuerySelectResult* select[4];
    CBLQueryJoin* joins[2];
    CBLQueryExpression* groupBy[2];
    CBLQueryOrdering* orderBy[3];
    size_t selectCount = rnd(5), joinCount = chance(60) ? 0 : chance(80) ? 1 : 2;
    size_t groupCount = chance(20) ? 1 + rnd(2) : 0, orderCount = rnd(4);
    for (size_t i = 0; i < selectCount; i++) select[i] = place(gen_select(), K_SELECT, true);
    CBLQueryDataSource* from = place(FROM_SOURCE(), K_SOURCE, true);
    for (size_t i = 0; i < joinCount; i++) joins[i] = place(gen_join(), K_JOIN, true);
    CBLQueryExpression* where = chance(70) ? PLACE_E(gen_expr(4), false) : NULL;
    for (size_t i = 0; i < groupCount; i++) groupBy[i] = PLACE_E(gen_expr((int)rnd(2)), true);
    CBLQueryExpression* having = chance(groupCount ? 50 : 4) ? PLACE_E(gen_expr(2), false) : NULL;
    if (having && !groupCount) note_fail("HAVING without GROUP BY");
    for (size_t i = 0; i < orderCount; i++) orderBy[i] = place(gen_ordering(), K_ORDER, true);
    CBLQueryLimit* limit = chance(40) ? place(gen_limit(), K_LIMIT, false) : NULL;
    return CBLQueryBuilder_Create(selectCount ? select : NULL, selectCount, chance(20), from,
                                  joinCount ? joins : NULL, joinCount, where, groupCount ? groupBy : NULL,
                                  groupCount, having, orderCount ? orderBy : NULL, orderCount, limit, err);
}

enum { A_SELECT, A_FROM, A_JOIN, A_WHERE, A_GROUP, A_HAVING, A_ORDER, A_LIMIT, A_DISTINCT, A_STRAY };

static CBLQuery* build_step_by_step(CBLError* err) {
    int actions[24];
    int count = 0, groups = 0, havings = 0;
    int selects = (int)rnd(5), joins = chance(60) ? 0 : chance(80) ? 1 : 2, orders = (int)rnd(4);
    int froms = 1, wheres = chance(70) ? 1 : 0, limits = chance(40) ? 1 : 0;
    groups = chance(20) ? 1 + (int)rnd(2) : 0;
    havings = chance(groups ? 50 : 4) ? 1 : 0;
    if (misuse_now()) { froms = rnd(2) ? 0 : 2; note_fail(froms ? "FROM given twice" : "no FROM"); }
    if (misuse_now()) { wheres = 2; note_fail("WHERE given twice"); }
    if (misuse_now()) { limits = 2; note_fail("LIMIT given twice"); }
    if (havings && !groups) note_fail("HAVING without GROUP BY");
    if (havings && misuse_now()) { havings = 2; note_fail("HAVING given twice"); }
    for (int i = 0; i < selects; i++) actions[count++] = A_SELECT;
    for (int i = 0; i < froms; i++) actions[count++] = A_FROM;
    for (int i = 0; i < joins; i++) actions[count++] = A_JOIN;
    for (int i = 0; i < wheres; i++) actions[count++] = A_WHERE;
    for (int i = 0; i < groups; i++) actions[count++] = A_GROUP;
    for (int i = 0; i < havings; i++) actions[count++] = A_HAVING;
    for (int i = 0; i < orders; i++) actions[count++] = A_ORDER;
    for (int i = 0; i < limits; i++) actions[count++] = A_LIMIT;
    if (chance(20)) actions[count++] = A_DISTINCT;
    if (misuse_percent && chance(30)) actions[count++] = A_STRAY;
    for (int i = count - 1; i > 0; i--) { /* any order */
        int j = (int)rnd((unsigned)i + 1), t = actions[i];
        actions[i] = actions[j];
        actions[j] = t;
    }
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    for (int i = 0; i < count; i++) {
        if (getenv("DOCLITE_FUZZ_TRACE")) fprintf(stderr, "action %d\n", actions[i]);
        switch (actions[i]) {
        case A_SELECT: CBLQueryBuilder_Select(builder, place(gen_select(), K_SELECT, true)); break;
        case A_FROM: CBLQueryBuilder_From(builder, place(FROM_SOURCE(), K_SOURCE, true)); break;
        case A_JOIN: CBLQueryBuilder_Join(builder, place(gen_join(), K_JOIN, true)); break;
        case A_WHERE: CBLQueryBuilder_Where(builder, PLACE_E(gen_expr(4), true)); break;
        case A_GROUP: CBLQueryBuilder_GroupBy(builder, PLACE_E(gen_expr((int)rnd(2)), true)); break;
        case A_HAVING: CBLQueryBuilder_Having(builder, PLACE_E(gen_expr(2), true)); break;
        case A_ORDER: CBLQueryBuilder_OrderBy(builder, place(gen_ordering(), K_ORDER, true)); break;
        case A_LIMIT: CBLQueryBuilder_Limit(builder, place(gen_limit(), K_LIMIT, true)); break;
        case A_DISTINCT: CBLQueryBuilder_SetDistinct(builder, rnd(2)); break;
        default: { /* a clause given to a NULL or released builder: its part is released, nothing else */
            CBLQueryBuilder* other = NULL;
            unsigned saved = misuse_percent; /* its parts are not ours: no misuse in them */
            misuse_percent = 0;
            if (rnd(2)) {
                other = CBLQueryBuilder_New();
                CBL_Release(other);
            }
            switch (rnd(4)) {
            case 0: CBLQueryBuilder_Where(other, gen_expr(2)); break;
            case 1: CBLQueryBuilder_Select(other, gen_select()); break;
            case 2: CBLQueryBuilder_From(other, FROM_SOURCE()); break;
            default: CBLQueryBuilder_SetDistinct(other, true); break;
            }
            CBLError otherErr = {0};
            CBLQuery* none = CBLQueryBuilder_Build(other, &otherErr);
            FCHECK(none == NULL, "CBLQueryBuilder_Build on a NULL or released builder");
            if (!none) check_error_set(&otherErr, "CBLQueryBuilder_Build on a NULL or released builder");
            CBL_Release(none);
            misuse_percent = saved;
            break;
        }
        }
    }
    CBLQuery* query = CBLQueryBuilder_Build(builder, err);
    if (chance(25)) { /* the builder is unchanged and builds again */
        CBLError again = {0};
        CBLQuery* second = CBLQueryBuilder_Build(builder, &again);
        FCHECK((second != NULL) == (query != NULL), "a second CBLQueryBuilder_Build gives the same outcome");
        if (second && query) {
            char* a = CBLQuery_CopyJSON(query);
            char* b = CBLQuery_CopyJSON(second);
            FCHECK(a && b && strcmp(a, b) == 0, "a second CBLQueryBuilder_Build gives the same query");
            CBL_FreeString(a);
            CBL_FreeString(b);
        }
        CBL_Release(second);
    }
    CBL_Release(builder);
    return query;
}

static void run_iteration(long i) {
    iteration = i;
    rng = seed ^ (0xA0761D6478BD642FULL * (uint64_t)(i + 1));
    (void)next64();
    misuse_percent = chance(50) ? 2 + rnd(5) : 0;
    from_alias = chance(60) ? "main" : chance(50) ? NULL : PICK(from_aliases);
    expect_fail = false;
    fail_why = NULL;
    stash = NULL;
    stash_retained = false;

    uint64_t before = CBL_InstanceCount();
    CBLError err = {0};
    CBLQuery* query = rnd(2) ? build_with_create(&err) : build_step_by_step(&err);
    if (stash && stash_retained) CBL_Release(stash); /* the retain of a part never used again */
    stash = NULL;
    if (!query) {
        stats.failed++;
        check_error_set(&err, "building returned NULL");
        if (getenv("DOCLITE_FUZZ_VERBOSE")) {
            char* msg = CBLError_Message(&err);
            printf("iteration %ld: %s: %s\n", i, expect_fail ? fail_why : "no misuse", msg ? msg : "?");
            CBL_FreeString(msg);
        }
    } else {
        stats.built++;
        if (expect_fail) {
            char* json = CBLQuery_CopyJSON(query);
            FCHECK(!expect_fail, fail_why);
            fprintf(stderr, "  built anyway: %s\n", json ? json : "(null)");
            CBL_FreeString(json);
        }
        exercise(query);
    }
    if (expect_fail) stats.expected_failures++;
    uint64_t after = CBL_InstanceCount();
    if (after != before)
        fprintf(stderr, "seed %llu iteration %ld: %llu handles before, %llu after\n", (unsigned long long)seed, i,
                (unsigned long long)before, (unsigned long long)after);
    FCHECK(after == before, "every part consumed or released exactly once");
}

/* ---- Setup ------------------------------------------------------------------------- */

static void fill(void) {
    static const char* const documents[] = {
        "{\"n\": 1, \"s\": \"alpha\", \"a\": [1, 2, 3], \"t\": \"x\"}",
        "{\"n\": 2.5, \"s\": \"Beta\", \"a\": [], \"d\": {\"x\": 1, \"list\": [\"p\", \"q\"]}}",
        "{\"n\": -3, \"s\": \"\", \"a\": [\"alpha\", null], \"f\": true}",
        "{\"n\": null, \"s\": null, \"a\": null, \"d\": null}",
        "{\"s\": \"ünïcödé\", \"nested\": {\"deep\": {\"v\": 7}}}",
        "{\"n\": 9007199254740993, \"s\": \"42\", \"a\": [[1], {\"v\": 2}]}",
        "{\"n\": 0, \"f\": false, \"d\": {\"x\": \"y\", \"list\": []}}",
        "{\"n\": 1e300, \"s\": \"alpha beta\", \"t\": \"x\"}",
        "{\"n\": -0.5, \"a\": [{\"v\": 1}, {\"v\": 5}], \"s\": \"a%b_c\"}",
        "{}",
        "{\"n\": \"7\", \"s\": 7, \"a\": \"not an array\", \"d\": [1]}",
        "{\"n\": 3, \"s\": \"alpha\", \"t\": \"y\", \"é\": 1}",
        "{\"n\": 4, \"s\": \"gamma\", \"a\": [4, 4, 4], \"d\": {\"x\": {\"y\": {\"z\": 1}}}}",
        "{\"n\": 2000000000000, \"s\": \"2024-01-10T14:31:14.000Z\"}",
        "{\"n\": 5, \"s\": \"BETA\", \"f\": null, \"a\": [true, false]}",
        "{\"n\": 6, \"s\": \"😀\", \"d\": {\"list\": [1, 2, 3]}}",
        "{\"n\": 7, \"s\": \"line\\nbreak\", \"a\": [1.5, -2]}",
        "{\"n\": 8, \"s\": \"x y\", \"t\": \"x\", \"nested\": {\"deep\": {\"v\": \"seven\"}}}",
        "{\"n\": -9223372036854775808, \"s\": \"min\"}",
        "{\"n\": 10, \"s\": \"nul\\u0000inside\", \"a\": [\"a\", \"b\"]}"};
    char id[16];
    for (size_t i = 0; i < sizeof documents / sizeof *documents; i++) {
        snprintf(id, sizeof id, "doc%02zu", i);
        save_json(coll, id, documents[i]);
    }
    CBLError err;
    CBLFullTextIndexConfiguration fts = {kCBLJSONLanguage, "[[\".s\"]]", true, "en", NULL};
    CHECK_OK(CBLCollection_CreateFullTextIndex(coll, "fts_s", fts, &err), err);
}

int main(void) {
    bool valgrind = running_under_valgrind();
    seed = (uint64_t)env_long("DOCLITE_FUZZ_SEED", (long)default_seed);
    long iterations = env_long("DOCLITE_FUZZ_ITERATIONS", valgrind ? 1000 : 10000);
    long only = env_long("DOCLITE_FUZZ_ONLY", -1);

    db = open_database(test_directory("query_builder_fuzz"), "fuzz");
    CBLError err;
    coll = db ? CBLDatabase_CreateCollection(db, "items", NULL, &err) : NULL;
    if (!coll) {
        fprintf(stderr, "cannot set up the database\n");
        return 1;
    }
    fill();

    printf("query_builder_fuzz_test: seed %llu, %ld iterations%s\n", (unsigned long long)seed,
           only >= 0 ? 1 : iterations, valgrind ? " (valgrind)" : "");
    if (only >= 0) run_iteration(only);
    else
        for (long i = 0; i < iterations; i++) run_iteration(i);
    printf("built %ld, failed to build %ld (misuse expected to fail: %ld, misuses %ld), executed %ld "
           "(errors %ld), rows %ld\n",
           stats.built, stats.failed, stats.expected_failures, stats.misuses, stats.executed,
           stats.execute_errors, stats.rows);

    CBL_Release(coll);
    close_database(db);
    return test_finish("query_builder_fuzz_test");
}
