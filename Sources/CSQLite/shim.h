#ifndef DOCLITE_CSQLITE_SHIM_H
#define DOCLITE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLite's destructor constants are casts of -1 and 0, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

/// Extended result codes are macro expressions, which Swift cannot import.
static const int csqlite_constraint_unique = SQLITE_CONSTRAINT_UNIQUE;
static const int csqlite_constraint_primarykey = SQLITE_CONSTRAINT_PRIMARYKEY;

#endif
