/* I/O faults. A test VFS over SQLite's default one (registered as the default by
 * this program only) makes the Nth write, sync or read fail — and every one after
 * it, as a full or failing disk does — until the fault clears. For every N, during
 * a batch of saves, an index build, a purge and a compaction:
 * - the call returns an error (or succeeds, when the fault came after its last I/O);
 * - after the fault clears, the database holds exactly the state before the call or
 *   exactly the state after it (never a part), and succeeded calls are kept;
 * - the database is usable: a save works, and the state survives close and reopen.
 * Then a truncated and a garbage file: each opens with a clear error. */
#include <sqlite3.h>

#include "test_support.h"

/* ---- The faulty VFS --------------------------------------------------------- */

typedef enum { FAULT_WRITE, FAULT_SYNC, FAULT_READ, FAULT_KINDS } FaultKind;
static const char* const fault_names[FAULT_KINDS] = { "write", "sync", "read" };

static sqlite3_vfs* real_vfs;
static sqlite3_vfs faulty_vfs;
static sqlite3_io_methods faulty_io;
/* Per kind: calls left before the failing one (0 = disarmed). */
static int countdown[FAULT_KINDS];
/* Set once the fault fires: from then on every call of its kind fails. */
static int failing[FAULT_KINDS];
static int fault_result[FAULT_KINDS];
static int faults_injected;

typedef struct {
    sqlite3_file base;
    sqlite3_file* real;  /* the default VFS's file, allocated right after this struct */
} FaultyFile;

#define REAL(file) (((FaultyFile*)(file))->real)

/* Whether this call of `kind` fails (several threads may do I/O at once). */
static bool fault_now(FaultKind kind) {
    if (__atomic_load_n(&failing[kind], __ATOMIC_SEQ_CST)) {
        __atomic_add_fetch(&faults_injected, 1, __ATOMIC_SEQ_CST);
        return true;
    }
    int left = __atomic_load_n(&countdown[kind], __ATOMIC_SEQ_CST);
    while (left > 0) {
        if (__atomic_compare_exchange_n(&countdown[kind], &left, left - 1, false, __ATOMIC_SEQ_CST, __ATOMIC_SEQ_CST)) {
            if (left != 1) return false;
            __atomic_store_n(&failing[kind], 1, __ATOMIC_SEQ_CST);
            __atomic_add_fetch(&faults_injected, 1, __ATOMIC_SEQ_CST);
            return true;
        }
    }
    return false;
}

static void arm(FaultKind kind, int n, int result) {
    fault_result[kind] = result;
    __atomic_store_n(&faults_injected, 0, __ATOMIC_SEQ_CST);
    __atomic_store_n(&countdown[kind], n, __ATOMIC_SEQ_CST);
}

/* Clears every fault; returns how many calls failed. */
static int clear_faults(void) {
    for (int kind = 0; kind < FAULT_KINDS; kind++) {
        __atomic_store_n(&countdown[kind], 0, __ATOMIC_SEQ_CST);
        __atomic_store_n(&failing[kind], 0, __ATOMIC_SEQ_CST);
    }
    return __atomic_load_n(&faults_injected, __ATOMIC_SEQ_CST);
}

