#ifndef DOCLITE_COPENSSL_SHIM_H
#define DOCLITE_COPENSSL_SHIM_H
/* OpenSSL's libcrypto, for the SHA-1 digests of revision IDs. */
#include <openssl/evp.h>
#endif
