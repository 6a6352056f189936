/* Vector search through the C ABI, as Couchbase Lite's "Working with Vector Search" guide
   does it: a vector index with the guide's configuration on a collection of colours, the
   guide's SQL++ query, a hybrid one, the same search built with the QueryBuilder, a lazy
   index the application fills through CBLIndexUpdater, and the mistakes as errors. */
#include "test_support.h"

static const char* const COLORS[][3] = {
    {"maroon", "[0.5, 0, 0.1]", "0.9"},  {"red", "[1, 0, 0]", "1.0"},        {"rose", "[0.9, 0.2, 0.25]", "0.4"},
    {"salmon", "[0.98, 0.5, 0.45]", "0.53"}, {"orange", "[1, 0.65, 0]", "1.0"}, {"pink", "[1, 0.75, 0.8]", "0.25"},
    {"yellow", "[1, 1, 0]", "1.0"},      {"grey", "[0.5, 0.5, 0.5]", "0.0"}, {"green", "[0, 0.5, 0]", "1.0"},
    {"blue", "[0, 0, 1]", "1.0"},        {"nothing", "null", "0.0"},         {"wrong", "[1, 2]", "0.0"},
};

static CBLQuery* query(CBLDatabase* db, const char* sqlpp) {
    CBLError err;
    CBLQuery* q = CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, sqlpp, NULL, &err);
    CHECK_OK(q != NULL, err);
    CHECK_OK(q && CBLQuery_SetParameters(q, "{\"vector\": [0.9, 0.1, 0.1]}", &err), err);
    return q;
}

static bool create(CBLCollection* colors, CBLVectorIndexConfiguration config, CBLError* err) {
    return CBLCollection_CreateVectorIndex(colors, "colors_index", config, err);
}

