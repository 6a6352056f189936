/* Predictive queries through the C ABI: a model given as callbacks, called by
   PREDICTION() in SQL++ and JSON queries; NULL as MISSING; the unregistered
   callback; an unregistered model's error; a model failing (a JSON string) or
   answering malformed text fails the query and the indexed save, which changes nothing. */
#include "test_support.h"

typedef struct {
    int calls;
    int unregistered;
} ModelState;

/* The "length" model: {"length": <the input text's length>}, or no prediction without text. */
static char* predict_length(void* context, const char* inputJSON) {
    ModelState* state = context;
    state->calls++;
    const char* text = strstr(inputJSON, "\"text\":\"");
    if (!text) return NULL;
    text += strlen("\"text\":\"");
    const char* end = strchr(text, '"');
    char* output = malloc(64);
    snprintf(output, 64, "{\"length\": %d, \"parity\": \"%s\"}", (int)(end - text), (end - text) % 2 ? "odd" : "even");
    return output;
}

/* The "verdict" model: fails (a JSON string) for the text "bad", answers malformed JSON
   for "garbled", else {"ok": true}. */
static char* predict_verdict(void* context, const char* inputJSON) {
    (void)context;
    if (strstr(inputJSON, "\"bad\"")) return strdup("\"the verdict model cannot judge 'bad'\"");
    if (strstr(inputJSON, "\"garbled\"")) return strdup("{\"ok\": tru");
    return strdup("{\"ok\": true}");
}

static void model_unregistered(void* context) {
    ((ModelState*)context)->unregistered++;
}

