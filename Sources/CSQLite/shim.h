#ifndef DOCLITE_CSQLITE_SHIM_H
#define DOCLITE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLite's destructor constants are casts of -1 and 0, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// Extended result codes are macro expressions, which Swift cannot import.
static const int csqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;
static const int csqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;

/// `sqlite3_db_config` and `sqlite3_vtab_config` are variadic, which Swift cannot call:
/// one setting of an integer option, and the innocuous flag of a virtual table.
static inline int csqlite_db_config(sqlite3 *db, int op, int value) { return sqlite3_db_config(db, op, value, (int *)0); }
static inline int csqlite_vtab_innocuous(sqlite3 *db) { return sqlite3_vtab_config(db, SQLITE_VTAB_INNOCUOUS); }

/// The table and cursor of DocLite's table-valued functions (`doc_each`,
/// `doc_vector_search`): SQLite's base struct first (as SQLite requires), then a
/// pointer to Swift state.
typedef struct csqlite_state_table { sqlite3_vtab base; void *state; } csqlite_state_table;
typedef struct csqlite_state_cursor { sqlite3_vtab_cursor base; void *state; } csqlite_state_cursor;

#endif
