/* Replication through the C ABI: two databases converge through a PostgreSQL
   server the test starts (scripts/postgres-server); status and document
   listeners, pending documents, and errors: a malformed connection string, a
   wrong password, a bad configuration. Exits 77 (skipped) without PostgreSQL. */
#include <pthread.h>
#include <sys/wait.h>

#include "test_support.h"

typedef struct {
    _Atomic int statusCalls;
    _Atomic int pushed;
    _Atomic int pulled;
} Events;

static void on_status(void* context, CBLReplicator* replicator, const CBLReplicatorStatus* status) {
    (void)replicator;
    (void)status;
    ((Events*)context)->statusCalls++;
}

/* Whether a replicator has said it stopped. */
typedef struct {
    pthread_mutex_t lock;
    pthread_cond_t said;
    bool stopped;
} Stop;

static void on_stop(void* context, CBLReplicator* replicator, const CBLReplicatorStatus* status) {
    (void)replicator;
    Stop* stop = context;
    pthread_mutex_lock(&stop->lock);
    stop->stopped = stop->stopped || status->activity == kCBLReplicatorStopped;
    pthread_cond_broadcast(&stop->said);
    pthread_mutex_unlock(&stop->lock);
}

static void on_documents(void* context, CBLReplicator* replicator, bool isPush, unsigned count, const CBLReplicatedDocument* documents) {
    (void)replicator;
    Events* events = context;
    for (unsigned i = 0; i < count; i++) {
        CHECK(documents[i].error.code == 0);
        CHECK_STR(documents[i].scope, "_default");
        if (isPush) events->pushed++; else events->pulled++;
    }
}

/* A push filter: everything but "skip". */
static bool not_skip(void* context, CBLDocument* document, CBLDocumentFlags flags) {
    (void)context;
    (void)flags;
    return strcmp(CBLDocument_ID(document), "skip") != 0;
}

/* A conflict resolver that merges into {"merged":true}, counting its calls. */
static const CBLDocument* merge(void* context, const char* documentID, const CBLDocument* local, const CBLDocument* remote) {
    CHECK(local != NULL && remote != NULL);
    ++*(int*)context;
    CBLError err;
    CBLDocument* merged = CBLDocument_CreateWithID(documentID, &err);
    CHECK_OK(merged != NULL && CBLDocument_SetJSON(merged, "{\"merged\":true}", &err), err);
    return merged;
}

/* Runs a one-shot replicator of `collection` (with `entry`'s filters and resolver) to the end; its final status. */
static CBLReplicatorStatus replicate_with(CBLReplicationCollection entry, CBLEndpoint* endpoint, CBLReplicatorType type,
                                         Events* events, void* context) {
    CBLReplicatorConfiguration config = { .collections = &entry, .collectionCount = 1, .endpoint = endpoint, .replicatorType = type,
                                          .context = context };
    CBLError err;
    CBLReplicator* replicator = CBLReplicator_Create(&config, &err);
    CHECK_OK(replicator != NULL, err);
    CBLListenerToken* statusToken = CBLReplicator_AddChangeListener(replicator, on_status, events, &err);
    CHECK_OK(statusToken != NULL, err);
    CBLListenerToken* documentToken = CBLReplicator_AddDocumentReplicationListener(replicator, on_documents, events, &err);
    CHECK_OK(documentToken != NULL, err);
    Stop stop = {PTHREAD_MUTEX_INITIALIZER, PTHREAD_COND_INITIALIZER, false};
    CBLListenerToken* stopToken = CBLReplicator_AddChangeListener(replicator, on_stop, &stop, &err);
    CHECK_OK(stopToken != NULL, err);
    CBLReplicator_Start(replicator, false);
    CHECK(CBLReplicator_Status(replicator).activity == kCBLReplicatorConnecting);
    struct timespec deadline = deadline_in(60);
    pthread_mutex_lock(&stop.lock);
    while (!stop.stopped && pthread_cond_timedwait(&stop.said, &stop.lock, &deadline) == 0) {}
    pthread_mutex_unlock(&stop.lock);
    CBLReplicatorStatus status = CBLReplicator_Status(replicator);
    CHECK(status.activity == kCBLReplicatorStopped);
    /* (A removal waits for a call under way: the listeners' last calls are made.) */
    CBLListener_Remove(stopToken);
    CBLListener_Remove(statusToken);
    CBLListener_Remove(documentToken);
    CBL_Release(replicator);
    return status;
}

