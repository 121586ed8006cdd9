// An HTTP server on libmicrohttpd for `tessera serve`. MHD_start_daemon is variadic, which
// Swift cannot call, and answering from another thread needs suspend/resume bookkeeping: this
// C layer holds both. A request reaches the handler once, with its whole body; the handler
// answers at once or later, from any thread, with tessera_server_respond.
//
// It also bounds what a client can hold: a deadline for each request's head (request line
// and headers) and for its body, and for sending the answer (libmicrohttpd alone only drops
// connections idle for a while, so a client that sends a byte now and then keeps one forever);
// a cap on connections per client address; and a reserve of connections above the ordinary
// limit that serve only a few paths (health and readiness probes), so those are answered while
// the ordinary connections are all taken.
#pragma once
#include <stddef.h>
#include <stdint.h>

typedef struct tessera_server tessera_server;
typedef struct tessera_request tessera_request;

/// Why a request is refused from its head alone, before any body is read (the handler is
/// called at once, with no body, and must answer at once; the connection closes after).
enum tessera_refusal {
  TESSERA_REFUSAL_NONE = 0,
  /// It came on a reserve connection (taken while the ordinary ones were all open) for a path
  /// the reserve does not serve (503).
  TESSERA_REFUSAL_RESERVE = 1,
  /// Its body's length is ambiguous: several Content-Length headers (even equal ones),
  /// Content-Length with Transfer-Encoding, or a Transfer-Encoding other than a single
  /// `chunked` (400).
  TESSERA_REFUSAL_FRAMING = 2,
  /// It asks `Expect: 100-continue` for a Content-Length over the body limit (413; no
  /// `100 Continue` is sent).
  TESSERA_REFUSAL_TOO_LARGE = 3,
};

/// Called once per request with its method, path, query arguments (decoded, in order,
/// repeated keys kept), the length of its target (path and query) and the target as sent (not
/// decoded; for URL signatures), its body, and why it is refused (TESSERA_REFUSAL_NONE when
/// it is not).
typedef void (*tessera_request_handler)(
  void *context, tessera_request *request, const char *method, const char *path,
  const char *const *argument_keys, const char *const *argument_values, size_t argument_count,
  size_t target_length, const char *raw_target, const uint8_t *body, size_t body_length, int body_too_large,
  int refusal);

typedef struct tessera_server_options {
  /// An IPv4 or IPv6 address, and a port (0: any free one).
  const char *host;
  uint16_t port;
  /// Polling threads.
  unsigned threads;
  /// Seconds a connection may stay idle (nothing received or sent).
  unsigned idle_timeout_seconds;
  /// Ordinary connections open at once, and the reserve above them (see reserve_paths). When
  /// the reserve is full, a new connection closes the reserve connection that has waited longest
  /// for its head (a probe sends its request at once), so a flood queued ahead of a probe is
  /// churned through quickly.
  unsigned connection_limit;
  unsigned reserve_connections;
  /// Connections open at once from one client address; 0: no cap.
  unsigned per_client_limit;
  /// Milliseconds for a request's head to arrive, counted from the connection's start or the
  /// end of the previous answer on it (so it also bounds a kept-alive connection's idle time);
  /// for the body to arrive, counted from the end of the head; for the answer to be sent,
  /// counted from when it is ready. A connection past its deadline is closed. A request waiting
  /// for its answer has none. 0: no deadline.
  unsigned head_timeout_ms;
  unsigned body_timeout_ms;
  unsigned send_timeout_ms;
  /// The head deadline of reserve connections (shorter: a probe sends its request at once).
  unsigned reserve_head_timeout_ms;
  /// Paths (decoded, without the query) a reserve connection may ask for; other requests on
  /// one are refused (TESSERA_REFUSAL_RESERVE). Every answer on a reserve connection closes it.
  const char *const *reserve_paths;
  size_t reserve_path_count;
  /// Whether other sockets may listen on the same address and port (SO_REUSEPORT); without
  /// it a port in use fails the start.
  int reuse_port;
  /// Bytes of a body kept; a larger one is read and dropped (the handler is told).
  size_t max_body;
} tessera_server_options;

/// Starts a server. Returns NULL with a message in `error` (of `error_size` bytes).
tessera_server *tessera_server_start(
  const tessera_server_options *options, tessera_request_handler handler, void *context, char *error,
  size_t error_size);

/// The port bound (useful with port 0).
uint16_t tessera_server_port(tessera_server *server);

/// What the server holds and has cut.
typedef struct tessera_server_stats {
  /// Connections open now: ordinary and reserve.
  unsigned open;
  unsigned open_reserve;
  /// Connections in the middle of a request: receiving its body, waiting for its answer or
  /// sending it.
  unsigned busy;
  /// Connections closed at the deadline of their head, body or answer.
  uint64_t head_deadlines;
  uint64_t body_deadlines;
  uint64_t send_deadlines;
  /// Reserve connections closed early to make room (the reserve was full and they had not
  /// sent their head).
  uint64_t reserve_evictions;
} tessera_server_stats;

void tessera_server_get_stats(tessera_server *server, tessera_server_stats *stats);

/// Stops taking connections: from now on each new one is closed as it is accepted (those open
/// are finished by tessera_server_stop, which also closes the listening socket).
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
/// `head_only` is kept for callers that know). Headers libmicrohttpd refuses (a name that is
/// not a token, a value with CR or LF) are left out.
void tessera_server_respond(
  tessera_request *request, unsigned status, const char *const *header_names, const char *const *header_values,
  size_t header_count, const uint8_t *body, size_t body_length, int head_only);
