/*
 * doclite.h — the C API of DocLite, an embedded JSON document database with
 * Couchbase Lite's data model. Names follow couchbase-lite-C; JSON text
 * (UTF-8) replaces Fleece values.
 *
 * OWNERSHIP
 *
 *   Returned +1 (the caller releases with CBL_Release):
 *     CBLDatabase_Open, CBLDocument_Create*, CBLDocument_MutableCopy,
 *     CBLBlob_Create*, CBLDocument_GetBlob, CBLDatabase_GetBlob, CBLBlob_OpenContentStream
 *     (closed by CBLBlobReader_Close), CBLBlobWriter_Create,
 *     CBLCollection_GetDocument, CBLCollection_GetMutableDocument,
 *     the collection lookups (CBLDatabase_DefaultCollection, _Collection,
 *     _CreateCollection), the scope lookups (CBLDatabase_DefaultScope, _Scope,
 *     CBLScope_Collection, CBLCollection_Scope), CBLDatabase_CreateQuery, CBLQuery_Execute,
 *     CBLQuery_CopyCurrentResults and listener tokens (released by
 *     CBLListener_Remove).
 *     Every query-part constructor (CBLQueryExpression_*, CBLQueryMeta_*,
 *     CBLQueryFunction_*, CBLQueryArrayFunction_*, CBLQueryArrayExpression_*,
 *     CBLQueryFullTextFunction_*, CBLQueryCollation_*, CBLQuerySelectResult_*,
 *     CBLQueryDataSource_*, CBLQueryJoin_*, CBLQueryOrdering_*, CBLQueryLimit_*),
 *     CBLQueryBuilder_Create, CBLQueryBuilder_New, CBLQueryBuilder_Build,
 *     CBLPredicateQueryBuilder_Create, _CreateQuery and _Run,
 *     CBLQueryParameters_New, _Copy and CBLQuery_CopyParameters.
 *   Borrowed: every handle passed as an argument, except query parts. A function
 *     that keeps a handle retains it itself, so the caller may release right
 *     after the call. So CBLQueryDataSource_Collection(c) leaves `c` to its owner.
 *   Consumed: a query part (expression, select result, data source, join,
 *     ordering, collation, limit) passed in a part position: the callee takes the caller's
 *     reference, also when the call fails, so nested construction such as
 *     CBLQueryExpression_EqualTo(CBLQueryExpression_Property("type"),
 *     CBLQueryExpression_String("hotel")) needs no releases. Arrays of parts are
 *     borrowed, each element consumed (also when another element is bad). To use
 *     a part in two places, CBL_Retain it first; a consumed part used again is
 *     an error (the handle is no longer live), never a crash. Outside query parts, only
 *     CBLBlob_CreateWithStream consumes its writer, as in couchbase-lite-C.
 *   Bad input to a part constructor (a NULL or consumed part, a NULL name,
 *     bad UTF-8) never returns NULL: it returns an error part that carries the
 *     error into every part made of it, and CBLQueryBuilder_Create (or _Build) fails with it.
 *     So a fault deep inside a WHERE can never become a query that runs unfiltered.
 *   Strings in: NUL-terminated UTF-8; NULL only where a parameter is marked
 *     optional (and `_cbl_nullable`). The first NUL ends the string, so text that may hold U+0000 (a
 *     Python or Rust string) must be refused by the caller, as the Python and
 *     Rust bindings do: never truncated. U+0000 inside JSON text is written
 *     \u0000 and is kept. Strings out: `const char*` results are borrowed and their
 *     comment says until when they are valid; `char*` results are owned and
 *     freed with CBL_FreeString. Lists come back as an owned JSON array.
 *   NULL, released and foreign handles are detected (every live handle is in
 *     a registry): the call fails with kCBLErrorInvalidParameter, never crashes.
 *     The declarations still take handles as non-null (CBL_ASSUME_NONNULL_BEGIN):
 *     a NULL handle is a caller's bug, which clang may warn about at compile time
 *     and the library still reports at run time; what may be NULL is `_cbl_nullable`.
 *
 * ERRORS
 *
 *   A function that can fail takes `CBLError* _cbl_nullable outError` last
 *   (optional: may be NULL) and returns NULL, false or -1. A missing document is not an error:
 *   NULL with outError->code == 0. CBLError_Message gives the text.
 *
 * THREADS
 *
 *   A database and its collections may be used from several threads at once;
 *   calls on one database are serialized. A document handle belongs to one
 *   thread at a time (as in Couchbase Lite). A transaction belongs to the
 *   thread that began it. Change listeners run on the thread that committed,
 *   after the commit, outside internal locks: a listener may call back into
 *   the database.
 *
 * EXAMPLE
 *
 *   CBLError err;
 *   CBLDatabase* db = CBLDatabase_Open("hotels", NULL, &err);
 *   CBLCollection* hotels = CBLDatabase_CreateCollection(db, "hotels", NULL, &err);
 *   CBLDocument* doc = CBLDocument_CreateWithID("h1", &err);
 *   CBLDocument_SetJSON(doc, "{\"name\": \"Grand\", \"rooms\": 42, \"city\": \"paris\"}", &err);
 *   CBLCollection_SaveDocument(hotels, doc, &err);
 *   CBL_Release(doc);
 *   const CBLDocument* read = CBLCollection_GetDocument(hotels, "h1", &err);
 *   char* json = CBLDocument_CreateJSON(read);   // {"name":"Grand","rooms":42,"city":"paris"}
 *   CBL_FreeString(json);
 *   CBL_Release(read);
 *
 *   // A query with a join, an ordering and a limit (LiteCore's JSON query language):
 *   // the hotels with their city's country, largest first.
 *   CBLCollection* cities = CBLDatabase_CreateCollection(db, "cities", NULL, &err);
 *   CBLDocument* paris = CBLDocument_CreateWithID("paris", &err);
 *   CBLDocument_SetJSON(paris, "{\"country\": \"France\"}", &err);
 *   CBLCollection_SaveDocument(cities, paris, &err);
 *   CBL_Release(paris);
 *   CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLJSONLanguage,
 *       "{\"WHAT\": [[\".h.name\"], [\".c.country\"]],"
 *       " \"FROM\": [{\"COLLECTION\": \"hotels\", \"AS\": \"h\"},"
 *       "          {\"COLLECTION\": \"cities\", \"AS\": \"c\", \"JOIN\": \"INNER\","
 *       "           \"ON\": [\"=\", [\".h.city\"], [\".c._id\"]]}],"
 *       " \"ORDER_BY\": [[\"DESC\", [\".h.rooms\"]]], \"LIMIT\": 10}", NULL, &err);
 *   CBLResultSet* rows = CBLQuery_Execute(query, &err);
 *   while (CBLResultSet_Next(rows, &err))   // false at the end (err.code 0) or on an error
 *       printf("%s, %s\n", CBLResultSet_StringAtIndex(rows, 0), CBLResultSet_StringForKey(rows, "country"));
 *   CBL_Release(rows);
 *   CBL_Release(query);
 *   CBL_Release(cities);
 *   CBL_Release(hotels);
 *   CBLDatabase_Close(db, &err);
 *   CBL_Release(db);
 */
#ifndef DOCLITE_H
#define DOCLITE_H

#include <stdbool.h>
#include <stddef.h>
#include <stdint.h>

/* ---- Annotations --------------------------------------------------------------
 * couchbase-lite-C's annotations (its CBL_Compat.h), for compilers and tools that
 * check them:
 *   CBL_ASSUME_NONNULL_BEGIN/_END  every pointer declared between them is non-null
 *                                  unless marked (clang's `assume_nonnull` pragma).
 *   _cbl_nullable (CBL_NULLABLE)   the pointer may be NULL (clang's _Nullable); it
 *                                  follows the `*`.
 *   _cbl_nonnull (CBL_NONNULL)     the pointer is never NULL (clang's _Nonnull): on
 *                                  both levels of a pointer to pointers, which the
 *                                  pragma leaves unmarked.
 *   _cbl_warn_unused               the result is owned (+1, or memory to free):
 *                                  ignoring it leaks, so GCC and clang warn.
 *   CBL_DOCLITE                    DocLite's own addition, not in couchbase-lite-C
 *                                  (expands to nothing; marks the declaration).
 * They expand to nothing for compilers without them, for a foreign-function layer
 * reading the header (DOCLITE_CDEF: cffi and bindgen cannot parse attributes), and
 * when Swift imports it (__swift__): the library's `@c @implementation` functions
 * take and return optionals, as they check every argument at run time.
 */
#if defined(__has_feature)
#define DOCLITE_HAS_FEATURE(feature) __has_feature(feature)
#else
#define DOCLITE_HAS_FEATURE(feature) 0 /* GCC before 14; __has_feature itself is left undefined */
#endif

#if DOCLITE_HAS_FEATURE(nullability) && !defined(DOCLITE_CDEF) && !defined(__swift__)
#define CBL_NULLABLE _Nullable
#define CBL_NONNULL _Nonnull
#define CBL_ASSUME_NONNULL_BEGIN _Pragma("clang assume_nonnull begin")
#define CBL_ASSUME_NONNULL_END _Pragma("clang assume_nonnull end")
#else
#define CBL_NULLABLE
#define CBL_NONNULL
#define CBL_ASSUME_NONNULL_BEGIN
#define CBL_ASSUME_NONNULL_END
#endif
#define _cbl_nullable CBL_NULLABLE
#define _cbl_nonnull CBL_NONNULL

#if (defined(__GNUC__) || defined(__clang__)) && !defined(DOCLITE_CDEF) && !defined(__swift__)
#define _cbl_warn_unused __attribute__((warn_unused_result))
#else
#define _cbl_warn_unused
#endif

#define CBL_DOCLITE

