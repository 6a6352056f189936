#include "doclite_collation.h"
#include <string.h>
#include <unicode/ucol.h>

doclite_collator *doclite_collator_open(const char *locale, int case_sensitive, int diacritic_sensitive) {
    UErrorCode status = U_ZERO_ERROR;
    UCollator *collator = ucol_open(locale, &status);
    if (U_FAILURE(status)) return NULL;
    UColAttributeValue strength = !diacritic_sensitive ? UCOL_PRIMARY : !case_sensitive ? UCOL_SECONDARY : UCOL_TERTIARY;
    ucol_setAttribute(collator, UCOL_STRENGTH, strength, &status);
    if (!diacritic_sensitive && case_sensitive) ucol_setAttribute(collator, UCOL_CASE_LEVEL, UCOL_ON, &status);
    if (U_FAILURE(status)) {
        ucol_close(collator);
        return NULL;
    }
    return (doclite_collator *)collator;
}

void doclite_collator_close(doclite_collator *collator) {
    ucol_close((UCollator *)collator);
}

int doclite_collator_compare(const doclite_collator *collator, const void *a, int a_length, const void *b, int b_length) {
    UErrorCode status = U_ZERO_ERROR;
    UCollationResult result = ucol_strcollUTF8((const UCollator *)collator, (const char *)a, a_length, (const char *)b, b_length, &status);
    if (U_SUCCESS(status)) return (int)result;
    int common = a_length < b_length ? a_length : b_length;
    int order = common == 0 ? 0 : memcmp(a, b, (size_t)common);
    return order != 0 ? order : a_length - b_length;
}
