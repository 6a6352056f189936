/* Minimal assertions for DocLite's C tests: each failed check prints its
 * location and the test exits non-zero at the end. */
#ifndef DOCLITE_TEST_SUPPORT_H
#define DOCLITE_TEST_SUPPORT_H

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>
#include "doclite.h"

static int test_failures = 0;
static int test_checks = 0;

#define CHECK(cond)                                                              \
    do {                                                                         \
        test_checks++;                                                           \
        if (!(cond)) {                                                           \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: CHECK failed: %s\n", __FILE__, __LINE__, #cond); \
        }                                                                        \
    } while (0)

/* Checks that the last call succeeded, printing its error message if not. */
#define CHECK_OK(ok, err)                                                        \
    do {                                                                         \
        test_checks++;                                                           \
        if (!(ok)) {                                                             \
            char* msg_ = CBLError_Message(&(err));                               \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: call failed: %s (domain %d, code %d)\n",     \
                    __FILE__, __LINE__, msg_ ? msg_ : "?", (err).domain, (err).code); \
            CBL_FreeString(msg_);                                                \
        }                                                                        \
    } while (0)

/* Checks that `err` holds `dom`/`cd` and a message containing `text`. */
#define CHECK_ERROR(err, dom, cd, text)                                          \
    do {                                                                         \
        char* msg_ = CBLError_Message(&(err));                                   \
        test_checks++;                                                           \
        if ((err).domain != (dom) || (err).code != (cd) || !msg_ || !strstr(msg_, (text))) { \
            test_failures++;                                                     \
            fprintf(stderr, "%s:%d: expected error %d/%d '%s', got %d/%d '%s'\n", \
                    __FILE__, __LINE__, (dom), (cd), (text), (err).domain, (err).code, msg_ ? msg_ : "(none)"); \
        }                                                                        \
        CBL_FreeString(msg_);                                                    \
    } while (0)

/* A fresh directory for a test's databases. */
static inline const char* test_directory(const char* name) {
    static char path[512];
    snprintf(path, sizeof path, "/tmp/doclite-ctest-%s-%d", name, (int)getpid());
    char command[600];
    snprintf(command, sizeof command, "rm -rf '%s'", path);
    if (system(command) != 0) { fprintf(stderr, "cannot clear %s\n", path); }
    return path;
}

/* Ends a test: every handle must be released; prints the summary line. */
static inline int test_finish(const char* name) {
    uint64_t live = CBL_InstanceCount();
    if (live != 0) {
        test_failures++;
        fprintf(stderr, "%s: %llu handles still live (leak)\n", name, (unsigned long long)live);
    }
    printf("%s: %d passed, %d failed\n", name, test_checks - test_failures, test_failures);
    return test_failures == 0 ? 0 : 1;
}

#endif
