#include <arpa/inet.h>
#include <curl/curl.h>
#include <dlfcn.h>
#include <netinet/in.h>
#include <pthread.h>
#include <sys/socket.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "tessera_http.h"

/// libcurl, loaded on the first request rather than at start-up: with its TLS, Kerberos, LDAP
/// and SSH libraries it is some 25 shared objects, which every process would otherwise load and
/// search when it resolves symbols (EGL's driver among them), though most never fetch a URL.
static struct {
  CURLcode (*global_init)(long flags);
  CURL *(*easy_init)(void);
  CURLcode (*easy_setopt)(CURL *curl, CURLoption option, ...);
  CURLcode (*easy_perform)(CURL *curl);
  CURLcode (*easy_getinfo)(CURL *curl, CURLINFO info, ...);
  const char *(*easy_strerror)(CURLcode code);
  void (*easy_cleanup)(CURL *curl);
  struct curl_slist *(*slist_append)(struct curl_slist *list, const char *text);
  void (*slist_free_all)(struct curl_slist *list);
} curl;

/// Why libcurl could not be loaded (empty when it was).
static char load_error[TESSERA_HTTP_ERROR_SIZE];

static pthread_once_t global_once = PTHREAD_ONCE_INIT;

/// Loads libcurl and initialises it; on failure leaves `load_error` saying why.
static void global_init(void) {
  void *library = dlopen("libcurl.so.4", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(load_error, sizeof load_error, "libcurl could not be loaded: %s", dlerror());
    return;
  }
  struct { void **slot; const char *name; } symbols[] = {
    {(void **)&curl.global_init, "curl_global_init"}, {(void **)&curl.easy_init, "curl_easy_init"},
    {(void **)&curl.easy_setopt, "curl_easy_setopt"}, {(void **)&curl.easy_perform, "curl_easy_perform"},
    {(void **)&curl.easy_getinfo, "curl_easy_getinfo"}, {(void **)&curl.easy_strerror, "curl_easy_strerror"},
    {(void **)&curl.easy_cleanup, "curl_easy_cleanup"}, {(void **)&curl.slist_append, "curl_slist_append"},
    {(void **)&curl.slist_free_all, "curl_slist_free_all"},
  };
  for (size_t i = 0; i < sizeof symbols / sizeof symbols[0]; i++) {
    *symbols[i].slot = dlsym(library, symbols[i].name);
    if (!*symbols[i].slot) {
      snprintf(load_error, sizeof load_error, "libcurl.so.4 has no %s", symbols[i].name);
      return;
    }
  }
  if (curl.global_init(CURL_GLOBAL_DEFAULT) != CURLE_OK) {
    snprintf(load_error, sizeof load_error, "curl_global_init failed");
  }
}

void tessera_http_global_init(void) { pthread_once(&global_once, global_init); }

typedef struct {
  tessera_http_response *response;
  size_t body_capacity;
  size_t headers_capacity;
  size_t max_body_bytes;
  int allow_private_addresses;
} transfer_state;

/// Whether an IPv4 address (host byte order) is public: not "this network", private,
/// carrier-grade NAT, loopback, link-local (cloud metadata at 169.254.169.254), IETF protocol
/// assignments, documentation, benchmarking, multicast, reserved or broadcast.
static int ipv4_is_public(uint32_t a) {
  static const struct { uint32_t network, mask; } blocked[] = {
    {0x00000000, 0xFF000000}, {0x0A000000, 0xFF000000}, {0x64400000, 0xFFC00000}, {0x7F000000, 0xFF000000},
    {0xA9FE0000, 0xFFFF0000}, {0xAC100000, 0xFFF00000}, {0xC0000000, 0xFFFFFF00}, {0xC0000200, 0xFFFFFF00},
    {0xC0A80000, 0xFFFF0000}, {0xC6120000, 0xFFFE0000}, {0xC6336400, 0xFFFFFF00}, {0xCB007100, 0xFFFFFF00},
    {0xE0000000, 0xF0000000}, {0xF0000000, 0xF0000000},
  };
  for (size_t i = 0; i < sizeof blocked / sizeof blocked[0]; i++) {
    if ((a & blocked[i].mask) == blocked[i].network) return 0;
  }
  return 1;
}

/// Whether an IPv6 address is public: not unspecified, loopback, unique-local, link-local,
/// site-local, multicast or documentation; IPv4-mapped, IPv4-compatible and NAT64 addresses are
/// judged by the IPv4 address inside.
static int ipv6_is_public(const unsigned char *b) {
  static const unsigned char zero[12] = {0};
  static const unsigned char mapped[12] = {0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0xFF, 0xFF};
  static const unsigned char nat64[12] = {0x00, 0x64, 0xFF, 0x9B, 0, 0, 0, 0, 0, 0, 0, 0};
  if (memcmp(b, zero, 12) == 0 || memcmp(b, mapped, 12) == 0 || memcmp(b, nat64, 12) == 0) {
    uint32_t v4 = ((uint32_t)b[12] << 24) | ((uint32_t)b[13] << 16) | ((uint32_t)b[14] << 8) | b[15];
    return ipv4_is_public(v4);
  }
  if ((b[0] & 0xFE) == 0xFC) return 0;                      // fc00::/7 unique local
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0x80) return 0;      // fe80::/10 link-local
  if (b[0] == 0xFE && (b[1] & 0xC0) == 0xC0) return 0;      // fec0::/10 site-local
  if (b[0] == 0xFF) return 0;                               // multicast
  if (b[0] == 0x20 && b[1] == 0x01 && b[2] == 0x0D && b[3] == 0xB8) return 0;  // 2001:db8::/32
  return 1;
}