int main(void) {
    uint64_t instances = CBL_InstanceCount();
    CBLDatabase* db = open_database(test_directory("prediction"), "p");
    CBLError err;
    CBLCollection* docs = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(docs != NULL, err);
    save_json(docs, "a", "{\"text\": \"hello\"}");
    save_json(docs, "b", "{\"text\": \"four\"}");
    save_json(docs, "c", "{\"stars\": 3}");

    ModelState state = {0, 0};
    CBLPredictiveModel model = {&state, predict_length, model_unregistered};
    CBL_RegisterPredictiveModel("length", model);

    CBLQuery* query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT META().id, PREDICTION(length, {'text': text}, length) AS n, PREDICTION(length, {'text': text}) AS p"
        " FROM _ ORDER BY META().id", NULL, &err);
    CHECK_OK(query != NULL, err);
    CBLResultSet* rows = CBLQuery_Execute(query, &err);
    CHECK_OK(rows != NULL && CBLResultSet_Next(rows, &err), err);
    CHECK(CBLResultSet_IntForKey(rows, "n") == 5);
    CHECK_STR(CBLResultSet_JSONForKey(rows, "p"), "{\"length\":5,\"parity\":\"odd\"}");
    CHECK_OK(CBLResultSet_Next(rows, &err), err);
    CHECK(CBLResultSet_IntForKey(rows, "n") == 4);
    CHECK_OK(CBLResultSet_Next(rows, &err), err);
    CHECK(CBLResultSet_TypeForKey(rows, "n") == kCBLValueMissing);   /* no text: no prediction */
    CHECK(!CBLResultSet_Next(rows, &err));
    CHECK_NO_ERROR(err);
    CBL_Release(rows);
    CHECK(state.calls >= 3);

    /* A predictive index: the model is called as the index is built and as documents are
       saved; a query with the same model and input reads the cache and calls it for no row. */
    CBLPredictiveIndexConfiguration predictive = {kCBLN1QLLanguage, "length", "{'text': text}", "[\"parity\"]"};
    CHECK_OK(CBLCollection_CreatePredictiveIndex(docs, "lengths", predictive, &err), err);
    int built = state.calls;
    CHECK(built >= 6);   /* (3 documents read by the query above, then 3 by the index) */
    CBLQuery* cached = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage,
        "SELECT META().id FROM _ WHERE PREDICTION(length, {'text': text}).parity = 'even'", NULL, &err);
    CHECK_OK(cached != NULL, err);
    size_t count = 0;
    char* ids = query_rows_text(cached, &count, NULL);
    CHECK(count == 1 && ids && strstr(ids, "\"b\""));
    free(ids);
    CHECK(state.calls == built);
    char* plan = CBLQuery_Explain(cached, &err);
    CHECK(plan && strstr(plan, "USING INDEX pred"));
    CBL_FreeString(plan);
    save_json(docs, "d", "{\"text\": \"sixsix\"}");
    CHECK(state.calls == built + 1);
    ids = query_rows_text(cached, &count, NULL);
    CHECK(count == 2 && state.calls == built + 1);
    free(ids);
    CBL_Release(cached);
    CBLPredictiveIndexConfiguration badProperties = {kCBLN1QLLanguage, "length", "{'text': text}", "[1]"};
    CHECK(!CBLCollection_CreatePredictiveIndex(docs, "bad", badProperties, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "JSON array of property paths");
    CBLPredictiveIndexConfiguration noModel = {kCBLN1QLLanguage, NULL, "{'text': text}", NULL};
    CHECK(!CBLCollection_CreatePredictiveIndex(docs, "bad", noModel, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "model name");
    CHECK_OK(CBLCollection_DeleteIndex(docs, "lengths", &err), err);

    /* Unregistered: the callback hears it once; queries fail naming the model. */
    CBL_UnregisterPredictiveModel("length");
    CHECK(state.unregistered == 1);
    rows = CBLQuery_Execute(query, &err);
    bool failed = rows == NULL || (!CBLResultSet_Next(rows, &err) && err.code != 0);
    CHECK(failed);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "no predictive model named 'length'");
    CBL_Release(rows);
    CBL_Release(query);

    /* A model's failure fails the query with its message; malformed output is an error too;
       a save whose predictive index needs a failing prediction fails and changes nothing. */
    CBLPredictiveModel verdict = {NULL, predict_verdict, NULL};
    CBL_RegisterPredictiveModel("verdict", verdict);
    const char* judged = "SELECT PREDICTION(verdict, {'text': text}, ok) FROM _ WHERE text = $t";
    query = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, judged, NULL, &err);
    CHECK_OK(query != NULL, err);
    const char* cases[][2] = {{"{\"t\": \"hello\"}", NULL},
                              {"{\"t\": \"bad\"}", "predictive model 'verdict' failed: the verdict model cannot judge 'bad'"},
                              {"{\"t\": \"garbled\"}", "predictive model 'verdict' failed: it answered \"{\\\"ok\\\": tru\""}};
    CHECK(save_json(docs, "bad", "{\"text\": \"bad\"}"));
    CHECK(save_json(docs, "garbled", "{\"text\": \"garbled\"}"));
    for (int i = 0; i < 3; i++) {
        CHECK_OK(CBLQuery_SetParameters(query, cases[i][0], &err), err);
        rows = CBLQuery_Execute(query, &err);
        bool ok = rows != NULL && CBLResultSet_Next(rows, &err);
        if (cases[i][1]) {
            CHECK(!ok);
            CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, cases[i][1]);
        } else {
            CHECK_OK(ok, err);
            CHECK(CBLResultSet_BoolAtIndex(rows, 0));
        }
        CBL_Release(rows);
    }
    CBL_Release(query);
    CHECK_OK(CBLCollection_PurgeDocumentByID(docs, "bad", &err), err);
    CHECK_OK(CBLCollection_PurgeDocumentByID(docs, "garbled", &err), err);
    CBLPredictiveIndexConfiguration verdicts = {kCBLN1QLLanguage, "verdict", "{'text': text}", NULL};
    CHECK_OK(CBLCollection_CreatePredictiveIndex(docs, "verdicts", verdicts, &err), err);
    CBLDocument* bad = CBLDocument_CreateWithID("bad", &err);
    CHECK_OK(bad && CBLDocument_SetJSON(bad, "{\"text\": \"bad\"}", &err), err);
    CHECK(!CBLCollection_SaveDocument(docs, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "cannot judge 'bad'");
    CBL_Release(bad);
    const CBLDocument* missing = CBLCollection_GetDocument(docs, "bad", &err);
    CHECK(missing == NULL && err.code == 0);
    CHECK_OK(CBLCollection_DeleteIndex(docs, "verdicts", &err), err);
    CBL_UnregisterPredictiveModel("verdict");

    /* Bad registrations are ignored, never crashes. */
    CBLPredictiveModel empty = {NULL, NULL, NULL};
    CBL_RegisterPredictiveModel("empty", empty);
    CBL_RegisterPredictiveModel(NULL, model);
    CBL_UnregisterPredictiveModel(NULL);
    CBL_UnregisterPredictiveModel("never registered");
    CHECK(state.unregistered == 1);

    CBL_Release(docs);
    close_database(db);
    CHECK(CBL_InstanceCount() == instances);
    return test_finish("prediction_test");
}
