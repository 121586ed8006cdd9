// OpenSSL's libcrypto as Tessera imports it (HMAC for URL signatures).
#pragma once
#include <openssl/evp.h>
#include <openssl/hmac.h>