/// Opens the socket of a connection unless its address is not public and the transfer does
/// not allow such addresses: the check is made on the address connected to, after name
/// resolution, so no name can lead a request to a private address.
static curl_socket_t open_checked_socket(void *user, curlsocktype purpose, struct curl_sockaddr *address) {
  (void)purpose;
  transfer_state *state = (transfer_state *)user;
  if (!state->allow_private_addresses) {
    int public_address = 1;
    char text[INET6_ADDRSTRLEN] = "?";
    if (address->family == AF_INET) {
      const struct sockaddr_in *v4 = (const struct sockaddr_in *)&address->addr;
      public_address = ipv4_is_public(ntohl(v4->sin_addr.s_addr));
      inet_ntop(AF_INET, &v4->sin_addr, text, sizeof text);
    } else if (address->family == AF_INET6) {
      const struct sockaddr_in6 *v6 = (const struct sockaddr_in6 *)&address->addr;
      public_address = ipv6_is_public(v6->sin6_addr.s6_addr);
      inet_ntop(AF_INET6, &v6->sin6_addr, text, sizeof text);
    } else {
      public_address = 0;
    }
    if (!public_address) {
      state->response->refused_address = 1;
      snprintf(state->response->error, TESSERA_HTTP_ERROR_SIZE, "the address %s is not public", text);
      return CURL_SOCKET_BAD;
    }
  }
  return socket(address->family, address->socktype, address->protocol);
}

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
  if (load_error[0]) {
    snprintf(out->error, TESSERA_HTTP_ERROR_SIZE, "%s", load_error);
    out->curl_code = -1;
    return 1;
  }
  CURL *handle = curl.easy_init();
  if (!handle) {
    snprintf(out->error, TESSERA_HTTP_ERROR_SIZE, "curl_easy_init failed");
    out->curl_code = -1;
    return 1;
  }
  transfer_state state = {
    .response = out, .max_body_bytes = options.max_body_bytes,
    .allow_private_addresses = options.allow_private_addresses};
  struct curl_slist *headers = NULL;
  for (size_t index = 0; index < header_count; index++) {
    headers = curl.slist_append(headers, request_headers[index]);
  }
  char error[CURL_ERROR_SIZE] = {0};
  curl.easy_setopt(handle, CURLOPT_URL, url);
  curl.easy_setopt(handle, CURLOPT_NOSIGNAL, 1L);
  curl.easy_setopt(handle, CURLOPT_FOLLOWLOCATION, options.max_redirects > 0 ? 1L : 0L);
  curl.easy_setopt(handle, CURLOPT_MAXREDIRS, options.max_redirects);
  curl.easy_setopt(handle, CURLOPT_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(handle, CURLOPT_REDIR_PROTOCOLS_STR, "http,https");
  curl.easy_setopt(handle, CURLOPT_OPENSOCKETFUNCTION, open_checked_socket);
  curl.easy_setopt(handle, CURLOPT_OPENSOCKETDATA, &state);
  curl.easy_setopt(handle, CURLOPT_CONNECTTIMEOUT_MS, options.connect_timeout_ms);
  curl.easy_setopt(handle, CURLOPT_TIMEOUT_MS, options.timeout_ms);
  curl.easy_setopt(handle, CURLOPT_ACCEPT_ENCODING, "");
  curl.easy_setopt(handle, CURLOPT_USERAGENT, options.user_agent ? options.user_agent : "tessera");
  curl.easy_setopt(handle, CURLOPT_HTTPHEADER, headers);
  curl.easy_setopt(handle, CURLOPT_WRITEFUNCTION, on_body);
  curl.easy_setopt(handle, CURLOPT_WRITEDATA, &state);
  curl.easy_setopt(handle, CURLOPT_HEADERFUNCTION, on_header);
  curl.easy_setopt(handle, CURLOPT_HEADERDATA, &state);
  curl.easy_setopt(handle, CURLOPT_ERRORBUFFER, error);
  CURLcode code = curl.easy_perform(handle);
  curl.easy_getinfo(handle, CURLINFO_RESPONSE_CODE, &out->status);
  out->curl_code = (int)code;
  if (code != CURLE_OK && !out->refused_address) {
    snprintf(out->error, TESSERA_HTTP_ERROR_SIZE, "%s", error[0] ? error : curl.easy_strerror(code));
  }
  curl.slist_free_all(headers);
  curl.easy_cleanup(handle);
  return code == CURLE_OK ? 0 : 1;
}

void tessera_http_free(tessera_http_response *response) {
  free(response->body);
  free(response->headers);
  response->body = NULL;
  response->headers = NULL;
}
