/* A database file someone else made (issue 35, docs/security.md), through the
   C API: a file tampered with the sqlite3 library as an attacker would (the
   array index's SQL name replaced by SQL calling fts3_tokenizer, a trigger and
   a CHECK calling the application's model, a view) is refused by
   CBLDatabase_Open with kCBLErrorCorruptData, the model never called; damaged
   and mistyped bodies are kCBLErrorCorruptData from CBLCollection_GetDocument
   and from a query's rows. */
#include <sqlite3.h>
#include "test_support.h"

static int model_calls = 0;

static char* predict(void* context, const char* inputJSON) {
    (void)context;
    (void)inputJSON;
    model_calls++;
    return strdup("{\"label\": \"secret\"}");
}

/* Makes a database with three documents and an array index, then closes it. */
static void make_file(const char* directory) {
    CBLDatabase* db = open_database(directory, "victim");
    CBLError err;
    CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(docs != NULL, err);
    save_json(docs, "d0", "{\"n\": 0, \"tags\": [\"a\"], \"secret\": \"pin 0\"}");
    save_json(docs, "d1", "{\"n\": 1, \"tags\": [\"b\"], \"secret\": \"pin 1\"}");
    save_json(docs, "d2", "{\"n\": 2, \"tags\": [\"a\"], \"secret\": \"pin 2\"}");
    CBLArrayIndexConfiguration index = {kCBLN1QLLanguage, "tags", NULL};
    CHECK_OK(CBLCollection_CreateArrayIndex(docs, "tags", index, &err), err);
    CBL_Release(docs);
    close_database(db);
}

/* Runs `sql` on the file with writable_schema on, as an attacker editing it would. */
static void tamper(const char* directory, const char* sql) {
    char path[600];
    snprintf(path, sizeof path, "%s/victim.doclite", directory);
    sqlite3* raw = NULL;
    CHECK(sqlite3_open(path, &raw) == SQLITE_OK);
    CHECK(sqlite3_exec(raw, "PRAGMA writable_schema = ON", NULL, NULL, NULL) == SQLITE_OK);
    int rc = sqlite3_exec(raw, sql, NULL, NULL, NULL);
    if (rc != SQLITE_OK) fprintf(stderr, "tamper: %s: %s\n", sql, sqlite3_errmsg(raw));
    CHECK(rc == SQLITE_OK);
    sqlite3_close(raw);
}

/* Opening the file fails with kCBLErrorCorruptData naming `text`; the model is not called. */
static void check_refused(const char* directory, const char* text) {
    int calls = model_calls;
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = directory;
    CBLError err = poisoned_error();
    CBLDatabase* db = CBLDatabase_Open("victim", &config, &err);
    CHECK(db == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorCorruptData, text);
    if (db) close_database(db);
    CHECK(model_calls == calls);
}

static void test_tampered_schemas_are_refused(const char* directory) {
    make_file(directory);
    tamper(directory, "UPDATE indexes SET sql_name = '(SELECT sequence, element FROM arr1_74616773 "
                      "WHERE fts3_tokenizer(''unicode61'', X''4141414141414141'') IS NOT NULL)'");
    check_refused(directory, "index 'tags' of collection 1");
    remove_directory(directory);

    make_file(directory);
    tamper(directory, "CREATE TRIGGER evil AFTER INSERT ON kv_1 BEGIN "
                      "SELECT doc_prediction('victim', doc_value(new.body, 'secret')); DELETE FROM kv_1; END");
    check_refused(directory, "trigger 'evil'");
    remove_directory(directory);

    make_file(directory);
    tamper(directory, "UPDATE sqlite_schema SET sql = replace(sql, 'body BLOB NOT NULL)', "
                      "'body BLOB NOT NULL CHECK (doc_prediction(''victim'', doc_value(body, ''secret'')) IS NOT NULL))') "
                      "WHERE name = 'kv_1'");
    check_refused(directory, "table 'kv_1'");
    remove_directory(directory);

    make_file(directory);
    tamper(directory, "CREATE VIEW evil AS SELECT 1 AS x");
    check_refused(directory, "view 'evil'");
    remove_directory(directory);
}

/* Every row of `sql` read; the error that ended them (kCBLErrorCorruptData expected). */
static void check_query_fails(CBLDatabase* db, const char* sql) {
    CBLError err = poisoned_error();
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sql, NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rows = query ? CBLQuery_Execute(query, &err) : NULL;
    if (rows) {
        while (CBLResultSet_Next(rows, &err)) {}
        CBL_Release(rows);
    }
    CHECK_ERROR(err, kCBLDomain, kCBLErrorCorruptData, "damaged body");
    CBL_Release(query);
}

static void test_damaged_bodies_are_errors(const char* directory) {
    const char* damages[] = {"X'deadbeef00112233'", "'just text'", "42", "substr(body, 1, length(body) - 3)", "X''"};
    for (size_t i = 0; i < sizeof damages / sizeof damages[0]; i++) {
        make_file(directory);
        char sql[200];
        snprintf(sql, sizeof sql, "UPDATE kv_1 SET body = %s WHERE key = 'd0'", damages[i]);
        tamper(directory, sql);
        CBLDatabase* db = open_database(directory, "victim");
        CBLError err = poisoned_error();
        CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
        CHECK_OK(docs != NULL, err);
        const CBLDocument* doc = CBLCollection_GetDocument(docs, "d0", &err);
        CHECK(doc == NULL);
        CHECK_ERROR(err, kCBLDomain, kCBLErrorCorruptData, "document 'd0' in collection '_default._default' has a damaged body");
        CBL_Release(doc);
        check_query_fails(db, "SELECT META().id, * FROM _");
        char* other = read_json(docs, "d1");
        CHECK(other != NULL && strstr(other, "\"n\":1") != NULL);
        CBL_FreeString(other);
        CBL_Release(docs);
        close_database(db);
        remove_directory(directory);
    }
}

int main(void) {
    CBLPredictiveModel model = {NULL, predict, NULL};
    CBL_RegisterPredictiveModel("victim", model);
    const char* directory = test_directory("hostile");
    test_tampered_schemas_are_refused(directory);
    test_damaged_bodies_are_errors(directory);
    CBL_UnregisterPredictiveModel("victim");
    return test_finish("hostile_file_test");
}