static int faulty_close(sqlite3_file* f) { return REAL(f)->pMethods->xClose(REAL(f)); }
static int faulty_read(sqlite3_file* f, void* buffer, int amount, sqlite3_int64 offset) {
    if (fault_now(FAULT_READ)) return fault_result[FAULT_READ];
    return REAL(f)->pMethods->xRead(REAL(f), buffer, amount, offset);
}
static int faulty_write(sqlite3_file* f, const void* buffer, int amount, sqlite3_int64 offset) {
    if (fault_now(FAULT_WRITE)) return fault_result[FAULT_WRITE];
    return REAL(f)->pMethods->xWrite(REAL(f), buffer, amount, offset);
}
static int faulty_truncate(sqlite3_file* f, sqlite3_int64 size) {
    if (fault_now(FAULT_WRITE)) return fault_result[FAULT_WRITE] == SQLITE_FULL ? SQLITE_FULL : SQLITE_IOERR_TRUNCATE;
    return REAL(f)->pMethods->xTruncate(REAL(f), size);
}
static int faulty_sync(sqlite3_file* f, int flags) {
    if (fault_now(FAULT_SYNC)) return fault_result[FAULT_SYNC];
    return REAL(f)->pMethods->xSync(REAL(f), flags);
}
static int faulty_file_size(sqlite3_file* f, sqlite3_int64* size) { return REAL(f)->pMethods->xFileSize(REAL(f), size); }
static int faulty_lock(sqlite3_file* f, int level) { return REAL(f)->pMethods->xLock(REAL(f), level); }
static int faulty_unlock(sqlite3_file* f, int level) { return REAL(f)->pMethods->xUnlock(REAL(f), level); }
static int faulty_check_reserved(sqlite3_file* f, int* out) { return REAL(f)->pMethods->xCheckReservedLock(REAL(f), out); }
static int faulty_file_control(sqlite3_file* f, int op, void* arg) { return REAL(f)->pMethods->xFileControl(REAL(f), op, arg); }
static int faulty_sector_size(sqlite3_file* f) { return REAL(f)->pMethods->xSectorSize(REAL(f)); }
static int faulty_device(sqlite3_file* f) { return REAL(f)->pMethods->xDeviceCharacteristics(REAL(f)); }
static int faulty_shm_map(sqlite3_file* f, int page, int size, int extend, void volatile** out) {
    return REAL(f)->pMethods->xShmMap(REAL(f), page, size, extend, out);
}
static int faulty_shm_lock(sqlite3_file* f, int offset, int n, int flags) { return REAL(f)->pMethods->xShmLock(REAL(f), offset, n, flags); }
static void faulty_shm_barrier(sqlite3_file* f) { REAL(f)->pMethods->xShmBarrier(REAL(f)); }
static int faulty_shm_unmap(sqlite3_file* f, int deleting) { return REAL(f)->pMethods->xShmUnmap(REAL(f), deleting); }
/* Memory-mapped reads would bypass xRead: none are offered, so every read goes through it. */
static int faulty_fetch(sqlite3_file* f, sqlite3_int64 offset, int amount, void** out) {
    (void)f; (void)offset; (void)amount;
    *out = NULL;
    return SQLITE_OK;
}
static int faulty_unfetch(sqlite3_file* f, sqlite3_int64 offset, void* page) { (void)f; (void)offset; (void)page; return SQLITE_OK; }

static int faulty_open(sqlite3_vfs* vfs, const char* name, sqlite3_file* file, int flags, int* outFlags) {
    (void)vfs;
    FaultyFile* faulty = (FaultyFile*)file;
    faulty->real = (sqlite3_file*)(faulty + 1);
    int rc = real_vfs->xOpen(real_vfs, name, faulty->real, flags, outFlags);
    faulty->base.pMethods = faulty->real->pMethods ? &faulty_io : NULL;
    return rc;
}

/* Makes the faulty VFS SQLite's default, so DocLite's connections use it. */
static void register_faulty_vfs(void) {
    real_vfs = sqlite3_vfs_find(NULL);
    faulty_vfs = *real_vfs;
    faulty_vfs.pNext = NULL;
    faulty_vfs.zName = "doclite-faulty";
    faulty_vfs.szOsFile = (int)sizeof(FaultyFile) + real_vfs->szOsFile;
    faulty_vfs.xOpen = faulty_open;
    faulty_io = (sqlite3_io_methods){
        3, faulty_close, faulty_read, faulty_write, faulty_truncate, faulty_sync, faulty_file_size,
        faulty_lock, faulty_unlock, faulty_check_reserved, faulty_file_control, faulty_sector_size, faulty_device,
        faulty_shm_map, faulty_shm_lock, faulty_shm_barrier, faulty_shm_unmap, faulty_fetch, faulty_unfetch,
    };
    CHECK(sqlite3_vfs_register(&faulty_vfs, 1) == SQLITE_OK);
}

/* ---- The database and its state ------------------------------------------- */

static char directory[512];
static const char* const database_name = "faults";

static CBLCollection* default_collection(CBLDatabase* db) {
    CBLError err;
    CBLCollection* collection = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(collection != NULL, err);
    return collection;
}