int main(void) {
    uint64_t instances = CBL_InstanceCount();
    CBLDatabase* db = open_database(test_directory("vector_search"), "v");
    CBLError err;
    CBLCollection* colors = CBLDatabase_CreateCollection(db, "colors", NULL, &err);
    CHECK_OK(colors != NULL, err);
    for (size_t i = 0; i < sizeof COLORS / sizeof COLORS[0]; i++) {
        char json[160];
        snprintf(json, sizeof json, "{\"color\": \"%s\", \"vector\": %s, \"saturation\": %s}", COLORS[i][0], COLORS[i][1], COLORS[i][2]);
        save_json(colors, COLORS[i][0], json);
    }

    /* The guide's index: cosine, no encoding, 8 probes, training sizes. */
    CBLVectorIndexConfiguration config = {0};
    config.expressionLanguage = kCBLN1QLLanguage;
    config.expression = "vector";
    config.dimensions = 3;
    config.centroids = 100;
    config.metric = kCBLDistanceMetricCosine;
    config.numProbes = 8;
    CBLVectorEncoding* none = CBLVectorEncoding_CreateNone();
    config.encoding = none;
    config.minTrainingSize = 2500;
    config.maxTrainingSize = 5000;
    CHECK_OK(create(colors, config, &err), err);
    CBLVectorEncoding_Free(none);

    /* The guide's query, and a hybrid one (a WHERE on another property, no LIMIT needed). */
    CBLQuery* nearest = query(db, "SELECT META().id, color FROM _default.colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector) LIMIT 4");
    CHECK_COLUMN(nearest, "color", false, "maroon", "red", "rose", "salmon");
    char* plan = CBLQuery_Explain(nearest, &err);
    CHECK(plan && strstr(plan, "vec"));
    CBL_FreeString(plan);
    CBL_Release(nearest);
    CBLQuery* saturated = query(db, "SELECT color FROM colors WHERE saturation > 0.5 ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector)");
    CHECK_COLUMN(saturated, "color", false, "maroon", "red", "salmon", "orange", "yellow", "green", "blue");
    CBL_Release(saturated);

    /* The same search built with the QueryBuilder. */
    CBLQueryBuilder* b = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(b, CBLQuerySelectResult_Property("color"));
    CBLQueryBuilder_From(b, CBLQueryDataSource_Collection(colors));
    CBLQueryBuilder_OrderBy(b, CBLQueryOrdering_Expression(CBLQueryFunction_ApproxVectorDistanceMetric(
        CBLQueryExpression_Property("vector"), CBLQueryExpression_Parameter("vector"), CBLQueryExpression_String("COSINE"))));
    CBLQueryBuilder_Limit(b, CBLQueryLimit_Limit(CBLQueryExpression_Int(3)));
    CBLQuery* built = CBLQueryBuilder_Build(b, &err);
    CHECK_OK(built != NULL, err);
    CHECK_OK(built && CBLQuery_SetParameters(built, "{\"vector\": [0.9, 0.1, 0.1]}", &err), err);
    CHECK_COLUMN(built, "color", false, "maroon", "red", "rose");
    CBL_Release(built);
    CBL_Release(b);

    /* Errors: a query's metric not the index's, a simple search without LIMIT, a bad configuration. */
    CHECK(CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector, 'dot') LIMIT 3",
                                  NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "does not match the index's metric");
    CHECK(CBLDatabase_CreateQuery(db, kCBLN1QLLanguage, "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(vector, $vector)",
                                  NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "a LIMIT must be given");
    CBLVectorIndexConfiguration bad = config;
    bad.encoding = NULL;
    bad.dimensions = 5000;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "dimensions 5000 is too large");
    bad.dimensions = 0;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "dimensions 0 is too small");
    bad = config;
    bad.encoding = NULL;
    bad.metric = 9;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "unknown distance metric 9");
    CBLVectorEncoding* sq5 = CBLVectorEncoding_CreateScalarQuantizer(5);
    bad.metric = 0;
    bad.encoding = sq5;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "scalar quantizer type 5");
    CBLVectorEncoding_Free(sq5);
    bad.encoding = sq5;   /* freed: a released handle is an error, not a crash */
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "vector encoding");
    CBLVectorEncoding* pq = CBLVectorEncoding_CreateProductQuantizer(2, 8);
    bad.encoding = pq;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "must divide the dimensions");
    CBLVectorEncoding_Free(pq);
    bad.encoding = NULL;
    bad.expression = NULL;
    CHECK(!create(colors, bad, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "expression");
    CHECK(!create(NULL, config, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBLVectorEncoding_Free(NULL);

    /* The index is the guide's still: the failed creations changed nothing. */
    char* names = CBLCollection_GetIndexNames(colors, &err);
    CHECK_STR(names, "[\"colors_index\"]");
    CBL_FreeString(names);

    /* A lazy index: the application computes each colour's vector from its name. */
    CBLVectorIndexConfiguration lazy = {0};
    lazy.expressionLanguage = kCBLN1QLLanguage;
    lazy.expression = "color";
    lazy.dimensions = 3;
    lazy.centroids = 2;
    lazy.isLazy = true;
    lazy.metric = kCBLDistanceMetricCosine;
    CHECK_OK(CBLCollection_CreateVectorIndex(colors, "by_name", lazy, &err), err);
    CBLQueryIndex* index = CBLCollection_GetIndex(colors, "by_name", &err);
    CHECK_OK(index != NULL, err);
    CHECK_STR(CBLQueryIndex_Name(index), "by_name");
    size_t updated = 0, skipped = 0;
    for (int round = 0; round < 3; round++) {
        CBLIndexUpdater* updater = CBLQueryIndex_BeginUpdate(index, 5, &err);
        if (!updater) {
            CHECK_NO_ERROR(err);
            break;
        }
        for (size_t i = 0; i < CBLIndexUpdater_Count(updater); i++) {
            char* name = CBLIndexUpdater_CopyValueJSON(updater, i);
            const float* vector = NULL;
            float values[3];
            for (size_t c = 0; name && c < sizeof COLORS / sizeof COLORS[0]; c++) {
                char quoted[40];
                snprintf(quoted, sizeof quoted, "\"%s\"", COLORS[c][0]);
                if (strcmp(name, quoted) == 0 && sscanf(COLORS[c][1], "[%f, %f, %f]", &values[0], &values[1], &values[2]) == 3) vector = values;
            }
            if (round == 0 && name && strcmp(name, "\"red\"") == 0) {
                CHECK_OK(CBLIndexUpdater_SkipVector(updater, i, &err), err);   /* comes back in the next round */
                skipped++;
            } else {
                CHECK_OK(CBLIndexUpdater_SetVector(updater, i, vector, 3, &err), err);   /* NULL: none ("nothing", "wrong") */
                updated++;
            }
            CBL_FreeString(name);
        }
        CHECK(CBLIndexUpdater_CopyValueJSON(updater, CBLIndexUpdater_Count(updater)) == NULL);
        CHECK_OK(CBLIndexUpdater_Finish(updater, &err), err);
        CHECK(!CBLIndexUpdater_Finish(updater, &err));
        CHECK_CODE(err, kCBLDomain, kCBLErrorNotOpen);
        CBL_Release(updater);
    }
    CHECK(updated == sizeof COLORS / sizeof COLORS[0] && skipped == 1);
    CBLQuery* lazyQuery = query(db, "SELECT color FROM colors ORDER BY APPROX_VECTOR_DISTANCE(color, $vector, 'cosine') LIMIT 3");
    CHECK_COLUMN(lazyQuery, "color", false, "maroon", "red", "rose");
    CBL_Release(lazyQuery);

    /* The updater's mistakes. */
    save_json(colors, "late", "{\"color\": \"late\"}");
    CBLIndexUpdater* late = CBLQueryIndex_BeginUpdate(index, 10, &err);
    CHECK_OK(late != NULL && CBLIndexUpdater_Count(late) == 1, err);
    float two[2] = {1, 2};
    CHECK(!CBLIndexUpdater_SetVector(late, 0, two, 2, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "Inconsistent vector dimensions");
    CHECK(!CBLIndexUpdater_SetVector(late, 0, two, SIZE_MAX, &err));   /* a count beyond the array: refused, never read */
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "Inconsistent vector dimensions");
    CHECK(!CBLIndexUpdater_SkipVector(late, 1, &err));
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "out of range");
    CHECK(!CBLIndexUpdater_Finish(late, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorUnsupported);
    CBL_Release(late);   /* unfinished: changes nothing */
    CHECK(CBLQueryIndex_BeginUpdate(index, 0, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(!CBLIndexUpdater_Finish(NULL, &err));
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CBL_Release(index);
    CBLQueryIndex* eager = CBLCollection_GetIndex(colors, "colors_index", &err);
    CHECK_OK(eager != NULL, err);
    CHECK(CBLQueryIndex_BeginUpdate(eager, 5, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorUnsupported);
    CBL_Release(eager);
    CHECK(CBLCollection_GetIndex(colors, "none", &err) == NULL);
    CHECK_NO_ERROR(err);

    CBL_Release(colors);
    close_database(db);
    CHECK(CBL_InstanceCount() == instances);
    return test_finish("vector_search_test");
}
