/* Blobs through the C ABI: made from data and from a write stream, set in a
   document and saved with it, read whole and through a read stream with seeks,
   found again from a query row's metadata; a rolled-back transaction and
   compaction leave no content behind; the guide's predictive query with a model
   reading the photo blob; bad handles and arguments are errors. */
#include "test_support.h"

#define STREAMED_SIZE (3 * 1024 * 1024 + 17)

static unsigned char pattern_byte(size_t i) { return (unsigned char)((i * 31) ^ (i >> 12)); }

/* The blob a query row's metadata JSON names, or NULL. */
static CBLBlob* blob_from_query(CBLDatabase* db, const char* sqlpp) {
    CBLError err;
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sqlpp, NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rows = CBLQuery_Execute(query, &err);
    CBLBlob* blob = NULL;
    if (rows && CBLResultSet_Next(rows, &err)) {
        blob = CBLDatabase_GetBlob(db, CBLResultSet_JSONForKey(rows, "photo"), &err);
        CHECK_OK(blob != NULL, err);
    }
    CBL_Release(rows);
    CBL_Release(query);
    return blob;
}

/* The guide's image classifier: a "car" when the photo's bytes hold "wheel". */
typedef struct {
    CBLDatabase* db;
    int calls;
} Classifier;

static char* classify(void* context, const char* inputJSON) {
    Classifier* classifier = context;
    classifier->calls++;
    const char* start = strstr(inputJSON, "{\"@type\"");
    const char* end = start ? strchr(start, '}') : NULL;
    if (!end) return NULL;
    char metadata[256];
    snprintf(metadata, sizeof metadata, "%.*s", (int)(end - start + 1), start);
    CBLError err;
    CBLBlob* photo = CBLDatabase_GetBlob(classifier->db, metadata, &err);
    if (!photo) return NULL;
    size_t length = 0;
    char* bytes = CBLBlob_Content(photo, &length, &err);
    CBL_Release(photo);
    if (!bytes) return NULL;
    bool car = false;
    for (size_t i = 0; i + 5 <= length; i++) car = car || memcmp(bytes + i, "wheel", 5) == 0;
    free(bytes);
    char* output = malloc(64);
    snprintf(output, 64, "{\"label\": \"%s\", \"probability\": %s}", car ? "car" : "other", car ? "0.9" : "0.6");
    return output;
}

static void save_photo(CBLDatabase* db, CBLCollection* docs, const char* id, const char* image) {
    (void)db;
    CBLError err;
    CBLBlob* photo = CBLBlob_CreateWithData("image/jpeg", image, strlen(image), &err);
    CBLDocument* doc = CBLDocument_CreateWithID(id, &err);
    CHECK_OK(CBLDocument_SetBlob(doc, "photo", photo, &err), err);
    CHECK_OK(CBLCollection_SaveDocument(docs, doc, &err), err);
    CBL_Release(doc);
    CBL_Release(photo);
}

static void test_guide_predictive_query(CBLDatabase* db, CBLCollection* docs) {
    CBLError err;
    Classifier classifier = {db, 0};
    CBLPredictiveModel model = {&classifier, classify, NULL};
    CBL_RegisterPredictiveModel("ImageClassifier", model);
    save_photo(db, docs, "p1", "four wheels and a roof");
    save_photo(db, docs, "p2", "a cat");
    save_photo(db, docs, "p3", "one wheel");
    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT META().id FROM _ WHERE PREDICTION(ImageClassifier, {'photo': photo}).label = 'car'"
        " AND PREDICTION(ImageClassifier, {'photo': photo}).probability >= 0.8 ORDER BY META().id", NULL, &err);
    CHECK_OK(query != NULL, err);
    size_t count = 0;
    char* ids = query_rows_text(query, &count, NULL);
    CHECK(count == 2);
    CHECK(ids && strstr(ids, "p1") && strstr(ids, "p3") && !strstr(ids, "p2"));
    free(ids);
    CHECK(classifier.calls >= 3);
    CBL_Release(query);
    CBL_UnregisterPredictiveModel("ImageClassifier");
}

/* Issue 36: a document's JSON, holding a blob of `docs`' database, saved into another
   database failed to bring the content along, without a word. Now that save is an
   error; with the blob set by CBLDocument_SetBlob, the content is copied. */