/* Everything a call may change, as text: every document with its revision (live
   ones, then tombstones) and the index names. */
static char* state(CBLDatabase* db) {
    static const char* const queries[] = {
        "SELECT meta().id, meta().revisionID, * FROM _ ORDER BY meta().id",
        "SELECT meta().id, meta().revisionID FROM _ WHERE meta().deleted ORDER BY meta().id",
    };
    size_t used = 0;
    char* text = calloc(1, 1);
    for (size_t i = 0; i < sizeof queries / sizeof *queries; i++) {
        CBLError err;
        CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, queries[i], NULL, &err);
        CHECK_OK(query != NULL, err);
        if (!query) continue;
        size_t count;
        char* rows = query_rows_text(query, &count, NULL);
        append_text_(&text, &used, rows);
        append_text_(&text, &used, "--\n");
        free(rows);
        CBL_Release(query);
    }
    CBLCollection* collection = default_collection(db);
    CBLError err;
    char* names = CBLCollection_GetIndexNames(collection, &err);
    CHECK_OK(names != NULL, err);
    append_text_(&text, &used, names ? names : "?");
    CBL_FreeString(names);
    CBL_Release(collection);
    return text;
}

/* ---- The operations ----------------------------------------------------------- */

typedef struct {
    const char* name;
    void (*setup)(CBLDatabase* db);
    bool (*run)(CBLDatabase* db, CBLError* err);
} Operation;

/* 60 documents, 10 of them deleted, and a blob nothing refers to any more. */
static void setup_documents(CBLDatabase* db) {
    CBLCollection* collection = default_collection(db);
    CBLError err;
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    for (int i = 0; i < 60; i++) {
        char id[16], json[96];
        snprintf(id, sizeof id, "d%02d", i);
        snprintf(json, sizeof json, "{\"n\":%d,\"name\":\"document %d\",\"tags\":[\"t%d\"]}", i, i, i % 7);
        CHECK(save_json(collection, id, json));
    }
    CHECK_OK(CBLDatabase_EndTransaction(db, true, &err), err);
    for (int i = 50; i < 60; i++) {
        char id[16];
        snprintf(id, sizeof id, "d%02d", i);
        const CBLDocument* doc = CBLCollection_GetDocument(collection, id, &err);
        CHECK_OK(doc != NULL, err);
        CHECK_OK(doc && CBLCollection_DeleteDocument(collection, doc, &err), err);
        CBL_Release(doc);
    }
    CBLBlob* blob = CBLBlob_CreateWithData("text/plain", "orphan", 6, &err);
    CHECK_OK(blob != NULL, err);
    CHECK_OK(blob && CBLDatabase_SaveBlob(db, blob, &err), err);
    CBL_Release(blob);
    CBL_Release(collection);
}

/* Commits the transaction when `ok`, else rolls it back (keeping the first error). */
static bool end_transaction(CBLDatabase* db, bool ok, CBLError* err) {
    if (ok) return CBLDatabase_EndTransaction(db, true, err);
    CBLError ignored;
    CBLDatabase_EndTransaction(db, false, &ignored);
    return false;
}

/* One batch: 40 new documents, 5 updated, 5 deleted. */
static bool run_batch(CBLDatabase* db, CBLError* err) {
    CBLCollection* collection = default_collection(db);
    bool ok = CBLDatabase_BeginTransaction(db, err);
    for (int i = 0; ok && i < 50; i++) {
        char id[16], json[96];
        snprintf(id, sizeof id, i < 40 ? "new%02d" : "d%02d", i < 40 ? i : i - 40);
        snprintf(json, sizeof json, "{\"n\":%d,\"batch\":true,\"padding\":\"%0*d\"}", i, 60, i);
        if (i < 45) {
            CBLDocument* doc = CBLDocument_CreateWithID(id, err);
            ok = doc && CBLDocument_SetJSON(doc, json, err) && CBLCollection_SaveDocument(collection, doc, err);
            CBL_Release(doc);
        } else {
            const CBLDocument* doc = CBLCollection_GetDocument(collection, id, err);
            ok = doc && CBLCollection_DeleteDocument(collection, doc, err);
            CBL_Release(doc);
        }
    }
    CBL_Release(collection);
    return end_transaction(db, ok, err);
}

