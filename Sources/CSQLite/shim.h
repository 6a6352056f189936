#ifndef DOCLITE_CSQLITE_SHIM_H
#define DOCLITE_CSQLITE_SHIM_H
#include <sqlite3.h>

/// SQLite's destructor constants are casts of -1 and 0, which Swift cannot import.
static inline sqlite3_destructor_type csqlite_transient(void) { return SQLITE_TRANSIENT; }
static inline sqlite3_destructor_type csqlite_static(void) { return SQLITE_STATIC; }

#endif