static CBLReplicatorStatus replicate(CBLCollection* collection, CBLEndpoint* endpoint, CBLReplicatorType type, Events* events) {
    CBLReplicationCollection entry = { .collection = collection };
    return replicate_with(entry, endpoint, type, events, NULL);
}

int main(void) {
    const char* directory = test_directory("replicator");
    char command[1024], server[512] = "";
    snprintf(command, sizeof command, "'%s/scripts/postgres-server' start '%s/pg' 2>&1", DOCLITE_SOURCE_DIR, directory);
    FILE* output = popen(command, "r");
    if (!output || !fgets(server, sizeof server, output)) server[0] = 0;
    int status = output ? pclose(output) : -1;
    if (WIFEXITED(status) && WEXITSTATUS(status) == 3) {
        printf("replicator_test: skipped: %s", server);
        remove_directory(directory);
        return 77;
    }
    CHECK(status == 0);
    server[strcspn(server, "\n")] = 0;

    CBLError err;
    CHECK(CBLEndpoint_CreateWithPostgreSQL("postgresql://[bad", false, &err) == NULL);
    CHECK_CODE(err, kCBLNetworkDomain, kCBLNetErrInvalidURL);
    CHECK(CBLEndpoint_CreateWithPostgreSQL(NULL, false, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLEndpoint* endpoint = CBLEndpoint_CreateWithPostgreSQL(server, false, &err);
    CHECK_OK(endpoint != NULL, err);
    CHECK_OK(CBLEndpoint_InitializeServer(endpoint, &err), err);

    CBLDatabase* a = open_database(directory, "a");
    CBLDatabase* b = open_database(directory, "b");
    CBLCollection* aDocs = CBLDatabase_DefaultCollection(a, &err);
    CBLCollection* bDocs = CBLDatabase_DefaultCollection(b, &err);
    for (int i = 0; i < 20; i++) {
        char id[16], json[64];
        snprintf(id, sizeof id, "doc-%d", i);
        snprintf(json, sizeof json, "{\"n\":%d,\"city\":\"Paris\"}", i);
        save_json(aDocs, id, json);
    }

    /* A bad configuration is an error. */
    CHECK(CBLReplicator_Create(NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLReplicatorConfiguration empty = { .endpoint = endpoint };
    CHECK(CBLReplicator_Create(&empty, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "no collection");
    CBLReplicationCollection mixed[2] = { { .collection = aDocs }, { .collection = bDocs } };
    CBLReplicatorConfiguration twoDatabases = { .collections = mixed, .collectionCount = 2, .endpoint = endpoint };
    CHECK(CBLReplicator_Create(&twoDatabases, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "different databases");
    CBLReplicationCollection badChannels = { .collection = aDocs, .channelsJSON = "[1]" };
    CBLReplicatorConfiguration badJSON = { .collections = &badChannels, .collectionCount = 1, .endpoint = endpoint };
    CHECK(CBLReplicator_Create(&badJSON, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);

    /* A pushes, B pulls. */
    Events aEvents = { 0 }, bEvents = { 0 };
    CBLReplicatorStatus pushed = replicate(aDocs, endpoint, kCBLReplicatorTypePush, &aEvents);
    CHECK_NO_ERROR(pushed.error);
    CHECK(pushed.progress.documentCount == 20);
    CHECK(pushed.progress.complete == 1.0f);
    CHECK(aEvents.pushed == 20);
    CHECK(aEvents.statusCalls >= 3);
    CBLReplicatorStatus pulled = replicate(bDocs, endpoint, kCBLReplicatorTypePull, &bEvents);
    CHECK_NO_ERROR(pulled.error);
    CHECK(bEvents.pulled == 20);
    CHECK(CBLCollection_Count(bDocs) == 20);
    char* json = read_json(bDocs, "doc-7");
    CHECK_STR(json, "{\"n\":7,\"city\":\"Paris\"}");
    CBL_FreeString(json);

    /* Pending documents: the one saved since the push. */
    save_json(aDocs, "extra", "{}");
    CBLReplicationCollection entry = { .collection = aDocs };
    CBLReplicatorConfiguration config = { .collections = &entry, .collectionCount = 1, .endpoint = endpoint,
                                          .replicatorType = kCBLReplicatorTypePush };
    CBLReplicator* replicator = CBLReplicator_Create(&config, &err);
    CHECK_OK(replicator != NULL, err);
    char* pending = CBLReplicator_PendingDocumentIDs2(replicator, aDocs, &err);
    CHECK_STR(pending, "[\"extra\"]");
    CBL_FreeString(pending);
    CHECK(CBLReplicator_IsDocumentPending2(replicator, "extra", aDocs, &err));
    CHECK(!CBLReplicator_IsDocumentPending2(replicator, "doc-1", aDocs, &err));
    CHECK_NO_ERROR(err);
    CHECK(CBLReplicator_PendingDocumentIDs2(replicator, bDocs, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBL_Release(replicator);

    /* A wrong password stops the replicator with 401; the local data stays. */
    char wrong[600];
    snprintf(wrong, sizeof wrong, "%.*spassword=wrong", (int)(strstr(server, "password=") - server), server);
    CBLEndpoint* wrongEndpoint = CBLEndpoint_CreateWithPostgreSQL(wrong, false, &err);
    CHECK_OK(wrongEndpoint != NULL, err);
    Events wrongEvents = { 0 };
    CBLReplicatorStatus refused = replicate(aDocs, wrongEndpoint, kCBLReplicatorTypePushAndPull, &wrongEvents);
    CHECK_ERROR(refused.error, kCBLWebSocketDomain, 401, "refused the credentials");
    CHECK(CBLCollection_Count(aDocs) == 21);
    CBL_Release(wrongEndpoint);

    /* A push filter keeps "skip" here; a resolver merges a conflict. */
    save_json(aDocs, "skip", "{}");
    save_json(aDocs, "keep", "{}");
    save_json(aDocs, "doc-0", "{\"by\":\"a\"}");
    save_json(bDocs, "doc-0", "{\"by\":\"b\"}");
    CBLReplicationCollection filtered = { .collection = aDocs, .pushFilter = not_skip };
    Events more = { 0 };
    CHECK_NO_ERROR(replicate_with(filtered, endpoint, kCBLReplicatorTypePush, &more, NULL).error);
    int resolutions = 0;
    CBLReplicationCollection resolving = { .collection = bDocs, .conflictResolver = merge };
    CHECK_NO_ERROR(replicate_with(resolving, endpoint, kCBLReplicatorTypePushAndPull, &more, &resolutions).error);
    CHECK(resolutions == 1);
    CHECK(doc_exists(bDocs, "keep"));
    CHECK(!doc_exists(bDocs, "skip"));
    json = read_json(bDocs, "doc-0");
    CHECK_STR(json, "{\"merged\":true}");
    CBL_FreeString(json);
    CHECK_NO_ERROR(replicate(aDocs, endpoint, kCBLReplicatorTypePull, &more).error);
    json = read_json(aDocs, "doc-0");
    CHECK_STR(json, "{\"merged\":true}");
    CBL_FreeString(json);

    /* Another database as the endpoint: C gets A's documents, with no server. */
    CBLDatabase* c = open_database(directory, "c");
    CBLCollection* cDocs = CBLDatabase_DefaultCollection(c, &err);
    CHECK(CBLEndpoint_CreateWithLocalDB(NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLEndpoint* local = CBLEndpoint_CreateWithLocalDB(a, &err);
    CHECK_OK(local != NULL, err);
    CHECK(!CBLEndpoint_InitializeServer(local, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "not a PostgreSQL server");
    Events localEvents = { 0 };
    CHECK_NO_ERROR(replicate(cDocs, local, kCBLReplicatorTypePull, &localEvents).error);
    CHECK(CBLCollection_Count(cDocs) == CBLCollection_Count(aDocs));
    json = read_json(cDocs, "doc-0");
    CHECK_STR(json, "{\"merged\":true}");
    CBL_FreeString(json);
    CBL_Release(local);
    CBL_Release(cDocs);
    close_database(c);

    /* Released handles are errors, not crashes. */
    CHECK(CBLReplicator_Status(NULL).activity == kCBLReplicatorStopped);
    CBLReplicator_Start(NULL, false);
    CBLReplicator_Stop(NULL);

    CBL_Release(endpoint);
    CBL_Release(aDocs);
    CBL_Release(bDocs);
    close_database(a);
    close_database(b);
    snprintf(command, sizeof command, "'%s/scripts/postgres-server' stop '%s/pg' >/dev/null 2>&1", DOCLITE_SOURCE_DIR, directory);
    CHECK(system(command) == 0);
    return test_finish("replicator_test");
}
