#ifndef DOCLITE_COLLATION_H
#define DOCLITE_COLLATION_H
#include <stdint.h>

/// An ICU collator behind an opaque type. ICU's own headers stay inside
/// collation.c: Foundation brings its own copy of ICU's C types, and the two
/// cannot both be visible to Swift.
typedef struct doclite_collator doclite_collator;

/// Opens a collator for `locale` (an ICU locale ID; "" for the root order):
/// tertiary strength, secondary when case-insensitive, primary (with the
/// case level when case-sensitive) when diacritic-insensitive. NULL if ICU fails.
doclite_collator *doclite_collator_open(const char *locale, int case_sensitive, int diacritic_sensitive);

void doclite_collator_close(doclite_collator *collator);

/// Compares two UTF-8 strings: negative, zero or positive (ill-formed UTF-8
/// reads as U+FFFD; should ICU report an error, the strings compare bytewise).
int doclite_collator_compare(const doclite_collator *collator, const void *a, int a_length, const void *b, int b_length);

#endif
