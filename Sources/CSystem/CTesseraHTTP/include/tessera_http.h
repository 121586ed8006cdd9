// One blocking HTTP(S) GET through libcurl (curl_easy_setopt is variadic, which Swift cannot
// call). Thread-safe after tessera_http_global_init(); each call uses its own easy handle.
#pragma once
#include <stddef.h>
#include <stdint.h>

#define TESSERA_HTTP_ERROR_SIZE 256

/// Settings of one request.
typedef struct {
  /// Milliseconds allowed for connecting.
  long connect_timeout_ms;
  /// Milliseconds allowed for the whole transfer.
  long timeout_ms;
  /// Bodies larger than this fail (the transfer stops early).
  size_t max_body_bytes;
  /// The User-Agent header.
  const char *user_agent;
  /// Redirects followed (0: a redirect is returned as the response, for the caller to check).
  long max_redirects;
  /// Whether addresses that are not public (loopback, private, link-local, multicast, …) may
  /// be connected to; when 0 such a connection is refused before it is made, whatever name
  /// resolved to it.
  int allow_private_addresses;
} tessera_http_options;

/// What came back. `body` and `headers` are malloc'd; free with tessera_http_free.
typedef struct {
  /// HTTP status of the final response, 0 when none arrived.
  long status;
  uint8_t *body;
  size_t body_size;
  /// The final response's header lines, as received ("Name: value\r\n" …).
  char *headers;
  size_t headers_size;
  /// libcurl's CURLcode (0 = the transfer completed).
  int curl_code;
  /// Whether the body exceeded max_body_bytes.
  int body_too_large;
  /// Whether a connection was refused because its address is not public (then `error` names
  /// the address).
  int refused_address;
  char error[TESSERA_HTTP_ERROR_SIZE];
} tessera_http_response;

/// Loads and initialises libcurl once per process; call before the first request (idempotent).
void tessera_http_global_init(void);

/// Performs a GET of `url` with extra request header lines ("Name: value"). Returns 0 when a
/// response arrived (any status), non-zero when the transfer failed (see curl_code, error).
int tessera_http_get(const char *url, const char *const *request_headers, size_t header_count,
                     tessera_http_options options, tessera_http_response *out);

/// Frees the buffers of a response.
void tessera_http_free(tessera_http_response *response);
