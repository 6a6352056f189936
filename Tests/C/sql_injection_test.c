/* Hostile text through the C API never becomes SQL: the attack that once
   dropped another collection's table (a quote followed by a combining mark in
   a full-text index path), then seeded random byte strings — quotes of every
   kind, combining marks, zero-width joiners, SQL, invalid UTF-8 — in every
   string a C caller can pass: literals, property paths, result and source
   aliases, collation locales, parameter names and values, index names, index
   paths and languages, collection and scope names. After each, the other
   collection's table and documents are intact; a string literal finds exactly
   the document that holds it; no failure is in the SQLite domain (which would
   mean broken SQL reached SQLite); every handle is released. */
#include "test_support.h"

static CBLDatabase* db;
static CBLCollection* items;   /* kv_1: the default collection */
static CBLCollection* victim;  /* kv_2 */
static uint64_t state;
static long queries_run, literals_found, indexes_made, collections_made;   /* what the rounds reached */

static uint64_t next_random(void) {  /* SplitMix64 */
    uint64_t z = (state += 0x9E3779B97F4A7C15ull);
    z = (z ^ (z >> 30)) * 0xBF58476D1CE4E5B9ull;
    z = (z ^ (z >> 27)) * 0x94D049BB133111EBull;
    return z ^ (z >> 31);
}

static const char* const pieces[] = {
    "'", "\"", "`", "[", "]", "\xCC\x81" /* U+0301 */, "\xE2\x80\x8D" /* ZWJ */, "\xEF\xBB\xBF" /* BOM */, "\\", ".", "$",
    ";", "--", "/*", " ", "\n", "(", ")", ",", "=", "%", ":", "\xC3\xA9", "e", "a", "7", "_",
    "\xE2\x84\xAA" /* KELVIN SIGN */, "DROP TABLE kv_2", "COMMIT", " OR 1=1", "x",
    "\xFF", "\xC3" /* a lead byte alone */, "\xED\xA0\x80" /* a surrogate */, "\xC0\xAF" /* overlong '/' */};

/* One to eight random pieces into `text` (NUL-terminated); whether it is valid UTF-8. */
static bool hostile_text(char* text, size_t size) {
    size_t used = 0, count = 1 + next_random() % 8;
    bool valid = true;
    text[0] = 0;
    for (size_t i = 0; i < count; i++) {
        size_t which = next_random() % (sizeof pieces / sizeof pieces[0]);
        const char* piece = pieces[which];
        if (used + strlen(piece) + 1 > size) break;
        memcpy(text + used, piece, strlen(piece) + 1);
        used += strlen(piece);
        if (which >= sizeof pieces / sizeof pieces[0] - 4) valid = false;
    }
    return valid;
}

/* `text` as the body of a JSON string. */
static void json_escape(const char* text, char* out, size_t size) {
    size_t used = 0;
    for (const unsigned char* p = (const unsigned char*)text; *p && used + 7 < size; p++) {
        if (*p == '"' || *p == '\\') { out[used++] = '\\'; out[used++] = (char)*p; }
        else if (*p < 0x20) used += (size_t)snprintf(out + used, size - used, "\\u%04x", *p);
        else out[used++] = (char)*p;
    }
    out[used] = 0;
}

static void check_victim_intact(void) {
    CHECK(CBLCollection_Count(victim) == 10);
    char* json = read_json(victim, "v7");
    CHECK_STR(json, "{\"n\":7}");
    CBL_FreeString(json);
}

/* An error, when there is one, carries a message and is not SQLite's (broken SQL). */
static void check_error(bool ok, CBLError err, const char* what, const char* input) {
    if (ok) return;
    char* message = CBLError_Message(&err);
    CHECK(message != NULL && message[0] != 0);
    CHECK(err.domain != kCBLSQLiteDomain);
    if (err.domain == kCBLSQLiteDomain) fprintf(stderr, "%s with '%s': %s\n", what, input, message ? message : "?");
    CBL_FreeString(message);
}

static void test_full_text_attack(void) {
    CBLError err;
    const char* attack = "x\"\xCC\x81) ; COMMIT ; DROP TABLE kv_2 ; --";
    char escaped[256], json[512];
    json_escape(attack, escaped, sizeof escaped);
    snprintf(json, sizeof json, "[\".%s\"]", escaped);
    CBLFullTextIndexConfiguration config = {kCBLJSONLanguage, json, false, NULL, NULL};
    char doc[512];
    snprintf(doc, sizeof doc, "{\"%s\": \"needle in text\"}", escaped);
    save_json(items, "hit", doc);
    save_json(items, "miss", "{\"x\": \"needle\"}");
    CHECK_OK(CBLCollection_CreateFullTextIndex(items, "attack", config, &err), err);
    check_victim_intact();

    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))}, 1, false,
        CBLQueryDataSource_Collection(items), NULL, 0, CBLQueryFullTextFunction_Match("attack", NULL, "needle"),
        NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    if (query) CHECK_COLUMN(query, "id", false, "hit");
    CBL_Release(query);
    CHECK_OK(CBLCollection_DeleteIndex(items, "attack", &err), err);
    CHECK_OK(CBLCollection_PurgeDocumentByID(items, "hit", &err), err);
    CHECK_OK(CBLCollection_PurgeDocumentByID(items, "miss", &err), err);
}

