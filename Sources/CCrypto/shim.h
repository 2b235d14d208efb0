// OpenSSL libcrypto: SHA-256 through the EVP interface (uses SHA-NI/AVX2 where the CPU has them).
#include <openssl/evp.h>
