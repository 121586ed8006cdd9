#include <curl/curl.h>
#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera_http.h"

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

static void global_init(void) { curl_global_init(CURL_GLOBAL_DEFAULT); }

void tessera_http_global_init(void) { pthread_once(&global_once, global_init); }

typedef struct {
  tessera_http_response *response;
  size_t body_capacity;
  size_t headers_capacity;
  size_t max_body_bytes;
} transfer_state;

static int append(uint8_t **buffer, size_t *size, size_t *capacity, const void *data, size_t count) {
  if (*size + count + 1 > *capacity) {
    size_t grown = *capacity ? *capacity : 16384;
    while (grown < *size + count + 1) grown *= 2;
    uint8_t *bigger = (uint8_t *)realloc(*buffer, grown);
    if (!bigger) return 0;
    *buffer = bigger;
    *capacity = grown;
  }
  memcpy(*buffer + *size, data, count);
  *size += count;
  (*buffer)[*size] = 0;
  return 1;
}

static size_t on_body(char *data, size_t size, size_t count, void *user) {
  transfer_state *state = (transfer_state *)user;
  size_t bytes = size * count;
  if (state->response->body_size + bytes > state->max_body_bytes) {
    state->response->body_too_large = 1;
    return 0;
  }
  if (!append(&state->response->body, &state->response->body_size, &state->body_capacity, data, bytes)) {
    return 0;
  }
  return bytes;
}

static size_t on_header(char *data, size_t size, size_t count, void *user) {
  transfer_state *state = (transfer_state *)user;
  size_t bytes = size * count;
  // A status line starts a new response (after a redirect or 100 Continue): keep only the last.
  if (bytes >= 5 && memcmp(data, "HTTP/", 5) == 0) state->response->headers_size = 0;
  if (!append((uint8_t **)&state->response->headers, &state->response->headers_size,
              &state->headers_capacity, data, bytes)) {
    return 0;
  }
  return bytes;
}

int tessera_http_get(const char *url, const char *const *request_headers, size_t header_count,
                     tessera_http_options options, tessera_http_response *out) {
  memset(out, 0, sizeof(*out));
  tessera_http_global_init();
  CURL *curl = curl_easy_init();
  if (!curl) {
    snprintf(out->error, TESSERA_HTTP_ERROR_SIZE, "curl_easy_init failed");
    out->curl_code = -1;
    return 1;
  }
  transfer_state state = {.response = out, .max_body_bytes = options.max_body_bytes};
  struct curl_slist *headers = NULL;
  for (size_t index = 0; index < header_count; index++) {
    headers = curl_slist_append(headers, request_headers[index]);
  }
  char error[CURL_ERROR_SIZE] = {0};
  curl_easy_setopt(curl, CURLOPT_URL, url);
  curl_easy_setopt(curl, CURLOPT_NOSIGNAL, 1L);
  curl_easy_setopt(curl, CURLOPT_FOLLOWLOCATION, 1L);
  curl_easy_setopt(curl, CURLOPT_MAXREDIRS, 5L);
  curl_easy_setopt(curl, CURLOPT_CONNECTTIMEOUT_MS, options.connect_timeout_ms);
  curl_easy_setopt(curl, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl_easy_setopt(curl, CURLOPT_ACCEPT_ENCODING, "");
  curl_easy_setopt(curl, CURLOPT_USERAGENT, options.user_agent ? options.user_agent : "tessera");
  curl_easy_setopt(curl, CURLOPT_HTTPHEADER, headers);
  curl_easy_setopt(curl, CURLOPT_WRITEFUNCTION, on_body);
  curl_easy_setopt(curl, CURLOPT_WRITEDATA, &state);
  curl_easy_setopt(curl, CURLOPT_HEADERFUNCTION, on_header);
  curl_easy_setopt(curl, CURLOPT_HEADERDATA, &state);
  curl_easy_setopt(curl, CURLOPT_ERRORBUFFER, error);
  CURLcode code = curl_easy_perform(curl);
  curl_easy_getinfo(curl, CURLINFO_RESPONSE_CODE, &out->status);
  out->curl_code = (int)code;
  if (code != CURLE_OK) {
    snprintf(out->error, TESSERA_HTTP_ERROR_SIZE, "%s", error[0] ? error : curl_easy_strerror(code));
  }
  curl_slist_free_all(headers);
  curl_easy_cleanup(curl);
  return code == CURLE_OK ? 0 : 1;
}

void tessera_http_free(tessera_http_response *response) {
  free(response->body);
  free(response->headers);
  response->body = NULL;
  response->headers = NULL;
}