/* A query with hostile text in one position (`slot`), plain text in the others; run when it builds. */
static void query_round(long slot) {
    char text[6][128] = {"k", "column", "source", "en_US", "value", "p"};
    hostile_text(text[slot % 6], sizeof text[0]);
    const char *path = text[0], *alias = text[1], *source = text[2], *locale = text[3], *literal = text[4], *name = text[5];
    CBLError err;
    CBLQueryExpression* where = CBLQueryExpression_Or(
        CBLQueryExpression_EqualTo(CBLQueryExpression_Collate(CBLQueryExpression_Property("k"), CBLQueryCollation_Unicode(false, true, locale)),
                                   CBLQueryExpression_String(literal)),
        CBLQueryExpression_EqualTo(CBLQueryExpression_Property(path), CBLQueryExpression_Parameter(name)));
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_ExpressionAs(CBLQueryExpression_Property(path), alias)}, 1, false,
        CBLQueryDataSource_CollectionAs(items, source), NULL, 0, where, NULL, 0, NULL, NULL, 0, NULL, &err);
    check_error(query != NULL, err, "build", path);
    if (!query) return;
    CBLQueryParameters* parameters = CBLQueryParameters_New();
    CBLQueryParameters_SetString(parameters, name, literal);
    bool ok = CBLQuery_SetQueryParameters(query, parameters, &err);
    check_error(ok, err, "parameters", name);
    CBLResultSet* rows = ok ? CBLQuery_Execute(query, &err) : NULL;
    if (ok) check_error(rows != NULL, err, "execute", literal);
    if (rows) queries_run++;
    while (rows && CBLResultSet_Next(rows, &err)) {}
    CBL_Release(rows);
    CBL_Release(parameters);
    CBL_Release(query);
}

/* A valid literal finds exactly the one document holding it. */
static void literal_round(void) {
    char literal[128], escaped[512], json[600];
    if (!hostile_text(literal, sizeof literal)) return;
    json_escape(literal, escaped, sizeof escaped);
    snprintf(json, sizeof json, "{\"k\": \"%s\"}", escaped);
    if (!save_json(items, "probe", json)) return;
    CBLError err;
    CBLQuery* query = CBLQueryBuilder_Create(
        (CBLQuerySelectResult*[]){CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL))}, 1, false,
        CBLQueryDataSource_Collection(items), NULL, 0,
        CBLQueryExpression_EqualTo(CBLQueryExpression_Property("k"), CBLQueryExpression_String(literal)),
        NULL, 0, NULL, NULL, 0, NULL, &err);
    CHECK_OK(query != NULL, err);
    long found = query ? test_row_count(query) : -1;
    CHECK(found == 1);
    if (found == 1) literals_found++;
    else fprintf(stderr, "literal %s: %ld rows\n", json, found);
    CBL_Release(query);
}

/* Index names, paths and languages; collection and scope names. */
static void schema_round(void) {
    char name[128], key[128], language[128], escaped[512], json[600];
    hostile_text(name, sizeof name);
    hostile_text(key, sizeof key);
    hostile_text(language, sizeof language);
    json_escape(key, escaped, sizeof escaped);
    snprintf(json, sizeof json, "[[\"._%s\"]]", escaped);   /* "._" keeps a leading "$" or "[" a key */
    CBLError err;
    CBLValueIndexConfiguration value = {kCBLJSONLanguage, json, NULL};
    bool ok = CBLCollection_CreateValueIndex(items, name, value, &err);
    check_error(ok, err, "value index", name);
    if (ok) CHECK_OK(CBLCollection_DeleteIndex(items, name, &err), err);
    indexes_made += ok;
    CBLFullTextIndexConfiguration fullText = {kCBLJSONLanguage, json, true, language, NULL};
    ok = CBLCollection_CreateFullTextIndex(items, name, fullText, &err);
    check_error(ok, err, "full-text index", json);
    if (ok) CHECK_OK(CBLCollection_DeleteIndex(items, name, &err), err);
    indexes_made += ok;
    CBLCollection* created = CBLDatabase_CreateCollection(db, name, key, &err);
    check_error(created != NULL, err, "collection", name);
    if (created) CHECK_OK(CBLDatabase_DeleteCollection(db, name, key, &err), err);
    collections_made += created != NULL;
    CBL_Release(created);
}

int main(void) {
    db = open_database(test_directory("sql_injection"), "injection");
    CBLError err;
    items = db ? CBLDatabase_DefaultCollection(db, &err) : NULL;
    victim = db ? CBLDatabase_CreateCollection(db, "victim", NULL, &err) : NULL;
    if (!items || !victim) {
        fprintf(stderr, "cannot set up the database\n");
        return 1;
    }
    for (int i = 0; i < 10; i++) {
        char id[8], json[32];
        snprintf(id, sizeof id, "v%d", i);
        snprintf(json, sizeof json, "{\"n\": %d}", i);
        save_json(victim, id, json);
    }
    uint64_t start = CBL_InstanceCount();
    test_full_text_attack();

    bool valgrind = running_under_valgrind();
    state = (uint64_t)env_long("DOCLITE_INJECTION_SEED", 0x5EC0DE);
    long rounds = env_long("DOCLITE_INJECTION_ROUNDS", valgrind ? 300 : 5000);
    for (long round = 0; round < rounds; round++) {
        query_round(round);
        literal_round();
        if (round % 10 == 0) schema_round();
        if (round % 100 == 0) check_victim_intact();
    }
    check_victim_intact();
    printf("%ld rounds: %ld queries ran, %ld literals found their document, %ld indexes and %ld collections made\n",
           rounds, queries_run, literals_found, indexes_made, collections_made);
    CHECK(queries_run > 0 && literals_found > 0 && indexes_made > 0);
    CHECK(CBL_InstanceCount() == start);
    CBL_Release(items);
    CBL_Release(victim);
    close_database(db);
    return test_finish("sql_injection_test");
}
