/*
 * The benchmark's loops written in C against doclite.h, for examples/bench.rs to
 * time next to the same loops through the Rust crate:
 *
 *   bench_loops insert HOTELS.jsonl DIRECTORY   saves every line as document doc-%08d
 *                                               (one transaction), prints the seconds
 *   bench_loops iterate DIRECTORY               reads every row of five columns,
 *                                               prints the seconds and the row count
 *   bench_loops relational HOTELS.jsonl DIRECTORY  the same iteration over relational
 *                                               SQLite: a table of the five columns
 *                                               (built untimed), sqlite3_step and
 *                                               sqlite3_column_* (the baseline R)
 *
 * Only the loop is timed (CLOCK_MONOTONIC); reading the file is not.
 */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <time.h>

#include <sqlite3.h>

#include "doclite.h"

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec + t.tv_nsec / 1e9;
}

static void fail(const char* what, const CBLError* error) {
    char* message = CBLError_Message(error);
    fprintf(stderr, "%s: %s\n", what, message ? message : "failed");
    CBL_FreeString(message);
    exit(1);
}

static CBLDatabase* open_database(const char* directory) {
    CBLDatabaseConfiguration config = {directory, false};
    CBLError error;
    CBLDatabase* db = CBLDatabase_Open("bench", &config, &error);
    if (!db) fail("open", &error);
    return db;
}

/* The file's lines, each NUL-terminated in place. */
static char** read_lines(const char* path, size_t* count) {
    FILE* file = fopen(path, "rb");
    if (!file) { perror(path); exit(1); }
    fseek(file, 0, SEEK_END);
    long size = ftell(file);
    rewind(file);
    char* text = malloc(size + 1);
    if (fread(text, 1, size, file) != (size_t)size) { perror(path); exit(1); }
    fclose(file);
    text[size] = 0;
    size_t capacity = 1024, n = 0;
    char** lines = malloc(capacity * sizeof *lines);
    for (char* line = strtok(text, "\n"); line; line = strtok(NULL, "\n")) {
        if (n == capacity) lines = realloc(lines, (capacity *= 2) * sizeof *lines);
        lines[n++] = line;
    }
    *count = n;
    return lines;
}

static int insert(const char* path, const char* directory) {
    size_t count;
    char** lines = read_lines(path, &count);
    CBLDatabase* db = open_database(directory);
    CBLError error;
    CBLCollection* hotels = CBLDatabase_DefaultCollection(db, &error);
    char id[32];
    double start = now();
    if (!CBLDatabase_BeginTransaction(db, &error)) fail("begin", &error);
    for (size_t i = 0; i < count; i++) {
        snprintf(id, sizeof id, "doc-%08zu", i);
        CBLDocument* doc = CBLDocument_CreateWithID(id, &error);
        if (!doc || !CBLDocument_SetJSON(doc, lines[i], &error) || !CBLCollection_SaveDocument(hotels, doc, &error))
            fail("save", &error);
        CBL_Release(doc);
    }
    if (!CBLDatabase_EndTransaction(db, true, &error)) fail("commit", &error);
    printf("%.6f %zu\n", now() - start, count);
    CBL_Release(hotels);
    CBLDatabase_Close(db, &error);
    CBL_Release(db);
    return 0;
}

static int iterate(const char* directory) {
    CBLDatabase* db = open_database(directory);
    CBLError error;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT name, city, price, rating, type FROM _", NULL, &error);
    if (!query) fail("query", &error);
    double start = now();
    CBLResultSet* rows = CBLQuery_Execute(query, &error);
    if (!rows) fail("execute", &error);
    size_t count = 0, length = 0;
    int64_t prices = 0;
    double ratings = 0;
    while (CBLResultSet_Next(rows, &error)) {
        const char* name = CBLResultSet_StringAtIndex(rows, 0);
        const char* city = CBLResultSet_StringAtIndex(rows, 1);
        prices += CBLResultSet_IntAtIndex(rows, 2);
        ratings += CBLResultSet_DoubleAtIndex(rows, 3);
        const char* type = CBLResultSet_StringAtIndex(rows, 4);
        if (name && city && type) count++;
        length += strlen(name) + strlen(city) + strlen(type);
    }
    if (error.code) fail("next", &error);
    double seconds = now() - start;
    printf("%.6f %zu\n", seconds, count);
    fprintf(stderr, "(checksum %zu %lld %.2f)\n", length, (long long)prices, ratings);
    CBL_Release(rows);
    CBL_Release(query);
    CBLDatabase_Close(db, &error);
    CBL_Release(db);
    return 0;
}

static int relational(const char* path, const char* directory) {
    size_t count;
    char** lines = read_lines(path, &count);
    char file[4096];
    snprintf(file, sizeof file, "%s/r.sqlite", directory);
    sqlite3* db;
    if (sqlite3_open(file, &db) != SQLITE_OK) { fprintf(stderr, "open %s\n", file); exit(1); }
    sqlite3_exec(db, "PRAGMA journal_mode = WAL; CREATE TABLE hotels (name TEXT, city TEXT, price INTEGER, rating REAL, type TEXT);"
                     "BEGIN", NULL, NULL, NULL);
    sqlite3_stmt* insert;
    sqlite3_prepare_v2(db, "INSERT INTO hotels SELECT j ->> 'name', j ->> 'city', j ->> 'price', j ->> 'rating', j ->> 'type'"
                           " FROM (SELECT ? AS j)", -1, &insert, NULL);
    for (size_t i = 0; i < count; i++) {
        sqlite3_bind_text(insert, 1, lines[i], -1, SQLITE_STATIC);
        if (sqlite3_step(insert) != SQLITE_DONE) { fprintf(stderr, "insert: %s\n", sqlite3_errmsg(db)); exit(1); }
        sqlite3_reset(insert);
    }
    sqlite3_finalize(insert);
    sqlite3_exec(db, "COMMIT", NULL, NULL, NULL);

    sqlite3_stmt* select;
    sqlite3_prepare_v2(db, "SELECT name, city, price, rating, type FROM hotels", -1, &select, NULL);
    double start = now();
    size_t rows = 0, length = 0;
    int64_t prices = 0;
    double ratings = 0;
    while (sqlite3_step(select) == SQLITE_ROW) {
        const char* name = (const char*)sqlite3_column_text(select, 0);
        const char* city = (const char*)sqlite3_column_text(select, 1);
        prices += sqlite3_column_int64(select, 2);
        ratings += sqlite3_column_double(select, 3);
        const char* type = (const char*)sqlite3_column_text(select, 4);
        if (name && city && type) rows++;
        length += strlen(name) + strlen(city) + strlen(type);
    }
    double seconds = now() - start;
    printf("%.6f %zu\n", seconds, rows);
    fprintf(stderr, "(checksum %zu %lld %.2f)\n", length, (long long)prices, ratings);
    sqlite3_finalize(select);
    sqlite3_close(db);
    return 0;
}

int main(int argc, char** argv) {
    if (argc == 4 && strcmp(argv[1], "insert") == 0) return insert(argv[2], argv[3]);
    if (argc == 3 && strcmp(argv[1], "iterate") == 0) return iterate(argv[2]);
    if (argc == 4 && strcmp(argv[1], "relational") == 0) return relational(argv[2], argv[3]);
    fprintf(stderr, "usage: bench_loops insert HOTELS.jsonl DIRECTORY | iterate DIRECTORY | relational HOTELS.jsonl DIRECTORY\n");
    return 2;
}