static bool run_index_build(CBLDatabase* db, CBLError* err) {
    CBLCollection* collection = default_collection(db);
    CBLValueIndexConfiguration config = { kCBLN1QLLanguage, "name, n", NULL };
    bool ok = CBLCollection_CreateValueIndex(collection, "by_name", config, err);
    CBL_Release(collection);
    return ok;
}

/* Two purges in one transaction: a live document and a tombstone. */
static bool run_purge(CBLDatabase* db, CBLError* err) {
    CBLCollection* collection = default_collection(db);
    bool ok = CBLDatabase_BeginTransaction(db, err)
              && CBLCollection_PurgeDocumentByID(collection, "d07", err)
              && CBLCollection_PurgeDocumentByID(collection, "d55", err);
    CBL_Release(collection);
    return end_transaction(db, ok, err);
}

static bool run_compaction(CBLDatabase* db, CBLError* err) {
    return CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeCompact, err);
}

static const Operation operations[] = {
    { "save batch", setup_documents, run_batch },
    { "index build", setup_documents, run_index_build },
    { "purge", setup_documents, run_purge },
    { "compaction", setup_documents, run_compaction },
};

/* Whether databases are opened with fullSync (every commit synced), which the sync faults need:
   in the default mode SQLite syncs only when it checkpoints the write-ahead log. */
static bool full_sync;

static CBLDatabase* open_faults_database(void) {
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = directory;
    config.fullSync = full_sync;
    CBLError err;
    CBLDatabase* db = CBLDatabase_Open(database_name, &config, &err);
    CHECK_OK(db != NULL, err);
    return db;
}

/* A fresh database with `operation`'s starting state, reopened so that the
   operation reads its pages from the file (through the faulty VFS), not a cache. */
static CBLDatabase* fresh_database(const Operation* operation) {
    CBLError err;
    if (CBL_DatabaseExists(database_name, directory)) CHECK_OK(CBL_DeleteDatabase(database_name, directory, &err), err);
    CBLDatabase* db = open_faults_database();
    if (!db) return NULL;
    operation->setup(db);
    close_database(db);
    return open_faults_database();
}

/* ---- The loop ------------------------------------------------------------------ */

typedef struct { int runs, injected, errors, rolledBack; } Tally;

/* Runs `operation` with the Nth call of `kind` failing, for N = 1, 2, … until the
   operation finishes before reaching its Nth call. */
static Tally run_with_faults(const Operation* operation, FaultKind kind, int result) {
    Tally tally = {0, 0, 0, 0};
    CBLError err;
    CBLDatabase* db = fresh_database(operation);
    char* before = state(db);
    CHECK_OK(operation->run(db, &err), err);
    char* after = state(db);
    close_database(db);
    CHECK(strcmp(before, after) != 0 || operation->run == run_compaction);

    bool finished = false;
    for (int n = 1; n <= 5000; n++) {
        db = fresh_database(operation);
        if (!db) break;
        arm(kind, n, result);
        err = (CBLError){0, 0, 0};
        bool ok = operation->run(db, &err);
        int injected = clear_faults();
        tally.runs++;
        tally.injected += injected;
        char* now = state(db);
        if (ok) {
            if (strcmp(now, after) != 0) {
                CHECK(!"a call that succeeded under faults left another state than it does without");
                fprintf(stderr, "  %s, %s fault at call %d\n", operation->name, fault_names[kind], n);
            }
        } else {
            tally.errors++;
            char* message = CBLError_Message(&err);
            CHECK(err.code != 0 && message && *message);
            CBL_FreeString(message);
            if (strcmp(now, before) == 0) {
                tally.rolledBack++;
            } else if (strcmp(now, after) != 0) {   /* (after: the failure came once the work was committed) */
                CHECK(!"a failed call left a part of its work");
                fprintf(stderr, "  %s, %s fault at call %d: state is neither before nor after\n", operation->name, fault_names[kind], n);
            }
        }
        /* Usable once the fault clears, and the same after close and reopen. */
        CBLCollection* collection = default_collection(db);
        CHECK(save_json(collection, "usable", "{\"ok\":true}"));
        CHECK(CBLCollection_PurgeDocumentByID(collection, "usable", &err));
        CBL_Release(collection);
        close_database(db);
        db = open_faults_database();
        char* reopened = db ? state(db) : NULL;
        CHECK(reopened && strcmp(reopened, now) == 0);
        free(reopened);
        free(now);
        if (db) close_database(db);
        if (injected == 0) {   /* the operation never reached its Nth call: every N was tried */
            finished = true;
            break;
        }
    }
    CHECK(finished);
    free(before);
    free(after);
    return tally;
}