static void test_copy_into_another_database(CBLCollection* docs) {
    CBLError err;
    CBLDatabase* other = open_database(test_directory("blob-copy"), "other");
    CBLCollection* target = CBLDatabase_DefaultCollection(other, &err);
    CHECK_OK(target != NULL, err);
    const CBLDocument* original = CBLCollection_GetDocument(docs, "d", &err);
    CHECK_OK(original != NULL, err);
    char* json = CBLDocument_CreateJSON(original);

    CBLDocument* copy = CBLDocument_CreateWithID("d", &err);
    CHECK_OK(CBLDocument_SetJSON(copy, json, &err), err);
    err = poisoned_error();
    CHECK(!CBLCollection_SaveDocument(target, copy, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter,
                "refers to blob sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=, whose content database 'other' does not store");
    CHECK(!doc_exists(target, "d"));

    CBLBlob* photo = CBLDocument_GetBlob(original, "photo", &err);
    CHECK_OK(photo != NULL, err);
    CHECK_OK(CBLDocument_SetBlob(copy, "photo", photo, &err), err);
    CHECK_OK(CBLCollection_SaveDocument(target, copy, &err), err);
    char* metadata = CBLBlob_CreateJSON(photo);
    CBLBlob* copied = CBLDatabase_GetBlob(other, metadata, &err);
    CHECK_OK(copied != NULL, err);
    size_t length = 0;
    char* content = CBLBlob_Content(copied, &length, &err);
    CHECK(content && length == 5 && memcmp(content, "hello", 5) == 0);
    free(content);
    CBL_FreeString(metadata);
    CBL_Release(copied);
    CBL_Release(photo);
    CBL_Release(copy);
    CBL_FreeString(json);
    CBL_Release(original);
    CBL_Release(target);
    close_database(other);
}

int main(void) {
    uint64_t instances = CBL_InstanceCount();
    CBLDatabase* db = open_database(test_directory("blob"), "b");
    CBLError err;
    CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(docs != NULL, err);

    /* A blob from data, saved with its document. */
    CBLBlob* blob = CBLBlob_CreateWithData("text/plain", "hello", 5, &err);
    CHECK_OK(blob != NULL, err);
    CHECK(CBLBlob_Length(blob) == 5);
    CHECK_STR(CBLBlob_ContentType(blob), "text/plain");
    CHECK_STR(CBLBlob_Digest(blob), "sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=");
    CBLDocument* doc = CBLDocument_CreateWithID("d", &err);
    CHECK_OK(CBLDocument_SetBlob(doc, "photo", blob, &err), err);
    CHECK_OK(CBLCollection_SaveDocument(docs, doc, &err), err);
    CBL_Release(doc);
    char* json = read_json(docs, "d");
    /* The body holds the metadata dictionary (in the stored body's key order). */
    CHECK(json && strstr(json, "\"@type\":\"blob\"") && strstr(json, "\"content_type\":\"text/plain\"")
          && strstr(json, "\"digest\":\"sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=\"") && strstr(json, "\"length\":5"));
    free(json);
    char* metadata = CBLBlob_CreateJSON(blob);
    CHECK_STR(metadata, "{\"@type\":\"blob\",\"content_type\":\"text/plain\","
                        "\"digest\":\"sha1-qvTGHdzF6KLavt4PO0gs2a6pQ00=\",\"length\":5}");

    const CBLDocument* read = CBLCollection_GetDocument(docs, "d", &err);
    CBLBlob* stored = CBLDocument_GetBlob(read, "photo", &err);
    CHECK_OK(stored != NULL, err);
    CHECK(CBLBlob_Equals(stored, blob));
    size_t length = 99;
    char* content = CBLBlob_Content(stored, &length, &err);
    CHECK_OK(content != NULL, err);
    CHECK(length == 5 && memcmp(content, "hello", 5) == 0);
    free(content);
    CHECK(CBLDocument_GetBlob(read, "absent", &err) == NULL);
    CHECK_NO_ERROR(err);
    CBL_Release(read);
    CBL_Release(stored);
    test_copy_into_another_database(docs);

    /* A query returns the metadata; the database turns it back into the blob. */
    CBLBlob* queried = blob_from_query(db, "SELECT photo FROM _ WHERE META().id = 'd'");
    CHECK(queried && CBLBlob_Equals(queried, blob));
    CBL_Release(queried);

    /* A write stream: 3 MB in pieces, then a read stream in pieces of another size, with seeks. */
    CBLBlobWriteStream* writer = CBLBlobWriter_Create(db, &err);
    CHECK_OK(writer != NULL, err);
    unsigned char* source = malloc(STREAMED_SIZE);
    for (size_t i = 0; i < STREAMED_SIZE; i++) source[i] = pattern_byte(i);
    for (size_t at = 0; at < STREAMED_SIZE; at += 65536) {
        size_t piece = STREAMED_SIZE - at < 65536 ? STREAMED_SIZE - at : 65536;
        CHECK_OK(CBLBlobWriter_Write(writer, source + at, piece, &err), err);
    }
    CBLBlob* large = CBLBlob_CreateWithStream("application/octet-stream", writer, &err);
    CHECK_OK(large != NULL, err);
    CHECK(CBLBlob_Length(large) == STREAMED_SIZE);
    CHECK(!CBLBlobWriter_Write(writer, "x", 1, &err));   /* consumed */
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    doc = CBLDocument_CreateWithID("large", &err);
    CHECK_OK(CBLDocument_SetBlob(doc, "data", large, &err), err);
    CHECK_OK(CBLCollection_SaveDocument(docs, doc, &err), err);
    CBL_Release(doc);
    read = CBLCollection_GetDocument(docs, "large", &err);
    CBLBlob* largeStored = CBLDocument_GetBlob(read, "data", &err);
    CBL_Release(read);
    CBLBlobReadStream* stream = CBLBlob_OpenContentStream(largeStored, &err);
    CHECK_OK(stream != NULL, err);
    unsigned char* received = malloc(STREAMED_SIZE);
    size_t total = 0;
    int got;
    while ((got = CBLBlobReader_Read(stream, received + total, 100000, &err)) > 0) total += (size_t)got;
    CHECK(got == 0);
    CHECK(total == STREAMED_SIZE && memcmp(received, source, STREAMED_SIZE) == 0);
    CHECK(CBLBlobReader_Position(stream) == STREAMED_SIZE);
    CHECK(CBLBlobReader_Seek(stream, -10, kCBLSeekModeFromEnd, &err) == STREAMED_SIZE - 10);
    CHECK(CBLBlobReader_Seek(stream, -5, kCBLSeekModeRelative, &err) == STREAMED_SIZE - 15);
    unsigned char tail[32];
    CHECK(CBLBlobReader_Read(stream, tail, sizeof tail, &err) == 15);
    CHECK(memcmp(tail, source + STREAMED_SIZE - 15, 15) == 0);
    CHECK(CBLBlobReader_Seek(stream, -1, kCBLSeekModeFromStart, &err) == -1);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "before the start");
    CHECK(CBLBlobReader_Seek(stream, 1, kCBLSeekModeFromEnd, &err) == -1);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "cannot seek");
    CBLBlobReader_Close(stream);
    CHECK(CBLBlobReader_Read(stream, tail, 1, &err) == -1);   /* released */
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    free(received);
    free(source);
    CBL_Release(largeStored);
    CBL_Release(large);

    /* A discarded writer; a blob saved in a transaction that rolls back leaves nothing. */
    writer = CBLBlobWriter_Create(db, &err);
    CHECK_OK(CBLBlobWriter_Write(writer, "discarded", 9, &err), err);
    CBLBlobWriter_Close(writer);
    CBLBlob* rolledBack = CBLBlob_CreateWithData(NULL, "rolled back", 11, &err);
    CHECK(CBLBlob_ContentType(rolledBack) == NULL);
    CHECK_OK(CBLDatabase_BeginTransaction(db, &err), err);
    CHECK_OK(CBLDatabase_SaveBlob(db, rolledBack, &err), err);
    CHECK_OK(CBLDatabase_EndTransaction(db, false, &err), err);
    char* rolledBackJSON = CBLBlob_CreateJSON(rolledBack);
    CHECK(CBLDatabase_GetBlob(db, rolledBackJSON, &err) == NULL);
    CHECK_NO_ERROR(err);
    CBL_FreeString(rolledBackJSON);
    CBL_Release(rolledBack);

    /* Compaction: the blob of a deleted document goes; a referenced one stays. */
    read = CBLCollection_GetDocument(docs, "large", &err);
    CHECK_OK(CBLCollection_DeleteDocument(docs, read, &err), err);
    CBL_Release(read);
    CHECK_OK(CBLDatabase_PerformMaintenance(db, kCBLMaintenanceTypeCompact, &err), err);
    CBLBlob* kept = CBLDatabase_GetBlob(db, metadata, &err);
    CHECK_OK(kept != NULL, err);
    CBL_Release(kept);
    CBL_FreeString(metadata);
    CHECK(blob_from_query(db, "SELECT data AS photo FROM _ WHERE META().id = 'large'") == NULL);

    test_guide_predictive_query(db, docs);

    /* Mistakes: errors, never crashes. */
    CHECK(CBLBlob_CreateWithData("x", NULL, 3, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "NULL");
    CHECK(CBLDatabase_GetBlob(db, "{\"digest\": \"sha1-x\"}", &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "not a blob");
    CHECK(CBLDatabase_GetBlob(db, "{not json", &err) == NULL);
    CHECK(err.code != 0);
    CHECK(CBLBlob_Length(NULL) == 0 && CBLBlob_Digest(NULL) == NULL && CBLBlob_CreateJSON(NULL) == NULL);
    CHECK(CBLBlob_Content(NULL, &length, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(!CBLDocument_SetBlob(NULL, "k", blob, &err));
    CHECK(CBLBlob_CreateWithStream(NULL, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLBlobWriter_Create(NULL, &err) == NULL);
    CBLBlobReader_Close(NULL);
    CBLBlobWriter_Close(NULL);
    read = CBLCollection_GetDocument(docs, "d", &err);
    CHECK(!CBLDocument_SetBlob((CBLDocument*)read, "k", blob, &err));   /* immutable */
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "immutable");
    CBL_Release(read);

    /* After the database closes, stored content is an error. */
    CBLBlob* closedBlob = blob_from_query(db, "SELECT photo FROM _ WHERE META().id = 'd'");
    CHECK_OK(CBLDatabase_Close(db, &err), err);
    CHECK(CBLBlob_Content(closedBlob, &length, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
    CBL_Release(closedBlob);
    CBL_Release(blob);
    CBL_Release(docs);
    close_database(db);
    CHECK(CBL_InstanceCount() == instances);
    return test_finish("blob_test");
}
