// doclite.h compiles as C++17 (every warning an error) with C linkage: the
// program links against libdoclite through the header's extern "C" block.
#include "doclite.h"

#include <cstdint>
#include <type_traits>

static_assert(std::is_same_v<CBLErrorDomain, uint8_t>, "CBLErrorDomain is a uint8_t");
static_assert(std::is_same_v<CBLTimestamp, int64_t>, "CBLTimestamp is an int64_t");
static_assert(std::is_trivial_v<CBLError> && std::is_standard_layout_v<CBLError>, "CBLError is a C struct");
static_assert(kCBLErrorInvalidParameter == 9 && kCBLFleeceDomain == 4, "Couchbase Lite's error numbering");

int main() {
    CBLError err{};
    CBLDatabase* db = CBLDatabase_Open(nullptr, nullptr, &err);  // a NULL name: an error, not a crash
    if (db != nullptr || err.domain != kCBLDomain || err.code != kCBLErrorInvalidParameter) return 1;
    char* message = CBLError_Message(&err);
    if (message == nullptr) return 1;
    CBL_FreeString(message);
    // A captureless lambda converts to the C callback type.
    const CBLCollectionChangeListener listener = [](void*, const CBLCollectionChange*) {};
    if (CBLCollection_AddChangeListener(nullptr, listener, nullptr, &err) != nullptr) return 1;
    if (err.code != kCBLErrorInvalidParameter || CBL_InstanceCount() != 0) return 1;
    // The QueryBuilder by nesting from C++: a NULL collection fails the query, and every part is consumed.
    CBLQuerySelectResult* what[] = {CBLQuerySelectResult_Property("name"),
                                    CBLQuerySelectResult_Expression(CBLQueryMeta_ID(nullptr))};
    CBLQueryOrdering* order[] = {CBLQueryOrdering_Descending(CBLQueryExpression_Property("name"))};
    CBLQuery* query = CBLQueryBuilder_Create(
        what, 2, false, CBLQueryDataSource_Collection(nullptr), nullptr, 0,
        CBLQueryExpression_EqualTo(CBLQueryExpression_Property("type"), CBLQueryExpression_String("hotel")),
        nullptr, 0, nullptr, order, 1, CBLQueryLimit_Limit(CBLQueryExpression_Int(10)), &err);
    if (query != nullptr || err.code != kCBLErrorInvalidParameter || CBL_InstanceCount() != 0) return 1;
    // couchbase-lite-C's typed retain/release, and collection lookups on a const database.
    const CBLDatabase* none = nullptr;
    if (CBLDatabase_Retain(none) != nullptr || CBLDatabase_DefaultCollection(none, &err) != nullptr) return 1;
    CBLResultSet_Release(nullptr);
    return 0;
}