#ifdef __cplusplus
extern "C" {
#endif

CBL_ASSUME_NONNULL_BEGIN
#if defined(__clang__)
#pragma clang diagnostic push
#pragma clang diagnostic ignored "-Wnullability-extension" /* (-pedantic: _Nullable is clang's) */
#endif

/* ---- Version --------------------------------------------------------------- */

/** The version of this header: DOCLITE_VERSION "MAJOR.MINOR.PATCH", and as a number
    MAJOR * 1000000 + MINOR * 1000 + PATCH. Compare with CBL_VersionNumber() to learn
    whether the library loaded at run time is the one compiled against (as sqlite3.h's
    SQLITE_VERSION and sqlite3_libversion()). CMake takes the project version from here. */
#define DOCLITE_VERSION_MAJOR 0
#define DOCLITE_VERSION_MINOR 1
#define DOCLITE_VERSION_PATCH 0
#define DOCLITE_VERSION "0.1.0"
#define DOCLITE_VERSION_NUMBER (DOCLITE_VERSION_MAJOR * 1000000 + DOCLITE_VERSION_MINOR * 1000 + DOCLITE_VERSION_PATCH)

/** The library's version string ("0.1.0"), static: not to be freed. */
CBL_DOCLITE const char* CBL_Version(void);
/** The library's version as DOCLITE_VERSION_NUMBER. */
CBL_DOCLITE int CBL_VersionNumber(void);

/* ---- Errors ---------------------------------------------------------------- */

/** Error domains. */
typedef uint8_t CBLErrorDomain;
enum {
    kCBLDomain = 1,       /**< DocLite's own errors: a CBLErrorCode. */
    kCBLPOSIXDomain = 2,  /**< An errno value. */
    kCBLSQLiteDomain = 3, /**< An SQLite result code: SQLite itself failed (I/O, a full disk). A query
                               SQLite refuses and errors raised by DocLite's own SQL functions (a bad
                               regex, PCRE2's match limit, a bad LIMIT parameter) are in kCBLDomain. */
    kCBLFleeceDomain = 4, /**< An encoding error: kCBLFleeceErrorJSON for malformed JSON or bad UTF-8. */
    kCBLNetworkDomain = 5,  /**< A replication peer cannot be reached: a CBLNetworkErrorCode. */
    kCBLWebSocketDomain = 6 /**< A replication peer refused, numbered as an HTTP status: 401 bad credentials,
                                 403 not allowed, 404 no such database, 409 a newer server revision. */
};

/** Error codes in kCBLNetworkDomain (Couchbase Lite's numbering); a replicator retries them. */
enum {
    kCBLNetErrUnknownHost = 2,        /**< The host name is not known. */
    kCBLNetErrTimeout = 3,            /**< The server did not answer in time. */
    kCBLNetErrInvalidURL = 4,         /**< The connection string is malformed (not retried). */
    kCBLNetErrTLSHandshakeFailed = 6, /**< TLS failed. */
    kCBLNetErrConnectionReset = 18,   /**< The connection was lost (or the server restarted). */
    kCBLNetErrConnectionRefused = 19  /**< The server refused the connection, or is not running. */
};

/** Error codes in kCBLDomain (Couchbase Lite's numbering). */
typedef int32_t CBLErrorCode;
enum {
    kCBLErrorAssertionFailed = 1,      /**< An internal check failed. */
    kCBLErrorUnimplemented = 2,        /**< Not implemented yet. */
    kCBLErrorCorruptRevisionData = 5,  /**< A reserved top-level key (_id, _rev, _deleted). */
    kCBLErrorNotOpen = 6,              /**< The database is closed or the collection deleted: also every query,
                                            index call and listener naming a deleted collection. */
    kCBLErrorNotFound = 7,             /**< No such document, collection or database file. */
    kCBLErrorConflict = 8,             /**< A save or delete lost to a concurrent change. */
    kCBLErrorInvalidParameter = 9,     /**< Bad argument: NULL, released or wrong handle, bad UTF-8, bad name. */
    kCBLErrorUnexpectedError = 10,     /**< Anything else; the message says what. */
    kCBLErrorCantOpenFile = 11,        /**< The database file or its directory cannot be opened or created. */
    kCBLErrorCorruptData = 15,         /**< The database file is damaged. */
    kCBLErrorBusy = 16,                /**< Another process holds the database for longer than the 10 s timeout. */
    kCBLErrorNotInTransaction = 17,    /**< EndTransaction without a matching Begin on this thread. */
    kCBLErrorTransactionNotClosed = 18,/**< Closing inside a transaction. */
    kCBLErrorUnsupported = 19,         /**< A kind of index (or other request) DocLite does not support. */
    kCBLErrorNotADatabaseFile = 20,    /**< The file is not a DocLite database. */
    kCBLErrorInvalidQuery = 23,        /**< A query (or index definition) is malformed; the message says where.
                                            At run time: a regex that does not compile or hits PCRE2's
                                            match limit, a non-number given to POWER/ATAN2/SIGN, a
                                            malformed full-text search string, and any query SQLite
                                            refuses ("SQLite cannot run the query: …"). */
    kCBLErrorMissingIndex = 24,        /**< MATCH() or RANK() names a full-text index the collection does not have. */
    kCBLErrorInvalidQueryParam = 25,   /**< A parameter the query does not use was set, or a LIMIT/OFFSET
                                            parameter is unset or not an integer. */
    kCBLErrorRemoteError = 26,         /**< The sync server has no DocLite schema, or a newer one; the message says what to run. */
    kCBLErrorDatabaseTooNew = 28,      /**< The file was written by a newer DocLite. */
    kCBLErrorBadDocID = 29             /**< A document ID breaks the rules (1-240 bytes, no control characters, no leading '_'). */
};

/** The code in kCBLSQLiteDomain that DocLite itself gives (any other is SQLite's own result code). */
enum {
    kCBLSQLiteErrorInterrupted = 9 /**< SQLITE_INTERRUPT: CBLQuery_Interrupt, CBLResultSet_Interrupt or a
                                        progress callback stopped the query. */
};

/** Error codes in kCBLFleeceDomain. */
enum {
    kCBLFleeceErrorJSON = 5 /**< Malformed JSON, invalid UTF-8 in it, or a body that is not an object. */
};

/** An error: domain and code, and `internal_info` that CBLError_Message uses. */
typedef struct {
    CBLErrorDomain domain;
    int32_t code;
    uint32_t internal_info;
} CBLError;

/** The message of an error, owned (free with CBL_FreeString); NULL when `error` is NULL or its code 0. */
_cbl_warn_unused char* _cbl_nullable CBLError_Message(const CBLError* _cbl_nullable error);

/** Frees a string returned as `char*` by DocLite. NULL is ignored. */
CBL_DOCLITE void CBL_FreeString(char* _cbl_nullable string);

/* ---- Reference counting ---------------------------------------------------- */

/** Adds a reference to any DocLite handle (const or not) and returns it; NULL when the handle is not live. */
void* _cbl_nullable CBL_Retain(const void* _cbl_nullable handle);

/** Drops a reference to any DocLite handle (const or not); the last one frees it. NULL and unknown handles are ignored. */
void CBL_Release(const void* _cbl_nullable handle);

/** The number of live handles of every type (for leak tests). */
uint64_t CBL_InstanceCount(void);

/* couchbase-lite-C's typed forms of CBL_Retain / CBL_Release (CBLDatabase_Retain,
   CBLDatabase_Release, …), so that code written for it compiles unchanged. A
   foreign-function layer reading the header defines DOCLITE_CDEF and calls
   CBL_Retain / CBL_Release, which the library exports. */
#ifdef DOCLITE_CDEF
#define CBL_REFCOUNTED(TYPE, NAME)
#else
#define CBL_REFCOUNTED(TYPE, NAME) \
    static inline TYPE* _cbl_nullable CBL##NAME##_Retain(const TYPE* _cbl_nullable handle) { return (TYPE*)CBL_Retain(handle); } \
    static inline void CBL##NAME##_Release(const TYPE* _cbl_nullable handle) { CBL_Release(handle); }
#endif

/** Milliseconds since 1970-01-01 UTC (the unit of expiration times). */
typedef int64_t CBLTimestamp;

/** The current time as a CBLTimestamp. */
CBLTimestamp CBL_Now(void);

/* ---- Databases ------------------------------------------------------------- */

/** An open database (one SQLite file). */
typedef struct CBLDatabase CBLDatabase;
/** A collection of documents in a scope; keeps its database open while it lives. */
typedef struct CBLCollection CBLCollection;
/** A document: immutable as `const CBLDocument*`, mutable as `CBLDocument*`. */
typedef struct CBLDocument CBLDocument;
/** A registered change listener; CBLListener_Remove ends it. */
typedef struct CBLListenerToken CBLListenerToken;
/** A scope: a namespace of collections; keeps its database open while it lives. */
typedef struct CBLScope CBLScope;

CBL_REFCOUNTED(CBLDatabase, Database)
CBL_REFCOUNTED(CBLCollection, Collection)
CBL_REFCOUNTED(CBLDocument, Document)
CBL_REFCOUNTED(CBLScope, Scope)

/** How a database is opened. */
typedef struct {
    const char* _cbl_nullable directory; /**< Directory of the database file; NULL: the current directory. */
    bool fullSync;         /**< true: sync every commit to disk (survives power loss). */
} CBLDatabaseConfiguration;

/** The default configuration: the current directory, fullSync off. */
CBLDatabaseConfiguration CBLDatabaseConfiguration_Default(void);

/** Opens the database `name` (created when missing); `config` is optional. Returns +1. */
_cbl_warn_unused CBLDatabase* _cbl_nullable CBLDatabase_Open(const char* name, const CBLDatabaseConfiguration* _cbl_nullable config, CBLError* _cbl_nullable outError);

/** Closes the database; the handle stays valid (to release) but later calls fail with kCBLErrorNotOpen. */
bool CBLDatabase_Close(CBLDatabase* db, CBLError* _cbl_nullable outError);

/** A maintenance task of CBLDatabase_PerformMaintenance. */
typedef uint32_t CBLMaintenanceType;
enum {
    kCBLMaintenanceTypeCompact = 0,     /**< Reclaim the space of deleted data: delete the blobs no document
                                             refers to, VACUUM, checkpoint. */
    kCBLMaintenanceTypeReindex = 1,     /**< Rebuild every index. */
    kCBLMaintenanceTypeIntegrityCheck = 2, /**< Check the file; a damaged one fails with kCBLErrorCorruptData. */
    kCBLMaintenanceTypeOptimize = 3,    /**< Refresh the query planner's statistics where worthwhile (PRAGMA optimize). */
    kCBLMaintenanceTypeFullOptimize = 4 /**< Gather statistics for every index (ANALYZE). */
};

/** Runs a maintenance task; not inside a transaction (kCBLErrorTransactionNotClosed). A compaction
    while result sets are open waits for them, then fails with kCBLErrorBusy: the file is rebuilt
    but shrinks only at a later compaction. */
bool CBLDatabase_PerformMaintenance(CBLDatabase* db, CBLMaintenanceType type, CBLError* _cbl_nullable outError);

/** Closes the database and deletes its file. */
bool CBLDatabase_Delete(CBLDatabase* db, CBLError* _cbl_nullable outError);

/** Deletes the closed database `name` in `inDirectory` (optional: NULL is the current directory).
    Returns false with code 0 when there is no such database. */
bool CBL_DeleteDatabase(const char* name, const char* _cbl_nullable inDirectory, CBLError* _cbl_nullable outError);

/** Whether a database `name` exists in `inDirectory` (optional). */
bool CBL_DatabaseExists(const char* name, const char* _cbl_nullable inDirectory);

/** The database name, borrowed: valid while the handle lives. NULL for a bad handle. */
const char* _cbl_nullable CBLDatabase_Name(const CBLDatabase* db);

/** The path of the database file, owned; NULL when closed or for a bad handle. */
_cbl_warn_unused char* _cbl_nullable CBLDatabase_Path(const CBLDatabase* db);

/** Begins a transaction, or joins the open one. The thread holds the database until the matching end. */
bool CBLDatabase_BeginTransaction(CBLDatabase* db, CBLError* _cbl_nullable outError);

/** Ends a transaction: the outermost one commits if every level committed, else rolls back. */
bool CBLDatabase_EndTransaction(CBLDatabase* db, bool commit, CBLError* _cbl_nullable outError);

/* ---- Collections ----------------------------------------------------------- */

/** The default collection `_default._default`. Returns +1. */
_cbl_warn_unused CBLCollection* _cbl_nullable CBLDatabase_DefaultCollection(const CBLDatabase* db, CBLError* _cbl_nullable outError);

/** Creates a collection, or returns the existing one; `scopeName` optional (default scope). Returns +1. */
_cbl_warn_unused CBLCollection* _cbl_nullable CBLDatabase_CreateCollection(CBLDatabase* db, const char* collectionName, const char* _cbl_nullable scopeName, CBLError* _cbl_nullable outError);

/** The collection, or NULL with code 0 when it does not exist; `scopeName` optional. Returns +1. */
_cbl_warn_unused CBLCollection* _cbl_nullable CBLDatabase_Collection(const CBLDatabase* db, const char* collectionName, const char* _cbl_nullable scopeName, CBLError* _cbl_nullable outError);

/** Deletes a collection and its documents; `scopeName` optional. Missing collections are not an error. */
bool CBLDatabase_DeleteCollection(CBLDatabase* db, const char* collectionName, const char* _cbl_nullable scopeName, CBLError* _cbl_nullable outError);

/** The collection names of a scope as an owned JSON array; `scopeName` optional. */
_cbl_warn_unused char* _cbl_nullable CBLDatabase_CollectionNames(const CBLDatabase* db, const char* _cbl_nullable scopeName, CBLError* _cbl_nullable outError);

/** The names of the scopes that hold a collection, as a JSON array, owned. */
_cbl_warn_unused char* _cbl_nullable CBLDatabase_ScopeNames(const CBLDatabase* db, CBLError* _cbl_nullable outError);

/** The default scope, `_default`. Returns +1. */
_cbl_warn_unused CBLScope* _cbl_nullable CBLDatabase_DefaultScope(const CBLDatabase* db, CBLError* _cbl_nullable outError);

/** The scope `scopeName`; NULL with error code 0 when it holds no collection. Returns +1. */
_cbl_warn_unused CBLScope* _cbl_nullable CBLDatabase_Scope(const CBLDatabase* db, const char* scopeName, CBLError* _cbl_nullable outError);

/** The scope's name, borrowed: valid while the handle lives. NULL for a bad handle. */
const char* _cbl_nullable CBLScope_Name(const CBLScope* scope);

/** The names of the scope's collections, as a JSON array, owned. */
_cbl_warn_unused char* _cbl_nullable CBLScope_CollectionNames(const CBLScope* scope, CBLError* _cbl_nullable outError);

/** The collection `collectionName` of the scope; NULL with error code 0 when there is none. Returns +1. */
_cbl_warn_unused CBLCollection* _cbl_nullable CBLScope_Collection(const CBLScope* scope, const char* collectionName, CBLError* _cbl_nullable outError);

/** The collection's scope. Returns +1; NULL for a bad handle. */
_cbl_warn_unused CBLScope* _cbl_nullable CBLCollection_Scope(const CBLCollection* collection);

/** The collection name, borrowed: valid while the handle lives. */
const char* _cbl_nullable CBLCollection_Name(const CBLCollection* collection);

/** The collection's scope name, borrowed: valid while the handle lives. */
CBL_DOCLITE const char* _cbl_nullable CBLCollection_ScopeName(const CBLCollection* collection);

/** The number of live documents; 0 for a bad handle or a closed database. */
uint64_t CBLCollection_Count(const CBLCollection* collection);

/* ---- Documents ------------------------------------------------------------- */

/** What a save or delete does when the document changed since it was read. */
typedef uint8_t CBLConcurrencyControl;
enum {
    kCBLConcurrencyControlLastWriteWins = 0,
    kCBLConcurrencyControlFailOnConflict = 1
};

/** A new, empty document with an automatic ID. Returns +1. */
_cbl_warn_unused CBLDocument* CBLDocument_Create(void);

/** A new, empty document; `docID` optional (NULL: automatic ID). NULL for bad UTF-8. Returns +1. */
_cbl_warn_unused CBLDocument* _cbl_nullable CBLDocument_CreateWithID(const char* _cbl_nullable docID, CBLError* _cbl_nullable outError);

/** A mutable copy of a document, to change and save. Returns +1. */
_cbl_warn_unused CBLDocument* _cbl_nullable CBLDocument_MutableCopy(const CBLDocument* doc);

/** The document ID, borrowed: valid while the handle lives. */
const char* _cbl_nullable CBLDocument_ID(const CBLDocument* doc);

/** The revision ID, borrowed: valid until the document is saved or released. NULL before the first save. */
const char* _cbl_nullable CBLDocument_RevisionID(const CBLDocument* doc);

/** The sequence of the document's revision; 0 before the first save. */
uint64_t CBLDocument_Sequence(const CBLDocument* doc);

/** The properties as JSON text, owned. NULL for a bad handle. */
_cbl_warn_unused char* _cbl_nullable CBLDocument_CreateJSON(const CBLDocument* doc);

/** Replaces the properties with the JSON object `json`; on error nothing changes. */
bool CBLDocument_SetJSON(CBLDocument* doc, const char* json, CBLError* _cbl_nullable outError);

/** The document, immutable, or NULL with code 0 when missing or deleted. Returns +1. */
_cbl_warn_unused const CBLDocument* _cbl_nullable CBLCollection_GetDocument(const CBLCollection* collection, const char* docID, CBLError* _cbl_nullable outError);

/** The document, mutable, or NULL with code 0 when missing or deleted. Returns +1. */
_cbl_warn_unused CBLDocument* _cbl_nullable CBLCollection_GetMutableDocument(CBLCollection* collection, const char* docID, CBLError* _cbl_nullable outError);

/** Saves a mutable document (last write wins). */
bool CBLCollection_SaveDocument(CBLCollection* collection, CBLDocument* doc, CBLError* _cbl_nullable outError);

/** Saves many documents in one call (last write wins), for bindings that would
    otherwise cross into the library several times per document: `bodies` is JSON
    Lines (one JSON object per line, a final newline optional), `docIDs` the
    documents' IDs one per line in the same order, or NULL for new IDs. One
    transaction (inside a batch, part of it): on an error nothing of the call is
    saved and the message names the document's line. */
CBL_DOCLITE bool CBLCollection_SaveDocumentsJSON(CBLCollection* collection, const char* _cbl_nullable docIDs, const char* bodies,
                                                 CBLError* _cbl_nullable outError);

/** Saves a mutable document; with kCBLConcurrencyControlFailOnConflict a conflict fails with kCBLErrorConflict. */
bool CBLCollection_SaveDocumentWithConcurrencyControl(CBLCollection* collection, CBLDocument* doc,
                                                      CBLConcurrencyControl concurrency, CBLError* _cbl_nullable outError);

/** Deletes a document, leaving a tombstone (last write wins). */
bool CBLCollection_DeleteDocument(CBLCollection* collection, const CBLDocument* doc, CBLError* _cbl_nullable outError);

/** Deletes a document; with kCBLConcurrencyControlFailOnConflict a conflict fails with kCBLErrorConflict. */
bool CBLCollection_DeleteDocumentWithConcurrencyControl(CBLCollection* collection, const CBLDocument* doc,
                                                        CBLConcurrencyControl concurrency, CBLError* _cbl_nullable outError);

/** Removes every trace of a document. When there is no such document: false with
    error code 0, as in couchbase-lite-C. */
bool CBLCollection_PurgeDocumentByID(CBLCollection* collection, const char* docID, CBLError* _cbl_nullable outError);

/** When the document expires: 0 for never (or no such document), -1 on error. */
CBLTimestamp CBLCollection_GetDocumentExpiration(CBLCollection* collection, const char* docID, CBLError* _cbl_nullable outError);

/** Sets when the document expires (0: never); kCBLErrorNotFound when there is no such document. */
bool CBLCollection_SetDocumentExpiration(CBLCollection* collection, const char* docID, CBLTimestamp expiration, CBLError* _cbl_nullable outError);

/* ---- Blobs ------------------------------------------------------------------ */

/** Binary content (an image, a file) that documents refer to, as Couchbase Lite's blob: stored
    once per digest in the database, outside the document, whose properties hold the blob's
    metadata dictionary {"@type": "blob", "content_type": …, "digest": "sha1-…", "length": …};
    queries return that dictionary, and CBLDatabase_GetBlob turns it back into a blob. A new
    blob's content is stored when a document holding it is saved (in the save's transaction: a
    rolled-back batch stores nothing) or by CBLDatabase_SaveBlob. Compaction
    (kCBLMaintenanceTypeCompact) deletes the content no document refers to. */
typedef struct CBLBlob CBLBlob;
/** A stream reading a blob's content (CBLBlob_OpenContentStream); one thread at a time. */
typedef struct CBLBlobReadStream CBLBlobReadStream;
/** A stream writing new blob content piece by piece (CBLBlobWriter_Create), staged in a
    temporary file so that content of any size is never held in memory. */
typedef struct CBLBlobWriteStream CBLBlobWriteStream;

CBL_REFCOUNTED(CBLBlob, Blob)

/** The metadata dictionary's keys, and the value of its "@type". */
#define kCBLTypeProperty "@type"
#define kCBLBlobType "blob"
#define kCBLBlobDigestProperty "digest"
#define kCBLBlobLengthProperty "length"
#define kCBLBlobContentTypeProperty "content_type"

/** A new blob holding a copy of `length` bytes at `contents` (NULL only when `length` is 0);
    `contentType` (a MIME type) optional. Returns +1. */
_cbl_warn_unused CBLBlob* _cbl_nullable CBLBlob_CreateWithData(const char* _cbl_nullable contentType, const void* _cbl_nullable contents, size_t length, CBLError* _cbl_nullable outError);

/** The content's length in bytes; 0 for a bad handle. */
uint64_t CBLBlob_Length(const CBLBlob* blob);

/** The MIME type, borrowed: valid while the blob lives. NULL when it has none. */
const char* _cbl_nullable CBLBlob_ContentType(const CBLBlob* blob);

/** The digest ("sha1-" and the Base64 of the content's SHA-1), borrowed: valid while the blob lives. */
const char* _cbl_nullable CBLBlob_Digest(const CBLBlob* blob);

/** The metadata dictionary as JSON text, owned: what a document's properties hold for the blob. */
_cbl_warn_unused char* _cbl_nullable CBLBlob_CreateJSON(const CBLBlob* blob);

/** Whether two blobs have the same content (the same digest). */
bool CBLBlob_Equals(const CBLBlob* blob, const CBLBlob* other);

/** The whole content, in memory allocated with malloc (free it with free()), its length in
    `*outLength`; not NULL on success, also for empty content. Fails when the database that
    stores the blob is closed or lacks its content. */
_cbl_warn_unused void* _cbl_nullable CBLBlob_Content(const CBLBlob* blob, size_t* outLength, CBLError* _cbl_nullable outError);

/** Opens a stream over the content, for content too large to read whole; a stored blob's
    stream keeps a read snapshot of its database until it is closed. Returns +1 (close it
    with CBLBlobReader_Close). */
_cbl_warn_unused CBLBlobReadStream* _cbl_nullable CBLBlob_OpenContentStream(const CBLBlob* blob, CBLError* _cbl_nullable outError);

/** Reads up to `maxLength` bytes into `dst`: the number read, 0 at the end, -1 on error. */
int CBLBlobReader_Read(CBLBlobReadStream* stream, void* dst, size_t maxLength, CBLError* _cbl_nullable outError);

/** Where CBLBlobReader_Seek measures its offset from. */
typedef uint8_t CBLSeekBase;
enum {
    kCBLSeekModeFromStart = 0, /**< From the first byte. */
    kCBLSeekModeRelative = 1,  /**< From the current position. */
    kCBLSeekModeFromEnd = 2    /**< From the end (the offset is then 0 or negative). */
};

/** Moves the position; returns the new one, or -1 when it would fall outside the content. */
int64_t CBLBlobReader_Seek(CBLBlobReadStream* stream, int64_t offset, CBLSeekBase base, CBLError* _cbl_nullable outError);

/** The current position (where the next read starts). */
uint64_t CBLBlobReader_Position(CBLBlobReadStream* stream);

/** Closes and releases the stream. NULL is ignored. */
void CBLBlobReader_Close(CBLBlobReadStream* _cbl_nullable stream);

/** A stream to write new content to, then make a blob of with CBLBlob_CreateWithStream.
    `db` must be open (the content is stored in it when a document holding the blob is saved,
    or in any other database it is saved in). Returns +1. */
_cbl_warn_unused CBLBlobWriteStream* _cbl_nullable CBLBlobWriter_Create(CBLDatabase* db, CBLError* _cbl_nullable outError);

/** Appends `length` bytes; fails when the temporary file cannot be written (a full disk). */
bool CBLBlobWriter_Write(CBLBlobWriteStream* writer, const void* data, size_t length, CBLError* _cbl_nullable outError);

/** Discards a writer that made no blob: deletes what it staged and releases it. NULL is ignored. */
void CBLBlobWriter_Close(CBLBlobWriteStream* _cbl_nullable writer);

/** A new blob of what was written to `writer`. The writer is consumed (as in couchbase-lite-C):
    the blob takes its content and the handle is released, also when the call fails. `contentType`
    optional, as for CBLBlob_CreateWithData. Returns +1. */
_cbl_warn_unused CBLBlob* _cbl_nullable CBLBlob_CreateWithStream(const char* _cbl_nullable contentType, CBLBlobWriteStream* writer, CBLError* _cbl_nullable outError);

/** Sets the property `key` of a mutable document to a blob (its metadata dictionary); the
    content is stored when the document is saved. Nested blobs: put CBLBlob_CreateJSON's
    dictionary anywhere in the properties after CBLDatabase_SaveBlob. */
CBL_DOCLITE bool CBLDocument_SetBlob(CBLDocument* doc, const char* key, const CBLBlob* blob, CBLError* _cbl_nullable outError);

/** The blob in the property `key`, or NULL with code 0 when that property is not a blob's
    metadata dictionary. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLBlob* _cbl_nullable CBLDocument_GetBlob(const CBLDocument* doc, const char* key, CBLError* _cbl_nullable outError);

/** Stores a blob's content in `db` (once per digest), so that a document may refer to it by its
    metadata; until one does, compaction deletes it. */
bool CBLDatabase_SaveBlob(CBLDatabase* db, const CBLBlob* blob, CBLError* _cbl_nullable outError);

/** The blob a metadata dictionary (JSON text, as a document or a query row holds it) describes,
    or NULL with code 0 when `db` does not store its content; kCBLErrorInvalidParameter when the
    JSON is not a blob's metadata. Returns +1. */
_cbl_warn_unused CBLBlob* _cbl_nullable CBLDatabase_GetBlob(CBLDatabase* db, const char* propertiesJSON, CBLError* _cbl_nullable outError);

/* ---- Queries ---------------------------------------------------------------- */

/** A compiled query; keeps its database open while it lives. */
typedef struct CBLQuery CBLQuery;
/** The rows of one run of a query, read as they are iterated; keeps its query alive. */
typedef struct CBLResultSet CBLResultSet;

CBL_REFCOUNTED(CBLQuery, Query)
CBL_REFCOUNTED(CBLResultSet, ResultSet)

/** The language of a query's text. */
typedef uint8_t CBLQueryLanguage;
enum {
    kCBLJSONLanguage = 0, /**< LiteCore's JSON query language: {"WHAT": [[".name"]], "WHERE": ["=", [".type"], "hotel"]}. */
    kCBLN1QLLanguage = 1  /**< SQL++ for Mobile: SELECT name FROM _ WHERE type = 'hotel'. */
};

/** Compiles `queryString`. On failure (kCBLErrorInvalidQuery, with a message naming
    the fault's location) `*outErrorPos` (optional) is the byte offset of a syntax
    error in the text, or -1 when the text parsed but the query is invalid. Returns +1. */
_cbl_warn_unused CBLQuery* _cbl_nullable CBLDatabase_CreateQuery(const CBLDatabase* db, CBLQueryLanguage language, const char* queryString,
                                                                 int* _cbl_nullable outErrorPos, CBLError* _cbl_nullable outError);

/** Sets the parameters (`["$name"]` in the query) from a JSON object such as
    {"name": "x", "limit": 10}; NULL clears them. A parameter left unset is MISSING. */
bool CBLQuery_SetParameters(CBLQuery* query, const char* _cbl_nullable json, CBLError* _cbl_nullable outError);

/** Runs the query with its current parameters. Returns +1. */
_cbl_warn_unused CBLResultSet* _cbl_nullable CBLQuery_Execute(CBLQuery* query, CBLError* _cbl_nullable outError);

/** Stops every run of `query` in progress, from any thread (sqlite3_interrupt for one
    query): the CBLQuery_Execute or CBLResultSet_Next working on it now returns
    NULL/false with kCBLSQLiteDomain / kCBLSQLiteErrorInterrupted, and so does every later
    CBLResultSet_Next of those runs. Runs started afterwards are not affected. A bad
    handle is ignored. */
CBL_DOCLITE void CBLQuery_Interrupt(CBLQuery* query);

/** Stops one run, from any thread, as CBLQuery_Interrupt stops all of them. */
CBL_DOCLITE void CBLResultSet_Interrupt(CBLResultSet* rs);

/** A progress callback (CBLQuery_SetProgressHandler): false stops the run. */
typedef bool (*CBLQueryProgressCallback)(void* _cbl_nullable context);

/** Calls `callback(context)` every `steps` SQLite virtual-machine steps (at least 1)
    while a run of `query` works, on the thread running it (sqlite3_progress_handler);
    when it returns false the run stops as CBLQuery_Interrupt stops it. Applies to runs
    started later (a run keeps the callback it started with until its last row); a NULL
    callback removes it. `context` must stay valid until every run started while it was
    set has ended: until the query is released, to be safe. Without a callback, a run
    checks for an interrupt every 1,000 steps. */
CBL_DOCLITE bool CBLQuery_SetProgressHandler(CBLQuery* query, unsigned steps, CBLQueryProgressCallback _cbl_nullable callback, void* _cbl_nullable context,
                                             CBLError* _cbl_nullable outError);

/** The SQL, SQLite's query plan, the JSON query and its SQL++ text, separated by blank lines; owned. */
_cbl_warn_unused char* _cbl_nullable CBLQuery_Explain(const CBLQuery* query, CBLError* _cbl_nullable outError);

/** The query as SQL++ text, which CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, …) reads back
    to the same query, however it was made (JSON, SQL++ or the query builder); owned. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLQuery_CopySQLPP(const CBLQuery* query, CBLError* _cbl_nullable outError);

/** The number of result columns; 0 for a bad handle. */
unsigned CBLQuery_ColumnCount(const CBLQuery* query);

/** The title of column `columnIndex` (`name`, `$1`, an alias…), borrowed: valid
    while the query lives. NULL when out of range. */
const char* _cbl_nullable CBLQuery_ColumnName(const CBLQuery* query, unsigned columnIndex);

/** Moves to the next row: true when there is one. At the end: false with
    outError->code 0. If reading fails (the database was closed, say): false with the error. */
bool CBLResultSet_Next(CBLResultSet* rs, CBLError* _cbl_nullable outError);

/** The type of a value in the current row. */
typedef int8_t CBLValueType;
enum {
    kCBLValueMissing = -1, /**< No value (MISSING), or no such column, or no current row. */
    kCBLValueNull = 0,     /**< JSON null. */
    kCBLValueBoolean = 1,
    kCBLValueInteger = 2,  /**< A 64-bit integer (unsigned values above INT64_MAX read as double). */
    kCBLValueDouble = 3,
    kCBLValueString = 4,
    kCBLValueArray = 5,    /**< Read it with CBLResultSet_JSONAtIndex / ForKey. */
    kCBLValueDict = 6      /**< Read it with CBLResultSet_JSONAtIndex / ForKey. */
};

/** The type of column `index` of the current row. */
CBL_DOCLITE CBLValueType CBLResultSet_TypeAtIndex(const CBLResultSet* rs, unsigned index);
/** The type of the column titled `key` in the current row. */
CBL_DOCLITE CBLValueType CBLResultSet_TypeForKey(const CBLResultSet* rs, const char* key);

/** A boolean column; numbers are true when non-zero; false for anything else. */
CBL_DOCLITE bool CBLResultSet_BoolAtIndex(const CBLResultSet* rs, unsigned index);
/** As CBLResultSet_BoolAtIndex, by column title. */
CBL_DOCLITE bool CBLResultSet_BoolForKey(const CBLResultSet* rs, const char* key);

/** An integer column (doubles truncated, booleans 0/1); 0 for anything else. */
CBL_DOCLITE int64_t CBLResultSet_IntAtIndex(const CBLResultSet* rs, unsigned index);
/** As CBLResultSet_IntAtIndex, by column title. */
CBL_DOCLITE int64_t CBLResultSet_IntForKey(const CBLResultSet* rs, const char* key);

/** A number column as a double; 0 for anything else. */
CBL_DOCLITE double CBLResultSet_DoubleAtIndex(const CBLResultSet* rs, unsigned index);
/** As CBLResultSet_DoubleAtIndex, by column title. */
CBL_DOCLITE double CBLResultSet_DoubleForKey(const CBLResultSet* rs, const char* key);

/** A string column, borrowed: valid until the result set moves on or is released.
    NULL unless the value is a string; a string holding NUL ends at it (use the JSON getter). */
CBL_DOCLITE const char* _cbl_nullable CBLResultSet_StringAtIndex(const CBLResultSet* rs, unsigned index);
/** As CBLResultSet_StringAtIndex, by column title. */
CBL_DOCLITE const char* _cbl_nullable CBLResultSet_StringForKey(const CBLResultSet* rs, const char* key);

/** Any column as JSON text (`"text"`, `12`, `null`, `[1,2]`, `{"a":1}`), borrowed:
    valid until the result set moves on or is released. NULL when MISSING. */
CBL_DOCLITE const char* _cbl_nullable CBLResultSet_JSONAtIndex(const CBLResultSet* rs, unsigned index);
/** As CBLResultSet_JSONAtIndex, by column title. */
CBL_DOCLITE const char* _cbl_nullable CBLResultSet_JSONForKey(const CBLResultSet* rs, const char* key);

/** The current row as a JSON object keyed by column title, keys sorted by their bytes
    (MISSING columns left out), owned. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLResultSet_CreateRowDictJSON(const CBLResultSet* rs);
/** The current row as a JSON array in column order (MISSING written as null), owned. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLResultSet_CreateRowArrayJSON(const CBLResultSet* rs);

/** Reads up to `maxRows` rows in one call (for bindings): a JSON array of rows, each
    an array whose first element is the bitmask of its MISSING columns (bit i:
    column i, as LiteCore's missingColumns; columns past 62 are never marked), then
    the column values (MISSING as null); `[]` after the last row. The last row read
    becomes the current row. Owned; NULL on error. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLResultSet_NextRowsJSON(CBLResultSet* rs, unsigned maxRows, CBLError* _cbl_nullable outError);

/** CBLResultSet_NextRowsJSON's block in the binary form of Python's `marshal` module,
    which the Python and Rust bindings read (marshal.loads makes the rows' lists with no
    text to parse; the format is Python's, stable since version 2 of marshal):
    a list of rows, each a list of the MISSING mask then the values (str, int, float,
    bool, None, list, dict). Owned: free with free(); `*outLength` is its size in bytes.
    NULL on error. */
CBL_DOCLITE _cbl_warn_unused void* _cbl_nullable CBLResultSet_NextRowsMarshal(CBLResultSet* rs, unsigned maxRows, size_t* outLength, CBLError* _cbl_nullable outError);

/* ---- Query builder ----------------------------------------------------------- */
/*
 * Couchbase Lite's QueryBuilder by handle: parts are made call by call and
 * assembled by CBLQueryBuilder_Create into a CBLQuery. Every constructor below
 * returns a +1 part; every part argument is consumed (see OWNERSHIP). A part
 * never is NULL: bad input gives an error part that makes the builder fail.
 *
 *   CBLQuerySelectResult* what[] = {
 *       CBLQuerySelectResult_Expression(CBLQueryMeta_ID(NULL)),
 *       CBLQuerySelectResult_Expression(CBLQueryExpression_Property("name"))};
 *   CBLQueryOrdering* order[] = {CBLQueryOrdering_Ascending(CBLQueryExpression_Property("name"))};
 *   CBLQuery* q = CBLQueryBuilder_Create(what, 2, false, CBLQueryDataSource_Collection(hotels), NULL, 0,
 *       CBLQueryExpression_And(
 *           CBLQueryExpression_EqualTo(CBLQueryExpression_Property("type"), CBLQueryExpression_String("hotel")),
 *           CBLQueryExpression_EqualTo(CBLQueryExpression_Property("country"), CBLQueryExpression_Parameter("country"))),
 *       NULL, 0, NULL, order, 1, CBLQueryLimit_Limit(CBLQueryExpression_Int(10)), &err);
 *   CBLQuery_SetParameters(q, "{\"country\": \"France\"}", &err);
 *
 * An expression nests at most DOCLITE_QUERY_MAX_DEPTH levels (a leaf is one
 * level; ANY/EVERY count three): a constructor whose result would be deeper
 * returns an error part (kCBLErrorInvalidQuery), so a deeper tree never
 * exists. It is what SQLite parses for every kind of expression; chains of
 * AND, OR, + and * made by the builder stay flat.
 */

/** The deepest expression tree a query may hold (the same for JSON queries). */
#define DOCLITE_QUERY_MAX_DEPTH 16

/** An expression of the query builder (a property, a literal, a parameter, an operator, a function). */
typedef struct CBLQueryExpression CBLQueryExpression;
/** A result column of the query builder. */
typedef struct CBLQuerySelectResult CBLQuerySelectResult;
/** A data source (a collection, maybe aliased) of the query builder. */
typedef struct CBLQueryDataSource CBLQueryDataSource;
/** A join of the query builder: a data source, its kind and its ON condition. */
typedef struct CBLQueryJoin CBLQueryJoin;
/** An ORDER BY item of the query builder. */
typedef struct CBLQueryOrdering CBLQueryOrdering;
/** A collation of the query builder, for CBLQueryExpression_Collate. */
typedef struct CBLQueryCollation CBLQueryCollation;
/** The LIMIT (and OFFSET) of the query builder. */
typedef struct CBLQueryLimit CBLQueryLimit;

/* Literals and parameters */
/** A string literal. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_String(const char* value);
/** An integer literal. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Int(int64_t value);
/** A floating-point literal, written as its shortest decimal form (1.1f is 1.1). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Float(float value);
/** A floating-point literal. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Double(double value);
/** A boolean literal. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Bool(bool value);
/** The JSON null literal. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Null(void);
/** A date literal, `millis` milliseconds since 1970: its ISO-8601 UTC string with
    milliseconds ("2024-01-10T14:31:14.000Z"). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Date(int64_t millis);
/** A query parameter, set with CBLQuery_SetParameters: ["$name"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Parameter(const char* name);
/** An array literal of `count` expressions: ["[]", item1, item2…]. The array is borrowed,
    each item consumed. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Array(CBLQueryExpression* _cbl_nonnull const* _cbl_nonnull items, size_t count);
/** A dictionary literal {keys[i]: values[i]…} of `count` members; the keys must be unique.
    Both arrays are borrowed, each value consumed. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Dictionary(const char* _cbl_nonnull const* _cbl_nonnull keys, CBLQueryExpression* _cbl_nonnull const* _cbl_nonnull values, size_t count);

/* Properties */
/** A document property by path ("address.city", "likes[0]"): [".address.city"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Property(const char* name);
/** A property of the data source named `alias`: [".alias.name"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_PropertyFrom(const char* name, const char* alias);
/** The whole document, of the data source `alias` (optional): ["."] or [".alias."]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_All(const char* _cbl_nullable alias);

/* Operators: each a method of its first operand, `a` (in Swift a.equalTo(b)) */
/* BEGIN generated by scripts/generate-builders from codegen/query-operators.tsv */
/* Comparison */
/** a = b: ["=", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_EqualTo(CBLQueryExpression* a, CBLQueryExpression* b);
/** a != b: ["!=", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_NotEqualTo(CBLQueryExpression* a, CBLQueryExpression* b);
/** a < b: ["<", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_LessThan(CBLQueryExpression* a, CBLQueryExpression* b);
/** a <= b: ["<=", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_LessThanOrEqualTo(CBLQueryExpression* a, CBLQueryExpression* b);
/** a > b: [">", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_GreaterThan(CBLQueryExpression* a, CBLQueryExpression* b);
/** a >= b: [">=", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_GreaterThanOrEqualTo(CBLQueryExpression* a, CBLQueryExpression* b);
/** a IS b: equal, both null or both MISSING: ["IS", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Is(CBLQueryExpression* a, CBLQueryExpression* b);
/** a IS NOT b: ["IS NOT", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_IsNot(CBLQueryExpression* a, CBLQueryExpression* b);
/** Whether a is neither null nor MISSING: ["IS VALUED", a]. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_IsValued(CBLQueryExpression* a);
/** Whether a is null or MISSING: ["NOT", ["IS VALUED", a]]. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_IsNotValued(CBLQueryExpression* a);
/** a BETWEEN low AND high, both included: ["BETWEEN", a, low, high]. Consumes a, low and high; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Between(CBLQueryExpression* a, CBLQueryExpression* low, CBLQueryExpression* high);
/** a LIKE pattern: % any run of characters, _ one character, case-sensitive: ["LIKE", a, pattern]. Consumes a and pattern; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Like(CBLQueryExpression* a, CBLQueryExpression* pattern);
/** Whether a matches the regular expression pattern (PCRE2): ["REGEXP_LIKE()", a, pattern]. Consumes a and pattern; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Regex(CBLQueryExpression* a, CBLQueryExpression* pattern);

/* Arithmetic */
/** a + b: ["+", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Add(CBLQueryExpression* a, CBLQueryExpression* b);
/** a - b: ["-", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Subtract(CBLQueryExpression* a, CBLQueryExpression* b);
/** a * b: ["*", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Multiply(CBLQueryExpression* a, CBLQueryExpression* b);
/** a / b; two integers divide as integers, the quotient truncated toward zero (7 / 2 is 3, 7.0 / 2 is 3.5), as in Couchbase Lite: ["/", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Divide(CBLQueryExpression* a, CBLQueryExpression* b);
/** a % b: ["%", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Modulo(CBLQueryExpression* a, CBLQueryExpression* b);

/* Logic */
/** a AND b: ["AND", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_And(CBLQueryExpression* a, CBLQueryExpression* b);
/** a OR b: ["OR", a, b]. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Or(CBLQueryExpression* a, CBLQueryExpression* b);
/* END generated */

/* IN and NOT */
/** Whether a equals one of `items` (the array borrowed, each of its `count` items
    consumed). Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_In(CBLQueryExpression* a, CBLQueryExpression* _cbl_nonnull const* _cbl_nonnull items, size_t count);
/** NOT a. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Not(CBLQueryExpression* a);
/** NOT a, as CBLQueryExpression_Not: ["NOT", a]. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Negated(CBLQueryExpression* a);

/* COLLATE */
/** `a` under `collation`: ["COLLATE", {…}, a]. Around a condition
    (Collate(EqualTo(x, y), c), Collate(Like(x, p), c)) it collates the first comparison
    or LIKE inside; around an operand (EqualTo(Collate(x, c), y), Like(Collate(x, c), p),
    Like(x, Collate(p, c))) the comparison or LIKE it is an operand of; around an
    ORDER BY key, the ordering. Consumes a and collation; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryExpression_Collate(CBLQueryExpression* a, CBLQueryCollation* collation);

/* Collations, for CBLQueryExpression_Collate */
/** ASCII collation (byte order); `caseSensitive` false makes ASCII letters of either
    case equal: {"UNICODE": false, "LOCALE": null, "CASE": caseSensitive, "DIAC": true}. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryCollation* CBLQueryCollation_ASCII(bool caseSensitive);
/** Unicode (ICU) collation: {"UNICODE": true, "LOCALE": locale, "CASE": caseSensitive,
    "DIAC": diacriticSensitive}; `locale` ("en_US", "se") optional: NULL is the current locale. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryCollation* CBLQueryCollation_Unicode(bool caseSensitive, bool diacriticSensitive, const char* _cbl_nullable locale);

/* Metadata (META()) */
/** The document ID, of the data source `alias` (optional): ["._id"]; column title `id`. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryMeta_ID(const char* _cbl_nullable alias);
/** The document's sequence number, of the data source `alias` (optional): ["._sequence"];
    column title `sequence`. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryMeta_Sequence(const char* _cbl_nullable alias);
/** Whether the document is deleted, of the data source `alias` (optional): ["._deleted"].
    Using it makes the query read deleted documents too. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryMeta_IsDeleted(const char* _cbl_nullable alias);
/** The expiration time in milliseconds since 1970 (MISSING when none), of the data
    source `alias` (optional): ["._expiration"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryMeta_Expiration(const char* _cbl_nullable alias);
/** The current revision ID, of the data source `alias` (optional): ["._revisionID"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryMeta_RevisionID(const char* _cbl_nullable alias);

/* BEGIN generated by scripts/generate-builders from codegen/query-functions.tsv */
/* Aggregate */
/** COUNT(a). The number of rows where `a` is valued, or of all rows when `a` is omitted (aggregate). Consumes a (NULL: all rows); returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Count(CBLQueryExpression* _cbl_nullable a);
/** SUM(a). The sum (aggregate). Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Sum(CBLQueryExpression* a);
/** AVG(a). The average (aggregate). Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Avg(CBLQueryExpression* a);
/** MIN(a). The smallest value (aggregate). Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Min(CBLQueryExpression* a);
/** MAX(a). The largest value (aggregate). Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Max(CBLQueryExpression* a);

/* Math */
/** ABS(a). The absolute value. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Abs(CBLQueryExpression* a);
/** ACOS(a). Arc cosine. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Acos(CBLQueryExpression* a);
/** ASIN(a). Arc sine. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Asin(CBLQueryExpression* a);
/** ATAN(a). Arc tangent. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Atan(CBLQueryExpression* a);
/** ATAN2(y, x). The arc tangent of `y / x`. Consumes y and x; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Atan2(CBLQueryExpression* y, CBLQueryExpression* x);
/** CEIL(a). The smallest integer not below `a`. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Ceil(CBLQueryExpression* a);
/** COS(a). Cosine. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Cos(CBLQueryExpression* a);
/** DEGREES(a). Radians to degrees. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Degrees(CBLQueryExpression* a);
/** E(). Euler's number. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_E(void);
/** EXP(a). e to the power `a`. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Exp(CBLQueryExpression* a);
/** FLOOR(a). The largest integer not above `a`. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Floor(CBLQueryExpression* a);
/** LN(a). Natural logarithm. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Ln(CBLQueryExpression* a);
/** LOG(a). Base-10 logarithm. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Log(CBLQueryExpression* a);
/** PI(). π. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Pi(void);
/** POWER(base, exponent). `base` to the power `exponent`. Consumes base and exponent; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Power(CBLQueryExpression* base, CBLQueryExpression* exponent);
/** RADIANS(a). Degrees to radians. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Radians(CBLQueryExpression* a);
/** ROUND(a). Rounded to an integer. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Round(CBLQueryExpression* a);
/** ROUND(a, digits). Rounded to `digits` decimal places. Consumes a and digits; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_RoundDigits(CBLQueryExpression* a, CBLQueryExpression* digits);
/** SIGN(a). -1, 0 or 1. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Sign(CBLQueryExpression* a);
/** SIN(a). Sine. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Sin(CBLQueryExpression* a);
/** SQRT(a). Square root. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Sqrt(CBLQueryExpression* a);
/** TAN(a). Tangent. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Tan(CBLQueryExpression* a);
/** TRUNC(a). Truncated to an integer. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Trunc(CBLQueryExpression* a);
/** TRUNC(a, digits). Truncated to `digits` decimal places. Consumes a and digits; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_TruncDigits(CBLQueryExpression* a, CBLQueryExpression* digits);

/* String */
/** CONTAINS(a, substring). Whether string `a` contains `substring`. Consumes a and substring; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Contains(CBLQueryExpression* a, CBLQueryExpression* substring);
/** LENGTH(a). The length of a string. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Length(CBLQueryExpression* a);
/** LOWER(a). Lower case. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Lower(CBLQueryExpression* a);
/** UPPER(a). Upper case. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Upper(CBLQueryExpression* a);
/** LTRIM(a). Without leading white space. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Ltrim(CBLQueryExpression* a);
/** RTRIM(a). Without trailing white space. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Rtrim(CBLQueryExpression* a);
/** TRIM(a). Without leading and trailing white space. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_Trim(CBLQueryExpression* a);

/* Date */
/** STR_TO_MILLIS(a). An ISO-8601 date string as milliseconds since 1970. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_StringToMillis(CBLQueryExpression* a);
/** STR_TO_UTC(a). An ISO-8601 date string in UTC. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_StringToUTC(CBLQueryExpression* a);
/** MILLIS_TO_STR(a). Milliseconds since 1970 as a local ISO-8601 string. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_MillisToString(CBLQueryExpression* a);
/** MILLIS_TO_UTC(a). Milliseconds since 1970 as an ISO-8601 string in UTC. Consumes a; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_MillisToUTC(CBLQueryExpression* a);

/* Vector */
/** EUCLIDEAN_DISTANCE(a, b). The Euclidean distance between the vectors (arrays of numbers) `a` and `b`; MISSING unless both are arrays of one length. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_EuclideanDistance(CBLQueryExpression* a, CBLQueryExpression* b);
/** EUCLIDEAN_DISTANCE(a, b, 2). The square of the Euclidean distance between the vectors `a` and `b`, cheaper to compute and in the same order. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_SquaredEuclideanDistance(CBLQueryExpression* a, CBLQueryExpression* b);
/** COSINE_DISTANCE(a, b). 1 minus the cosine of the angle between the vectors `a` and `b`; MISSING unless both are arrays of one length, neither all zeros. Consumes a and b; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_CosineDistance(CBLQueryExpression* a, CBLQueryExpression* b);
/** APPROX_VECTOR_DISTANCE(a, target). The distance from the vector `a` (a property, or the expression of a vector index) to `target` by the index's metric (squared Euclidean without one), found with the vector index on `a` when there is one (a query ordering by it needs a LIMIT of at most 10,000 unless its WHERE filters on other properties). Consumes a and target; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_ApproxVectorDistance(CBLQueryExpression* a, CBLQueryExpression* target);
/** APPROX_VECTOR_DISTANCE(a, target, metric). The distance by `metric`, a string: `"euclidean_squared"`, `"euclidean"`, `"cosine"` or `"dot"` (any case), which must be the vector index's. Consumes a and target and metric; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFunction_ApproxVectorDistanceMetric(CBLQueryExpression* a, CBLQueryExpression* target, CBLQueryExpression* metric);

/* Array */
/** ARRAY_CONTAINS(array, value). Whether the array `array` holds `value`. Consumes array and value; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayFunction_Contains(CBLQueryExpression* array, CBLQueryExpression* value);
/** ARRAY_LENGTH(array). The number of items of the array `array`. Consumes array; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayFunction_Length(CBLQueryExpression* array);
/* END generated */

/* Arrays: variables and ANY / EVERY */
/** A variable bound by CBLQueryArrayExpression_Any/_Every/_AnyAndEvery, usable in their
    condition; "x.name" is a property of the item: ["?x.name"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayExpression_Variable(const char* name);
/** ANY variable IN inArray SATISFIES satisfies: true if an item does.
    `variable` must be a CBLQueryArrayExpression_Variable (else an error part).
    Consumes all three; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayExpression_Any(CBLQueryExpression* variable, CBLQueryExpression* inArray,
                                                                             CBLQueryExpression* satisfies);
/** EVERY variable IN inArray SATISFIES satisfies: true if every item does (also for an
    empty array). `variable` as for _Any. Consumes all three; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayExpression_Every(CBLQueryExpression* variable, CBLQueryExpression* inArray,
                                                                               CBLQueryExpression* satisfies);
/** ANY AND EVERY variable IN inArray SATISFIES satisfies: true if the array is not empty
    and every item does. `variable` as for _Any. Consumes all three; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryArrayExpression_AnyAndEvery(CBLQueryExpression* variable, CBLQueryExpression* inArray,
                                                                                     CBLQueryExpression* satisfies);

/* Full-text search */
/** MATCH(index, query): whether the document matches the full-text `query` in the
    full-text index `indexName` (see CBLCollection_CreateFullTextIndex) of the data source
    `alias` (optional: needed with joins): ["MATCH()", "alias.indexName", "query"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFullTextFunction_Match(const char* indexName, const char* _cbl_nullable alias, const char* query);
/** RANK(index): the relevance of the MATCH on the full-text index `indexName` of the data
    source `alias` (optional), for ordering (higher is better): ["RANK()", "alias.indexName"]. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryExpression* CBLQueryFullTextFunction_Rank(const char* indexName, const char* _cbl_nullable alias);

/** A result column of an expression, titled by Couchbase Lite's rules (a property's
    last key — a path ending in an index, `likes[0]`, is unnamed —, `id` for
    CBLQueryMeta_ID, else $1, $2… counting the unnamed columns). Consumes expr; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuerySelectResult* CBLQuerySelectResult_Expression(CBLQueryExpression* expr);
/** A property by path as a result column, titled with its last key (`$N` when the path
    ends in an index, as CBLQuerySelectResult_Expression). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuerySelectResult* CBLQuerySelectResult_Property(const char* name);
/** A result column titled `alias`. Consumes expr; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuerySelectResult* CBLQuerySelectResult_ExpressionAs(CBLQueryExpression* expr, const char* alias);
/** The whole document, of the data source `alias` (optional), keyed by the alias
    (or the collection name). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuerySelectResult* CBLQuerySelectResult_All(const char* _cbl_nullable alias);

/** The documents of `collection` (borrowed: the part retains it). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryDataSource* CBLQueryDataSource_Collection(const CBLCollection* collection);
/** The documents of `collection` (borrowed), named `alias` in properties, joins and results. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryDataSource* CBLQueryDataSource_CollectionAs(const CBLCollection* collection, const char* alias);
/** The documents of the default collection of `database` (borrowed: the part retains it), named
    by the database's name in results (Couchbase Lite's legacy `database:` source). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryDataSource* CBLQueryDataSource_Database(const CBLDatabase* database);
/** As CBLQueryDataSource_Database, named `alias` in properties, joins and results. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryDataSource* CBLQueryDataSource_DatabaseAs(const CBLDatabase* database, const char* alias);

/** An inner join of `dataSource` on `on` (required). Consumes both; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryJoin* CBLQueryJoin_Join(CBLQueryDataSource* dataSource, CBLQueryExpression* on);
/** A left outer join of `dataSource` on `on` (required). Consumes both; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryJoin* CBLQueryJoin_LeftJoin(CBLQueryDataSource* dataSource, CBLQueryExpression* on);
/** A cross join of `dataSource`, without condition. Consumes it; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryJoin* CBLQueryJoin_CrossJoin(CBLQueryDataSource* dataSource);

/** Order by `expr`, smallest first. Consumes expr; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryOrdering* CBLQueryOrdering_Ascending(CBLQueryExpression* expr);
/** Order by `expr`, largest first. Consumes expr; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryOrdering* CBLQueryOrdering_Descending(CBLQueryExpression* expr);
/** Order by the property `name`, smallest first, as Objective-C's
    `[CBLQueryOrdering property:name]`. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryOrdering* CBLQueryOrdering_Property(const char* name);
/** Order by `expr`, smallest first, as `[CBLQueryOrdering expression:expr]`. Consumes expr; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryOrdering* CBLQueryOrdering_Expression(CBLQueryExpression* expr);
/** The same ordering, largest first, as Objective-C's `[… descending]`:
    `CBLQueryOrdering_Descend(CBLQueryOrdering_Property("title"))`. Consumes ordering; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryOrdering* CBLQueryOrdering_Descend(CBLQueryOrdering* ordering);

/** LIMIT: at most `limit` rows (an expression: an integer literal or a parameter).
    Consumes limit; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryLimit* CBLQueryLimit_Limit(CBLQueryExpression* limit);
/** LIMIT limit OFFSET offset: at most `limit` rows, after skipping `offset` rows;
    `offset` optional (NULL: none, as CBLQueryLimit_Limit). Consumes both; returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryLimit* CBLQueryLimit_LimitOffset(CBLQueryExpression* limit, CBLQueryExpression* _cbl_nullable offset);

/** Assembles and compiles SELECT [DISTINCT] select FROM from joins WHERE where
    GROUP BY groupBy HAVING having ORDER BY orderBy LIMIT limit, as Couchbase Lite's
    +[CBLQueryBuilder select:from:join:where:groupBy:having:orderBy:limit:].
    Every part is consumed, also on failure; the arrays are borrowed and may be
    NULL when their count is 0. Optional: `where`, `having`, `limit` (NULL: absent);
    `from` is required. No select results selects the whole document. HAVING needs
    GROUP BY. An error part, a NULL or consumed part fails with its error
    (kCBLErrorInvalidParameter, or kCBLErrorInvalidQuery from the compiler).
    Returns +1: a CBLQuery used with CBLQuery_SetParameters, CBLQuery_Execute,
    CBLQuery_Explain, CBLQuery_CopyJSON. */
CBL_DOCLITE _cbl_warn_unused CBLQuery* _cbl_nullable CBLQueryBuilder_Create(CBLQuerySelectResult* _cbl_nonnull const* _cbl_nullable select, size_t selectCount, bool distinct,
                                                                            CBLQueryDataSource* from,
                                                                            CBLQueryJoin* _cbl_nonnull const* _cbl_nullable joins, size_t joinCount,
                                                                            CBLQueryExpression* _cbl_nullable where,
                                                                            CBLQueryExpression* _cbl_nonnull const* _cbl_nullable groupBy, size_t groupByCount,
                                                                            CBLQueryExpression* _cbl_nullable having,
                                                                            CBLQueryOrdering* _cbl_nonnull const* _cbl_nullable orderBy, size_t orderByCount,
                                                                            CBLQueryLimit* _cbl_nullable limit,
                                                                            CBLError* _cbl_nullable outError);

/*
 * The same query step by step: a CBLQueryBuilder collects the clauses one call
 * at a time, in any order, and CBLQueryBuilder_Build compiles them.
 *
 *   CBLQueryBuilder* b = CBLQueryBuilder_New();
 *   CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("name"));
 *   CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(hotels));
 *   CBLQueryBuilder_Where(b, CBLQueryExpression_EqualTo(CBLQueryExpression_Property("type"),
 *                                                       CBLQueryExpression_String("hotel")));
 *   CBLQueryBuilder_Limit(b, CBLQueryLimit_Limit(CBLQueryExpression_Int(10)));
 *   CBLQuery* q = CBLQueryBuilder_Build(b, &err);
 *   CBL_Release(b);
 *
 * Each call consumes its part. A mistake (a bad part, a clause given twice) is
 * remembered and reported by CBLQueryBuilder_Build. A call on a NULL or released
 * builder releases its part and does nothing; _Build on such a handle fails
 * with kCBLErrorInvalidParameter.
 */

/** A query being assembled clause by clause. */
typedef struct CBLQueryBuilder CBLQueryBuilder;

/** An empty builder: no select results (the whole document), no FROM yet. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryBuilder* CBLQueryBuilder_New(void);
/** Adds a result column after those added before. Consumes result. */
CBL_DOCLITE void CBLQueryBuilder_Select(CBLQueryBuilder* builder, CBLQuerySelectResult* result);
/** SELECT DISTINCT when `distinct` is true (default false). */
CBL_DOCLITE void CBLQueryBuilder_SetDistinct(CBLQueryBuilder* builder, bool distinct);
/** The FROM data source (required; once). Consumes from. */
CBL_DOCLITE void CBLQueryBuilder_From(CBLQueryBuilder* builder, CBLQueryDataSource* from);
/** Adds a join after those added before. Consumes join. */
CBL_DOCLITE void CBLQueryBuilder_Join(CBLQueryBuilder* builder, CBLQueryJoin* join);
/** The WHERE condition (once). Consumes where. */
CBL_DOCLITE void CBLQueryBuilder_Where(CBLQueryBuilder* builder, CBLQueryExpression* where);
/** Adds a GROUP BY expression after those added before. Consumes expr. */
CBL_DOCLITE void CBLQueryBuilder_GroupBy(CBLQueryBuilder* builder, CBLQueryExpression* expr);
/** The HAVING condition (once; needs GROUP BY). Consumes having. */
CBL_DOCLITE void CBLQueryBuilder_Having(CBLQueryBuilder* builder, CBLQueryExpression* having);
/** Adds an ordering after those added before. Consumes ordering. */
CBL_DOCLITE void CBLQueryBuilder_OrderBy(CBLQueryBuilder* builder, CBLQueryOrdering* ordering);
/** The LIMIT (and OFFSET) (once). Consumes limit. */
CBL_DOCLITE void CBLQueryBuilder_Limit(CBLQueryBuilder* builder, CBLQueryLimit* limit);
/** Compiles the clauses given so far into a query, or fails with the first mistake
    made while giving them (as CBLQueryBuilder_Create). The builder is unchanged
    and may be built again. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuery* _cbl_nullable CBLQueryBuilder_Build(const CBLQueryBuilder* builder, CBLError* _cbl_nullable outError);

/** The query in LiteCore's JSON query language (for CBLDatabase_CreateQuery), owned. NULL for a bad handle. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLQuery_CopyJSON(const CBLQuery* query);

/*
 * Typed query parameters, as Couchbase Lite's CBLQueryParameters: values set
 * by name, then given to a query with CBLQuery_SetQueryParameters. A bad name
 * (not [A-Za-z0-9_]+), bad UTF-8, a non-finite number or bad JSON is remembered
 * and reported by CBLQuery_SetQueryParameters. A setter on a NULL or released
 * handle does nothing.
 */

/** Named values for a query's parameters (`["$name"]`). */
typedef struct CBLQueryParameters CBLQueryParameters;

/** No values yet. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryParameters* CBLQueryParameters_New(void);
/** A copy of `parameters` (borrowed), its error included; of a NULL or released
    handle, a handle whose error CBLQuery_SetQueryParameters reports. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryParameters* CBLQueryParameters_Copy(const CBLQueryParameters* parameters);
/** Sets `name` to a string. */
CBL_DOCLITE void CBLQueryParameters_SetString(CBLQueryParameters* parameters, const char* name, const char* value);
/** Sets `name` to an integer. */
CBL_DOCLITE void CBLQueryParameters_SetInt(CBLQueryParameters* parameters, const char* name, int64_t value);
/** Sets `name` to a double (finite). */
CBL_DOCLITE void CBLQueryParameters_SetDouble(CBLQueryParameters* parameters, const char* name, double value);
/** Sets `name` to a float (finite), written as its shortest decimal form. */
CBL_DOCLITE void CBLQueryParameters_SetFloat(CBLQueryParameters* parameters, const char* name, float value);
/** Sets `name` to a boolean. */
CBL_DOCLITE void CBLQueryParameters_SetBool(CBLQueryParameters* parameters, const char* name, bool value);
/** Sets `name` to a date, `millis` since 1970, as its ISO-8601 UTC string (as CBLQueryExpression_Date). */
CBL_DOCLITE void CBLQueryParameters_SetDate(CBLQueryParameters* parameters, const char* name, int64_t millis);
/** Sets `name` to JSON null, which the query reads as MISSING: Couchbase Lite leaves a
    null parameter unbound (so `IS MISSING` is true and TYPE() is "missing"), as it does
    an unset one. */
CBL_DOCLITE void CBLQueryParameters_SetNull(CBLQueryParameters* parameters, const char* name);
/** Sets `name` to any JSON value (an array, a dictionary…) written as text. */
CBL_DOCLITE void CBLQueryParameters_SetJSON(CBLQueryParameters* parameters, const char* name, const char* json);
/** The values as a JSON object, owned; NULL for a bad handle or after a mistake. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLQueryParameters_CopyJSON(const CBLQueryParameters* parameters);

/** Gives `query` a copy of `parameters` (borrowed); NULL clears them. Fails with the
    first mistake made while setting them. */
CBL_DOCLITE bool CBLQuery_SetQueryParameters(CBLQuery* query, const CBLQueryParameters* _cbl_nullable parameters, CBLError* _cbl_nullable outError);
/** A copy of the query's parameters, or NULL when it has none. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQueryParameters* _cbl_nullable CBLQuery_CopyParameters(const CBLQuery* query);

/* ---- The 1.x query builder -------------------------------------------------- */
/*
 * Couchbase Lite 1.x's CBLQueryBuilder: a query given as a predicate in Apple's
 * format, the values to select and sort descriptors, built once and run many
 * times with a context (a JSON object) giving the predicate's $VARIABLES:
 *
 *   const char* select[] = {"title", "body", "author", "date"};
 *   const char* order[] = {"-date"};
 *   CBLPredicateQueryBuilder* b = CBLPredicateQueryBuilder_Create(posts, select, 4,
 *       "type == 'post' AND tags CONTAINS $TAG", order, 1, NULL, &err);
 *   CBLResultSet* rows = CBLPredicateQueryBuilder_Run(b, "{\"TAG\": \"iOS\"}", &err);
 *
 * A select item is a key path (`address.city`, `tags.@count`) or an expression
 * (`average(price)`); reduce functions (count, sum, min, max, average, median,
 * stddev) aggregate the rows, grouped by the other items. The rows have one
 * column per item. The syntax is in docs/predicates.md.
 */

/** A predicate query builder (Couchbase Lite 1.x's CBLQueryBuilder). */
typedef struct CBLPredicateQueryBuilder CBLPredicateQueryBuilder;
CBL_REFCOUNTED(CBLPredicateQueryBuilder, PredicateQueryBuilder)

/** Makes a builder over `collection` (borrowed): `select` (`selectCount` items, at least one),
    the predicate `where`, and `orderBy` (`orderByCount` sort descriptors: a key path, `-` before it
    for descending; the array may be NULL when the count is 0). Fails with kCBLErrorInvalidQuery,
    the message naming the part (`where: `, `select item 2: `, `sort descriptor 1: `), and
    `*outErrorPos` (optional) the byte offset within that part, or -1. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLPredicateQueryBuilder* _cbl_nullable CBLPredicateQueryBuilder_Create(const CBLCollection* collection,
                                                                                                     const char* _cbl_nonnull const* _cbl_nonnull select, size_t selectCount,
                                                                                                     const char* where,
                                                                                                     const char* _cbl_nonnull const* _cbl_nullable orderBy, size_t orderByCount,
                                                                                                     int* _cbl_nullable outErrorPos, CBLError* _cbl_nullable outError);

/** A query with the variables' values from `contextJSON` (a JSON object; optional when the
    predicate has no variables). A variable it lacks fails with kCBLErrorInvalidQueryParam
    naming it. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLQuery* _cbl_nullable CBLPredicateQueryBuilder_CreateQuery(const CBLPredicateQueryBuilder* builder, const char* _cbl_nullable contextJSON,
                                                                                          CBLError* _cbl_nullable outError);

/** Runs the query with `contextJSON`'s values (as CBLPredicateQueryBuilder_CreateQuery, then
    CBLQuery_Execute). Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLResultSet* _cbl_nullable CBLPredicateQueryBuilder_Run(const CBLPredicateQueryBuilder* builder, const char* _cbl_nullable contextJSON,
                                                                                      CBLError* _cbl_nullable outError);

/** How the query runs: its SQL++ text, the variables, the index used and the conditions it
    serves, a value index that would serve the predicate, the SQL and SQLite's plan; owned. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLPredicateQueryBuilder_Explanation(const CBLPredicateQueryBuilder* builder, CBLError* _cbl_nullable outError);

/* ---- Predictive queries ------------------------------------------------------- */

/** A predictive model that queries call with PREDICTION(name, input[, path]). `prediction`
    gets the input dictionary as JSON text (borrowed for the call) and returns, as text
    allocated with malloc (DocLite frees it), the prediction as a JSON object, or a JSON
    string to fail: the query (or the save whose predictive or value index needs the
    prediction, which then changes nothing) fails with kCBLErrorInvalidQuery and that message.
    NULL is no prediction (the query reads MISSING). It is called from any thread, possibly
    from several at once, while a query holds its database: it may read that database's
    blobs (CBLDatabase_GetBlob with a blob's metadata from the input, then CBLBlob_Content)
    but must not change a database or use another one. `unregistered` (optional) is called
    once the model is unregistered or replaced and no query calls it any more. */
typedef struct {
    void* _cbl_nullable context;
    char* _cbl_nullable (*_cbl_nonnull prediction)(void* _cbl_nullable context, const char* inputJSON);
    void (*_cbl_nullable unregistered)(void* _cbl_nullable context);
} CBLPredictiveModel;

/** Registers `model` as `name` (process-wide), replacing a model of that name. A NULL name or
    prediction callback is ignored. */
void CBL_RegisterPredictiveModel(const char* name, CBLPredictiveModel model);

/** Unregisters the model `name`: queries calling it then fail, naming it. */
void CBL_UnregisterPredictiveModel(const char* name);

/* ---- Indexes ---------------------------------------------------------------- */

/** A value index: `expressions` in `expressionLanguage`: with kCBLN1QLLanguage a comma-separated
    list of SQL++ expressions (`name, lower(address.city)`), with kCBLJSONLanguage a JSON array
    (`[[".name"], [".address.city"]]`); `where` (optional, same language) a condition making it partial. */
typedef struct {
    CBLQueryLanguage expressionLanguage;
    const char* expressions;
    const char* _cbl_nullable where;
} CBLValueIndexConfiguration;

/** Creates a value index. The same definition again is a no-op; a different one under the same name replaces it. */
bool CBLCollection_CreateValueIndex(CBLCollection* collection, const char* name, CBLValueIndexConfiguration config,
                                    CBLError* _cbl_nullable outError);

/** A full-text index (searched with `MATCH()`, ranked with `RANK()`): `expressions` in
    `expressionLanguage`, as for CBLValueIndexConfiguration; `ignoreAccents` makes `é` match `e`;
    `language` (optional) picks the stemmer (`"en"`: Porter; NULL or another: none);
    `where` (optional) a condition making it partial. */
typedef struct {
    CBLQueryLanguage expressionLanguage;
    const char* expressions;
    bool ignoreAccents;
    const char* _cbl_nullable language;
    const char* _cbl_nullable where;
} CBLFullTextIndexConfiguration;

/** Creates a full-text index. The same definition again is a no-op; a different one under the same name replaces it. */
bool CBLCollection_CreateFullTextIndex(CBLCollection* collection, const char* name, CBLFullTextIndexConfiguration config,
                                       CBLError* _cbl_nullable outError);

/** An array index (Couchbase Lite 3.2's): the elements of the array at `path` (one property
    path, such as "tags" or "contacts"; the nested form "a[].b" is not offered), so that a query
    that UNNESTs that path and filters on the element, or on `expressions` of it, reads the index.
    `expressions` (optional) in `expressionLanguage`: a comma-separated SQL++ list (`type, city`)
    or a JSON array (`[[".type"], [".city"]]`) over an element; NULL indexes the elements. */
typedef struct {
    CBLQueryLanguage expressionLanguage;
    const char* path;
    const char* _cbl_nullable expressions;
} CBLArrayIndexConfiguration;

/** Creates an array index. The same definition again is a no-op; a different one under the same name replaces it. */
bool CBLCollection_CreateArrayIndex(CBLCollection* collection, const char* name, CBLArrayIndexConfiguration config,
                                    CBLError* _cbl_nullable outError);

/** A predictive index: each document's prediction by the registered model `model` for `input`
    (one expression in `expressionLanguage`: `{'photo': photo}`, or `{"photo": [".photo"]}`),
    computed as documents are saved and cached, so that a query calling PREDICTION() with that
    model and input reads the cache and calls the model for no row. `properties` (optional): a
    JSON array of the prediction's property paths (`["label"]`) to keep a value index on. */
typedef struct {
    CBLQueryLanguage expressionLanguage;
    const char* model;
    const char* input;
    const char* _cbl_nullable properties;
} CBLPredictiveIndexConfiguration;

/** Creates a predictive index (the model is called for every document now, and as documents
    are saved: while it is unregistered, those saves fail). The same definition again is a no-op;
    a different one under the same name replaces it. */
CBL_DOCLITE bool CBLCollection_CreatePredictiveIndex(CBLCollection* collection, const char* name, CBLPredictiveIndexConfiguration config,
                                                     CBLError* _cbl_nullable outError);

/** How a vector index and APPROX_VECTOR_DISTANCE() measure the distance between two vectors
    (couchbase-lite-C's values); smaller is nearer for every metric. */
typedef uint32_t CBLDistanceMetric;
enum {
    kCBLDistanceMetricEuclideanSquared = 1, /**< The square of the Euclidean distance (the default). */
    kCBLDistanceMetricCosine = 2,           /**< 1 minus the cosine of the angle between the vectors. */
    kCBLDistanceMetricEuclidean = 3,        /**< The Euclidean (L2) distance. */
    kCBLDistanceMetricDot = 4               /**< The dot product, negated. */
};

/** The bits a scalar quantizer codes each item of a vector in. */
typedef uint32_t CBLScalarQuantizerType;
enum {
    kCBLSQ4 = 4,
    kCBLSQ6 = 6,
    kCBLSQ8 = 8
};

/** How a vector index compresses its vectors: made by a CBLVectorEncoding_Create function and
    freed with CBLVectorEncoding_Free (a CBLVectorIndexConfiguration borrows it). */
typedef struct CBLVectorEncoding CBLVectorEncoding;

/** The vectors as they are (float32). */
_cbl_warn_unused CBLVectorEncoding* CBLVectorEncoding_CreateNone(void);

/** Each item quantized to `type`'s bits (kCBLSQ4, kCBLSQ6 or kCBLSQ8, the default encoding). */
_cbl_warn_unused CBLVectorEncoding* CBLVectorEncoding_CreateScalarQuantizer(CBLScalarQuantizerType type);

/** Each vector cut into `subquantizers` parts (a divisor of the dimensions, 2 to 1024), each
    coded in `bits` bits (4 to 12). Out-of-range values fail the index's creation. */
_cbl_warn_unused CBLVectorEncoding* CBLVectorEncoding_CreateProductQuantizer(unsigned subquantizers, unsigned bits);

/** Frees an encoding (NULL is ignored). */
void CBLVectorEncoding_Free(CBLVectorEncoding* _cbl_nullable encoding);

/** A vector index (Couchbase Lite 3.2's): the vector each document holds at `expression` (one
    expression in `expressionLanguage`: an array of `dimensions` numbers, a Base64 string of
    float32s, or a PREDICTION() computing one when the document is saved), so that
    APPROX_VECTOR_DISTANCE(expression, $target) finds the nearest documents. A document whose value
    is no such vector is left out of the index, never an error that fails its save. `dimensions`
    2 to 4096; `centroids` (clusters) 1 to 64000; `encoding` NULL for kCBLSQ8; `metric` 0 for
    squared Euclidean; `minTrainingSize`, `maxTrainingSize` and `numProbes` 0 for the defaults.
    `isLazy`: the application computes the vectors and sets them through CBLQueryIndex_BeginUpdate
    instead of the index reading them as documents are saved. */
typedef struct {
    CBLQueryLanguage expressionLanguage;
    const char* expression;
    unsigned dimensions;
    unsigned centroids;
    bool isLazy;
    const CBLVectorEncoding* _cbl_nullable encoding;
    CBLDistanceMetric metric;
    unsigned minTrainingSize;
    unsigned maxTrainingSize;
    unsigned numProbes;
} CBLVectorIndexConfiguration;

/** Creates a vector index (kCBLErrorInvalidParameter, with Couchbase Lite's limits, for a
    configuration out of range). The same definition again is a no-op; a different one under the
    same name replaces it. */
bool CBLCollection_CreateVectorIndex(CBLCollection* collection, const char* name, CBLVectorIndexConfiguration config,
                                     CBLError* _cbl_nullable outError);

/** An index of a collection (Couchbase Lite's CBLQueryIndex), from CBLCollection_GetIndex. */
typedef struct CBLQueryIndex CBLQueryIndex;
CBL_REFCOUNTED(CBLQueryIndex, QueryIndex)

/** A batch of documents whose vectors a lazy vector index lacks (Couchbase Lite's
    CBLIndexUpdater), from CBLQueryIndex_BeginUpdate: read each one's value of the index's
    expression (CBLIndexUpdater_CopyValueJSON), compute its vector and set it
    (CBLIndexUpdater_SetVector) or skip it (it comes back in a later update), then
    CBLIndexUpdater_Finish writes them in one transaction. Released unfinished, it changes nothing. */
typedef struct CBLIndexUpdater CBLIndexUpdater;
CBL_REFCOUNTED(CBLIndexUpdater, IndexUpdater)

/** The index `name` of the collection (+1); NULL with error code 0 when there is none. */
_cbl_warn_unused CBLQueryIndex* _cbl_nullable CBLCollection_GetIndex(CBLCollection* collection, const char* name,
                                                                     CBLError* _cbl_nullable outError);

/** The index's name, borrowed from the index. */
const char* CBLQueryIndex_Name(const CBLQueryIndex* index);

/** The next documents, at most `limit`, whose vectors the lazy vector index lacks, in the order
    they were saved (+1); NULL with error code 0 when every document with a value is indexed.
    A document saved again since it was indexed is pending again; deleted and purged ones leave
    the index by themselves. kCBLErrorInvalidParameter for a limit of 0, kCBLErrorUnsupported for
    an index that is not a lazy vector index. */
_cbl_warn_unused CBLIndexUpdater* _cbl_nullable CBLQueryIndex_BeginUpdate(CBLQueryIndex* index, size_t limit,
                                                                         CBLError* _cbl_nullable outError);

/** The number of documents in the batch. */
size_t CBLIndexUpdater_Count(const CBLIndexUpdater* updater);

/** Document `index`'s value of the index's expression as JSON text, owned (CBL_FreeString);
    NULL when `index` is out of range. (couchbase-lite-C's CBLIndexUpdater_Value returns a Fleece value.) */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLIndexUpdater_CopyValueJSON(const CBLIndexUpdater* updater, size_t index);

/** Sets document `index`'s vector, `dimension` floats (copied); NULL when the document has none.
    kCBLErrorInvalidParameter for another dimension than the index's, a number that is not
    finite or an index out of range; kCBLErrorNotOpen once finished. */
bool CBLIndexUpdater_SetVector(CBLIndexUpdater* updater, size_t index, const float* _cbl_nullable vector, size_t dimension,
                               CBLError* _cbl_nullable outError);

/** Leaves document `index` out of this update: it comes back in a later one. Errors as
    CBLIndexUpdater_SetVector (couchbase-lite-C's returns nothing). */
bool CBLIndexUpdater_SkipVector(CBLIndexUpdater* updater, size_t index, CBLError* _cbl_nullable outError);

/** Writes the vectors set, in one transaction (a document saved again meanwhile is left for a
    later update). kCBLErrorUnsupported while a document is neither set nor skipped;
    kCBLErrorNotOpen once finished. */
bool CBLIndexUpdater_Finish(CBLIndexUpdater* updater, CBLError* _cbl_nullable outError);

/** Deletes the index `name`; a missing index is not an error. */
bool CBLCollection_DeleteIndex(CBLCollection* collection, const char* name, CBLError* _cbl_nullable outError);

/** The collection's index names as a JSON array, owned. NULL on error. */
_cbl_warn_unused char* _cbl_nullable CBLCollection_GetIndexNames(CBLCollection* collection, CBLError* _cbl_nullable outError);

/* ---- Change listeners ------------------------------------------------------ */

/** The documents of a collection changed by one commit; everything is borrowed for the callback's duration. */
typedef struct {
    const CBLCollection* collection;
    unsigned numDocs;
    const char* _cbl_nonnull const* _cbl_nonnull docIDs;
} CBLCollectionChange;

/** A change to one document; borrowed for the callback's duration. */
typedef struct {
    const CBLCollection* collection;
    const char* docID;
} CBLDocumentChange;

/** Called after a commit that changed a collection, on the committing thread, outside DocLite's
    locks; while the database buffers notifications, in CBLDatabase_SendNotifications on its thread. */
typedef void (*CBLCollectionChangeListener)(void* _cbl_nullable context, const CBLCollectionChange* change);
/** Called after a commit that changed one document, on the committing thread, outside DocLite's
    locks; while the database buffers notifications, in CBLDatabase_SendNotifications on its thread. */
typedef void (*CBLDocumentChangeListener)(void* _cbl_nullable context, const CBLDocumentChange* change);

/** Calls `listener` after each commit that changes the collection. `context` must outlive the token. Returns +1. */
_cbl_warn_unused CBLListenerToken* _cbl_nullable CBLCollection_AddChangeListener(const CBLCollection* collection, CBLCollectionChangeListener listener,
                                                                                 void* _cbl_nullable context, CBLError* _cbl_nullable outError);

/** Calls `listener` after each commit that changes the document `docID`. Returns +1. */
_cbl_warn_unused CBLListenerToken* _cbl_nullable CBLCollection_AddDocumentChangeListener(const CBLCollection* collection, const char* docID,
                                                                                         CBLDocumentChangeListener listener, void* _cbl_nullable context,
                                                                                         CBLError* _cbl_nullable outError);

/** Called when a live query's results change, and first with its current results,
    on an arbitrary thread (in CBLDatabase_SendNotifications while the database buffers
    notifications), one call at a time per token: read the rows with
    CBLQuery_CopyCurrentResults(query, token). `query` and `token` are borrowed. */
typedef void (*CBLQueryChangeListener)(void* _cbl_nullable context, CBLQuery* query, CBLListenerToken* token);

/** Makes `query` live (Couchbase Lite's live query): it runs in the background,
    `listener` is called soon with its results, then after each commit through
    this database handle that changes them (or a change of its parameters); a
    commit within 250 ms of the previous one waits 500 ms, so the rest of a
    burst costs one more run. The listener stays registered, and the query
    alive, until CBLListener_Remove; `context` must outlive that. Returns +1. */
_cbl_warn_unused CBLListenerToken* _cbl_nullable CBLQuery_AddChangeListener(CBLQuery* query, CBLQueryChangeListener listener, void* _cbl_nullable context,
                                                                            CBLError* _cbl_nullable outError);

/** The results `token`'s listener was last called for, read from the first row
    (each call gives a new result set). Fails with the run's error when that run
    failed, and with kCBLErrorNotFound when `token` is not a listener of `query`
    or has not been called yet. Returns +1. */
_cbl_warn_unused CBLResultSet* _cbl_nullable CBLQuery_CopyCurrentResults(const CBLQuery* query, CBLListenerToken* token, CBLError* _cbl_nullable outError);

/** Called, on the committing (or querying) thread, when a buffering database has a
    notification waiting: arrange for CBLDatabase_SendNotifications to be called. */
typedef void (*CBLNotificationsReadyCallback)(void* _cbl_nullable context, CBLDatabase* db);

/** Buffers the database's notifications (collection, document and live-query listeners):
    instead of calling them, DocLite queues the calls and calls `callback` when the queue
    stops being empty; CBLDatabase_SendNotifications makes them. `db` is borrowed and must
    stay open while buffering; `context` must outlive it. A NULL callback stops buffering
    (calls already queued still wait for CBLDatabase_SendNotifications). */
void CBLDatabase_BufferNotifications(CBLDatabase* db, CBLNotificationsReadyCallback _cbl_nullable callback, void* _cbl_nullable context);

/** Makes the queued notification calls of a buffering database, in order, on this thread. */
void CBLDatabase_SendNotifications(CBLDatabase* db);

/** Unregisters the listener and releases the token; NULL is ignored. Returns once no
    call of the listener is running on another thread (a listener may remove itself
    from inside its own call), so its context may be freed then. (So two calls running
    at once that remove each other's listeners wait for each other for ever.) */
void CBLListener_Remove(CBLListenerToken* _cbl_nullable token);

/* ---- Replication (docs/sync.md) ---------------------------------------------- */

/** Where a replicator syncs to: a PostgreSQL server, or another DocLite database. */
typedef struct CBLEndpoint CBLEndpoint;
/** A replicator: pushes and pulls a database's collections to and from a server. */
typedef struct CBLReplicator CBLReplicator;

/** A PostgreSQL server, by libpq connection string ("postgresql://alice:secret@host/app" or
    "host=... dbname=..."; TLS settings pass through). With `createsSchema`, the first connection
    creates DocLite's server schema when missing, or upgrades an older one. NULL with
    kCBLNetErrInvalidURL for a malformed string, kCBLErrorUnsupported when libpq is not
    installed. Returns +1. */
CBL_DOCLITE _cbl_warn_unused CBLEndpoint* _cbl_nullable CBLEndpoint_CreateWithPostgreSQL(const char* connectionString, bool createsSchema, CBLError* _cbl_nullable outError);

/** Another DocLite database, which a replicator keeps in sync with its own (two files on one
    device, or a test's second device); not the replicator's own database. Returns +1. */
_cbl_warn_unused CBLEndpoint* _cbl_nullable CBLEndpoint_CreateWithLocalDB(CBLDatabase* database, CBLError* _cbl_nullable outError);

/** Creates DocLite's schema in the server's database, upgrades an older version, or checks it,
    as `doclite sync init` does; kCBLErrorInvalidParameter for an endpoint that is not a server. */
CBL_DOCLITE bool CBLEndpoint_InitializeServer(const CBLEndpoint* endpoint, CBLError* _cbl_nullable outError);

/** Which way revisions move. */
typedef uint8_t CBLReplicatorType;
enum {
    kCBLReplicatorTypePushAndPull = 0, /**< Both ways. */
    kCBLReplicatorTypePush,            /**< Local changes to the server. */
    kCBLReplicatorTypePull             /**< Server changes to the local database. */
};

/** What a replicator is doing. */
typedef uint8_t CBLReplicatorActivityLevel;
enum {
    kCBLReplicatorStopped,    /**< Not running: finished, stopped, or failed (see the status's error). */
    kCBLReplicatorOffline,    /**< The server cannot be reached; it will try again. */
    kCBLReplicatorConnecting, /**< Connecting. */
    kCBLReplicatorIdle,       /**< Caught up, waiting for changes (continuous). */
    kCBLReplicatorBusy        /**< Moving revisions. */
};

/** How far a replicator got: `complete` from 0 to 1 (documents, approximate). */
typedef struct {
    float complete;
    uint64_t documentCount;
} CBLReplicatorProgress;

/** A replicator's activity, progress and error (code 0 when none). */
typedef struct {
    CBLReplicatorActivityLevel activity;
    CBLReplicatorProgress progress;
    CBLError error;
} CBLReplicatorStatus;

/** A document's flags as a replication filter sees them. */
typedef unsigned CBLDocumentFlags;
enum {
    kCBLDocumentFlagsDeleted = 1 << 0,      /**< The revision is a deletion. */
    kCBLDocumentFlagsAccessRemoved = 1 << 1 /**< The user lost access to the document. */
};

/** Decides whether a document is pushed (push filter) or a pulled one kept (pull filter): true
    replicates it. Called on the replicator's thread; `document` is borrowed for the call. */
typedef bool (*CBLReplicationFilter)(void* _cbl_nullable context, CBLDocument* document, CBLDocumentFlags flags);

/** Resolves a pull conflict, on the replicator's thread: returns `localDocument` or
    `remoteDocument` as given (NULL when that side is deleted; both borrowed for the call: a
    reference the resolver took with CBL_Retain stays its own to release), a document the resolver
    made (+1: DocLite releases it) holding the merge, or NULL to delete the document. */
typedef const CBLDocument* _cbl_nullable (*CBLConflictResolver)(void* _cbl_nullable context, const char* documentID,
                                                                 const CBLDocument* _cbl_nullable localDocument,
                                                                 const CBLDocument* _cbl_nullable remoteDocument);

/** One collection a replicator syncs (couchbase-lite-C's fields, in its order). Channels and
    document IDs are JSON arrays of strings (couchbase-lite-C's FLArray), or NULL for all. */
typedef struct {
    CBLCollection* collection;
    CBLConflictResolver _cbl_nullable conflictResolver; /**< NULL: the default resolver (docs/sync.md). */
    CBLReplicationFilter _cbl_nullable pushFilter;      /**< NULL: push every document. */
    CBLReplicationFilter _cbl_nullable pullFilter;      /**< NULL: keep every pulled document. */
    const char* _cbl_nullable channelsJSON;             /**< Pull only documents in these channels. */
    const char* _cbl_nullable documentIDsJSON;          /**< Push and pull only these documents. */
} CBLReplicationCollection;

/** What a replicator syncs, with whom and how; zero fields take Couchbase Lite's defaults
    (maxAttempts 10 one-shot, unlimited continuous; maxAttemptWaitTime 300 s; heartbeat 300 s). */
typedef struct {
    CBLReplicationCollection* collections; /**< Collections of one database. */
    size_t collectionCount;
    CBLEndpoint* endpoint;
    CBLReplicatorType replicatorType;
    bool continuous;
    unsigned maxAttempts;
    unsigned maxAttemptWaitTime;
    unsigned heartbeat;
    bool disableAutoPurge; /**< Keep documents the server no longer lets this user read (reported only). */
    void* _cbl_nullable context; /**< Passed to the filters and resolvers; must outlive the replicator. */
} CBLReplicatorConfiguration;

/** A replicator for `config` (its handles are retained, its strings copied); NULL with
    kCBLErrorInvalidParameter for no collection, collections of two databases, a NULL endpoint
    or malformed JSON. Returns +1. */
_cbl_warn_unused CBLReplicator* _cbl_nullable CBLReplicator_Create(const CBLReplicatorConfiguration* config, CBLError* _cbl_nullable outError);

/** Starts replicating (a running replicator is left as it is); with `resetCheckpoint`, from
    the start. The activity is kCBLReplicatorConnecting when it returns. */
void CBLReplicator_Start(CBLReplicator* replicator, bool resetCheckpoint);

/** Stops the replicator; it reports kCBLReplicatorStopped once its current step ends. */
void CBLReplicator_Stop(CBLReplicator* replicator);

/** The current status (all zero for a NULL or released handle). */
CBLReplicatorStatus CBLReplicator_Status(CBLReplicator* replicator);

/** The IDs the next push would send of `collection`, as an owned JSON array (CBL_FreeString). */
_cbl_warn_unused char* _cbl_nullable CBLReplicator_PendingDocumentIDs2(CBLReplicator* replicator, const CBLCollection* collection, CBLError* _cbl_nullable outError);

/** Whether the next push would send document `docID` of `collection`. */
bool CBLReplicator_IsDocumentPending2(CBLReplicator* replicator, const char* docID, const CBLCollection* collection,
                                      CBLError* _cbl_nullable outError);

/** Called at each change of status; `status` is borrowed for the call. A replicator calls all its
 *  listeners (of status and documents) on one DocLite thread, one at a time, in the order of the
 *  events, as couchbase-lite-C does: a listener must not wait for another of the same replicator. */
typedef void (*CBLReplicatorChangeListener)(void* _cbl_nullable context, CBLReplicator* replicator, const CBLReplicatorStatus* status);

/** Calls `listener` at each change of status. `context` must outlive the token. Returns +1. */
_cbl_warn_unused CBLListenerToken* _cbl_nullable CBLReplicator_AddChangeListener(CBLReplicator* replicator, CBLReplicatorChangeListener listener,
                                                                                 void* _cbl_nullable context, CBLError* _cbl_nullable outError);

/** A document pushed or pulled; `error` has code 0 when it replicated. Strings are borrowed for the call. */
typedef struct {
    const char* ID;
    CBLDocumentFlags flags; /**< Deleted, or purged here because the server no longer lets this user read it. */
    CBLError error;
    const char* scope;
    const char* collection;
} CBLReplicatedDocument;

/** Called with a batch of documents pushed (`isPush`) or pulled, on the replicator's listener
 *  thread (see CBLReplicatorChangeListener). */
typedef void (*CBLDocumentReplicationListener)(void* _cbl_nullable context, CBLReplicator* replicator, bool isPush,
                                               unsigned numDocuments, const CBLReplicatedDocument* documents);

/** Calls `listener` with the documents pushed and pulled, batch by batch. `context` must outlive the token. Returns +1. */
_cbl_warn_unused CBLListenerToken* _cbl_nullable CBLReplicator_AddDocumentReplicationListener(CBLReplicator* replicator, CBLDocumentReplicationListener listener,
                                                                                              void* _cbl_nullable context, CBLError* _cbl_nullable outError);

/* The query conformance corpus */

/** How a binding runs a query for CBLConformance_Run: runs `query` on `db` (borrowed for the
    call) as the binding runs any query. `query` is JSON text: LiteCore's JSON query, or a JSON
    string holding SQL++; `parameters` is a JSON object, or NULL. Returns JSON text, borrowed
    until the runner's next call or the end of CBLConformance_Run: {"columns": [titles],
    "rows": [[values]], "missing": [a row's MISSING mask: bit i for column i]}, or
    {"error": {"domain": d, "code": c, "message": text}} when the query failed. */
typedef const char* _cbl_nullable (*CBLConformanceQueryRunner)(void* _cbl_nullable context, CBLDatabase* db,
                                                               const char* query, const char* _cbl_nullable parameters);

/** Runs the query conformance corpus `casesFile` (Couchbase Lite's query cases, JSON lines, with
    their data in `data` beside it): each case gets a fresh database loaded by the library, its
    query runs through `runner`, and its rows are compared with the expectation. So the Python and
    Rust bindings check their query path against one runner and one list of known differences.
    Returns an owned JSON report (CBL_FreeString): {"passed": n, "failed": [{"id", "message"}],
    "skipped": [{"id", "reason"}], "unexpected": [each failure that is not a known difference,
    each known difference that passes], "summary": "N passed, N failed, N skipped"}; NULL with
    outError when the corpus cannot be read. DocLite's own. */
CBL_DOCLITE _cbl_warn_unused char* _cbl_nullable CBLConformance_Run(const char* casesFile, CBLConformanceQueryRunner runner,
                                                                    void* _cbl_nullable context, CBLError* _cbl_nullable outError);

#if defined(__clang__)
#pragma clang diagnostic pop
#endif
CBL_ASSUME_NONNULL_END

#ifdef __cplusplus
}
#endif

#endif /* DOCLITE_H */
