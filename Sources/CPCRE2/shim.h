#ifndef DOCLITE_CPCRE2_SHIM_H
#define DOCLITE_CPCRE2_SHIM_H
#define PCRE2_CODE_UNIT_WIDTH 8
#include <pcre2.h>

/// `PCRE2_ZERO_TERMINATED` is a cast of ~0, which Swift cannot import.
static const size_t cpcre2_zero_terminated = PCRE2_ZERO_TERMINATED;

#endif
