// An HTTP server on libmicrohttpd for `tessera serve`. MHD_start_daemon is variadic, which
// Swift cannot call, and answering from another thread needs suspend/resume bookkeeping: this
// C layer holds both. A request reaches the handler once, with its whole body; the handler
// answers at once or later, from any thread, with tessera_server_respond.
#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct tessera_server tessera_server;
typedef struct tessera_request tessera_request;

/// Called once per request with its method, path, query arguments (decoded, in order,
/// repeated keys kept), the length of its target (path and query) and the target as sent (not
/// decoded; for URL signatures), and its body.
typedef void (*tessera_request_handler)(
  void *context, tessera_request *request, const char *method, const char *path,
  const char *const *argument_keys, const char *const *argument_values, size_t argument_count,
  size_t target_length, const char *raw_target, const uint8_t *body, size_t body_length, int body_too_large);

typedef struct tessera_server_options {
  /// An IPv4 or IPv6 address, and a port (0: any free one).
  const char *host;
  uint16_t port;
  /// Polling threads.
  unsigned threads;
  /// Seconds a connection may stay idle (nothing received or sent).
  unsigned idle_timeout_seconds;
  /// Connections open at once.
  unsigned connection_limit;
  /// Whether other sockets may listen on the same address and port (SO_REUSEPORT); without
  /// it a port in use fails the start.
  int reuse_port;
  /// Bytes of a body kept; a larger one is read and dropped (the handler is told).
  size_t max_body;
} tessera_server_options;

/// Starts a server. Returns NULL with a message in `error` (of `error_size` bytes): for an
/// address that cannot be bound, libmicrohttpd's reason ("Address already in use").
tessera_server *tessera_server_start(
  const tessera_server_options *options, tessera_request_handler handler, void *context, char *error,
  size_t error_size);

/// The port bound (useful with port 0).
uint16_t tessera_server_port(tessera_server *server);

/// Stops accepting connections (those open are finished by tessera_server_stop).
void tessera_server_quiesce(tessera_server *server);

/// Stops the server and frees it; requests not answered get no answer.
void tessera_server_stop(tessera_server *server);

/// A request header's value, or NULL (also once the request is answered: read headers in the
/// handler, before answering from another thread).
const char *tessera_request_header(tessera_request *request, const char *name);

/// The client's address as text (for logs).
void tessera_request_client(tessera_request *request, char *buffer, size_t size);

/// Answers a request: status, headers as `count` name/value pairs, body (copied). Safe from any
/// thread, and even after the client went away. Every request handed to the handler must be
/// answered exactly once (the request's state is freed after that and its connection's end).
/// Answers to HEAD keep the body's length and leave the body out (libmicrohttpd does this;
/// `head_only` is kept for callers that know).
void tessera_server_respond(
  tessera_request *request, unsigned status, const char *const *header_names, const char *const *header_values,
  size_t header_count, const uint8_t *body, size_t body_length, int head_only);