/* ---- Damaged files ---------------------------------------------------------------- */

static void write_file(const char* path, const char* bytes, size_t count) {
    FILE* file = fopen(path, "wb");
    CHECK(file != NULL);
    if (!file) return;
    CHECK(fwrite(bytes, 1, count, file) == count);
    fclose(file);
}

/* A garbage file and a truncated database each fail to open (or to check) with an error that says so. */
static void test_damaged_files(void) {
    char path[600];
    snprintf(path, sizeof path, "%s/garbage.doclite", directory);
    char garbage[8192];
    for (size_t i = 0; i < sizeof garbage; i++) garbage[i] = (char)(i * 7 + 3);
    write_file(path, garbage, sizeof garbage);
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    config.directory = directory;
    CBLError err = poisoned_error();
    CBLDatabase* db = CBLDatabase_Open("garbage", &config, &err);
    CHECK(db == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotADatabaseFile);
    CBL_Release(db);

    /* A real database cut to its first 3 pages: its tables' pages are gone. */
    db = open_database(directory, "truncated");
    CBLCollection* collection = default_collection(db);
    for (int i = 0; i < 400; i++) {
        char id[16], json[200];
        snprintf(id, sizeof id, "t%03d", i);
        snprintf(json, sizeof json, "{\"n\":%d,\"text\":\"%0*d\"}", i, 150, i);
        save_json(collection, id, json);
    }
    CBL_Release(collection);
    close_database(db);
    snprintf(path, sizeof path, "%s/truncated.doclite", directory);
    CHECK(truncate(path, 3 * 4096) == 0);
    err = poisoned_error();
    db = CBLDatabase_Open("truncated", &config, &err);
    if (db) {
        /* The schema pages survived: the damage shows when the data is read or checked. */
        err = poisoned_error();
        CHECK(!CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeIntegrityCheck, &err));
        CBLError closeErr;
        CBLDatabase_Close(db, &closeErr);
        CBL_Release(db);
    }
    CHECK_CODE(err, kCBLDomain, kCBLErrorCorruptData);
}

int main(void) {
    snprintf(directory, sizeof directory, "%s", test_directory("io_fault"));
    register_faulty_vfs();
    static const struct { FaultKind kind; int result; const char* name; } faults[] = {
        { FAULT_WRITE, SQLITE_FULL, "disk full (SQLITE_FULL) on write" },
        { FAULT_WRITE, SQLITE_IOERR_WRITE, "SQLITE_IOERR_WRITE" },
        { FAULT_SYNC, SQLITE_IOERR_FSYNC, "SQLITE_IOERR_FSYNC" },
        { FAULT_READ, SQLITE_IOERR_READ, "SQLITE_IOERR_READ" },
    };
    for (size_t o = 0; o < sizeof operations / sizeof *operations; o++) {
        for (size_t f = 0; f < sizeof faults / sizeof *faults; f++) {
            full_sync = faults[f].kind == FAULT_SYNC;
            Tally t = run_with_faults(&operations[o], faults[f].kind, faults[f].result);
            printf("%-12s %-34s %4d runs, %5d failed calls injected: %3d errors (%3d rolled back, %3d after commit), %3d succeeded\n",
                   operations[o].name, faults[f].name, t.runs, t.injected, t.errors, t.rolledBack,
                   t.errors - t.rolledBack, t.runs - t.errors);
        }
    }
    test_damaged_files();
    return test_finish("io_fault_test");
}
