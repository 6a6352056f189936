/* The 1.x query builder through the C ABI: the wiki page's blog query ($TAG,
   -date) and average(price), the rows' columns, contexts as JSON, errors with
   the part and position, the explanation, and bad handles. */
#include "test_support.h"

static const char* const kPosts[][2] = {
    {"p1", "{\"type\": \"post\", \"title\": \"Introducing CBLQueryBuilder\", \"author\": \"Jens Alfke\", \"date\": \"2014-12-11\","
           " \"body\": \"Yo\", \"tags\": [\"couchbase lite\", \"iOS\", \"queries\", \"views\", \"API\"]}"},
    {"p2", "{\"type\": \"post\", \"title\": \"Views\", \"author\": \"Jens Alfke\", \"date\": \"2014-10-01\", \"body\": \"Map\","
           " \"tags\": [\"views\", \"iOS\"]}"},
    {"p3", "{\"type\": \"post\", \"title\": \"Replication\", \"author\": \"Traun\", \"date\": \"2015-01-20\", \"body\": \"Sync\","
           " \"tags\": [\"sync\"]}"},
    {"c1", "{\"type\": \"comment\", \"title\": \"Nice\", \"date\": \"2014-12-12\", \"tags\": [\"iOS\"]}"},
    {"b1", "{\"type\": \"book\", \"title\": \"A\", \"price\": 10}"},
    {"b2", "{\"type\": \"book\", \"title\": \"B\", \"price\": 25.5}"},
};

static void test_the_tag_query(CBLCollection* posts) {
    CBLError err;
    const char* select[] = {"title", "body", "author", "date"};
    const char* order[] = {"-date"};
    CBLPredicateQueryBuilder* builder = CBLPredicateQueryBuilder_Create(posts, select, 4, "type == 'post' and tags contains $TAG",
                                                                        order, 1, NULL, &err);
    CHECK_OK(builder != NULL, err);

    CBLResultSet* rows = CBLPredicateQueryBuilder_Run(builder, "{\"TAG\": \"iOS\"}", &err);
    CHECK_OK(rows != NULL, err);
    CHECK_OK(CBLResultSet_Next(rows, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rows, 0), "Introducing CBLQueryBuilder");
    CHECK_STR(CBLResultSet_StringForKey(rows, "date"), "2014-12-11");
    char* row = CBLResultSet_CreateRowArrayJSON(rows);
    CHECK_STR(row, "[\"Introducing CBLQueryBuilder\",\"Yo\",\"Jens Alfke\",\"2014-12-11\"]");
    CBL_FreeString(row);
    CHECK_OK(CBLResultSet_Next(rows, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rows, 0), "Views");
    CHECK(!CBLResultSet_Next(rows, &err));
    CHECK_NO_ERROR(err);
    CBL_Release(rows);

    /* The query keeps the context's values; the builder makes another for another tag. */
    CBLQuery* query = CBLPredicateQueryBuilder_CreateQuery(builder, "{\"TAG\": \"sync\", \"unused\": 1}", &err);
    CHECK_OK(query != NULL, err);
    rows = CBLQuery_Execute(query, &err);
    CHECK_OK(rows != NULL && CBLResultSet_Next(rows, &err), err);
    CHECK_STR(CBLResultSet_StringAtIndex(rows, 0), "Replication");
    CHECK(!CBLResultSet_Next(rows, &err));
    CBL_Release(rows);
    CBL_Release(query);

    /* A variable the context lacks is an error naming it, as 1.x raised one. */
    CHECK(CBLPredicateQueryBuilder_Run(builder, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQueryParam, "$TAG");
    CHECK(CBLPredicateQueryBuilder_Run(builder, "[1]", &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "JSON object");
    CHECK(CBLPredicateQueryBuilder_Run(builder, "{bad", &err) == NULL);
    CHECK(err.code != 0);

    char* explanation = CBLPredicateQueryBuilder_Explanation(builder, &err);
    CHECK_OK(explanation != NULL, err);
    CHECK(explanation && strstr(explanation, "ORDER BY date DESC") && strstr(explanation, "variables: $TAG")
          && strstr(explanation, "index: none"));
    CBL_FreeString(explanation);
    CBL_Release(builder);
}

static void test_the_average(CBLCollection* posts) {
    CBLError err;
    const char* select[] = {"average(price)"};
    CBLPredicateQueryBuilder* builder = CBLPredicateQueryBuilder_Create(posts, select, 1, "type == 'book'", NULL, 0, NULL, &err);
    CHECK_OK(builder != NULL, err);
    CBLResultSet* rows = CBLPredicateQueryBuilder_Run(builder, NULL, &err);
    CHECK_OK(rows != NULL && CBLResultSet_Next(rows, &err), err);
    CHECK(CBLResultSet_DoubleAtIndex(rows, 0) == 17.75);
    CHECK(!CBLResultSet_Next(rows, &err));
    CBL_Release(rows);
    CBL_Release(builder);
}

static void test_mistakes(CBLCollection* posts) {
    CBLError err;
    int position = 99;
    const char* select[] = {"title", "nosuch(x)"};
    CHECK(CBLPredicateQueryBuilder_Create(posts, select, 1, "type ==", NULL, 0, &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "where: predicate error at character 8");
    CHECK(position == 7);
    CHECK(CBLPredicateQueryBuilder_Create(posts, select, 2, "TRUEPREDICATE", NULL, 0, &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidQuery, "select item 2: ");
    CHECK(position == 0);
    CHECK(CBLPredicateQueryBuilder_Create(posts, select, 1, "TRUEPREDICATE", NULL, 1, &position, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "sort descriptor array is NULL");
    CHECK(position == -1);
    CHECK(CBLPredicateQueryBuilder_Create(posts, select, 0, "TRUEPREDICATE", NULL, 0, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidQuery);
    CHECK(CBLPredicateQueryBuilder_Create(posts, select, 1, NULL, NULL, 0, NULL, &err) == NULL);
    CHECK_ERROR(err, kCBLDomain, kCBLErrorInvalidParameter, "predicate is NULL");
    CHECK(CBLPredicateQueryBuilder_Create(NULL, select, 1, "TRUEPREDICATE", NULL, 0, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    /* Released and wrong-type handles are errors, never crashes. */
    CHECK(CBLPredicateQueryBuilder_Run((const CBLPredicateQueryBuilder*)posts, NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
    CHECK(CBLPredicateQueryBuilder_Explanation(NULL, &err) == NULL);
    CHECK_CODE(err, kCBLDomain, kCBLErrorInvalidParameter);
}

int main(void) {
    uint64_t instances = CBL_InstanceCount();
    CBLDatabase* db = open_database(test_directory("predicate_query"), "blog");
    CBLError err;
    CBLCollection* posts = CBLDatabase_DefaultCollection(db, &err);
    CHECK_OK(posts != NULL, err);
    for (size_t i = 0; i < sizeof kPosts / sizeof kPosts[0]; i++) save_json(posts, kPosts[i][0], kPosts[i][1]);

    test_the_tag_query(posts);
    test_the_average(posts);
    test_mistakes(posts);

    CBL_Release(posts);
    close_database(db);
    CHECK(CBL_InstanceCount() == instances);
    return test_finish("predicate_query_test");
}
