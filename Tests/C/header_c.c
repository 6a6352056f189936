/* doclite.h on its own compiles as strict C11 (-pedantic, every warning an
 * error) and its declarations link against libdoclite. */
#include "doclite.h"

_Static_assert(sizeof(CBLErrorDomain) == 1, "CBLErrorDomain is a uint8_t");
_Static_assert(sizeof(CBLConcurrencyControl) == 1, "CBLConcurrencyControl is a uint8_t");
_Static_assert(sizeof(CBLTimestamp) == 8, "CBLTimestamp is an int64_t");
_Static_assert(kCBLErrorBadDocID == 29 && kCBLFleeceErrorJSON == 5, "Couchbase Lite's error numbering");

int main(void) {
    /* Each declaration matches an exported function of the library. */
    CBLDatabase* (*open)(const char*, const CBLDatabaseConfiguration*, CBLError*) = CBLDatabase_Open;
    bool (*save)(CBLCollection*, CBLDocument*, CBLConcurrencyControl, CBLError*) =
        CBLCollection_SaveDocumentWithConcurrencyControl;
    CBLListenerToken* (*listen)(const CBLCollection*, CBLCollectionChangeListener, void*, CBLError*) =
        CBLCollection_AddChangeListener;
    CBLError err = { kCBLDomain, kCBLErrorNotFound, 0 };
    CBLDatabaseConfiguration config = CBLDatabaseConfiguration_Default();
    if (!open || !save || !listen) return 1;
    if (config.directory != NULL || config.fullSync) return 1;
    if (CBLError_Message(NULL) != NULL || CBL_InstanceCount() != 0) return 1;
    CBL_FreeString(CBLError_Message(&err));

    /* The step-by-step QueryBuilder and typed parameters: without FROM the build fails, nothing leaks. */
    CBLDatabase_Release(CBLDatabase_Retain(NULL));   /* couchbase-lite-C's typed retain/release */
    CBLQuery_Release(NULL);
    CBLQueryBuilder* builder = CBLQueryBuilder_New();
    CBLQueryBuilder_Select(builder, CBLQuerySelectResult_Property("name"));
    CBLQueryBuilder_Where(builder, CBLQueryExpression_EqualTo(CBLQueryExpression_Property("country"),
                                                              CBLQueryExpression_Parameter("country")));
    CBLQueryBuilder_Limit(builder, CBLQueryLimit_LimitOffset(CBLQueryExpression_Int(10), CBLQueryExpression_Int(5)));
    CBLQueryParameters* parameters = CBLQueryParameters_New();
    CBLQueryParameters_SetString(parameters, "country", "France");
    CBLQuery* query = CBLQueryBuilder_Build(builder, &err);
    if (query != NULL || err.code != kCBLErrorInvalidQuery) return 1;
    if (CBLQuery_SetQueryParameters(query, parameters, &err) || err.code != kCBLErrorInvalidParameter) return 1;
    CBL_Release(parameters);
    CBL_Release(builder);
    if (CBL_InstanceCount() != 0) return 1;
    return 0;
}
