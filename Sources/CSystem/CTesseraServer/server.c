#include "tessera_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <strings.h>
#include <sys/socket.h>
#include <time.h>
#include <unistd.h>
#include <microhttpd.h>

#include "microhttpd_library.h"

/// Where a connection is: waiting for a request's head, receiving its body, waiting for the
/// handler's answer (no deadline), or sending the answer.
enum phase { AWAITING_HEAD, RECEIVING_BODY, AWAITING_ANSWER, SENDING };

/// A connection as the deadline sweeper sees it. In the server's list from libmicrohttpd's
/// STARTED notification to its CLOSED one; libmicrohttpd closes the socket only after CLOSED
/// (daemon.c, MHD_cleanup_connections and new_connection_process_), so while an entry is in
/// the list (under the server's lock) its descriptor is this connection's and shutting it
/// down cannot hit a socket that reused the number.
struct tracked {
  struct tracked *prev;
  struct tracked *next;
  int fd;
  int reserve;
  int cut;
  enum phase phase;
  /// Monotonic milliseconds; 0: none.
  uint64_t deadline;
};

struct tessera_server {
  struct MHD_Daemon *daemon;
  tessera_request_handler handler;
  void *context;
  size_t max_body;
  unsigned connection_limit;
  unsigned reserve_limit;
  uint64_t head_ms;
  uint64_t body_ms;
  uint64_t send_ms;
  uint64_t reserve_head_ms;
  char **reserve_paths;
  size_t reserve_path_count;

  pthread_mutex_t lock;
  struct tracked *connections;
  /// Requests handed to the handler and not answered yet (each holds a reference): answered
  /// 503 when the server stops, since libmicrohttpd cannot stop with a connection suspended.
  struct tessera_request *pending;
  unsigned open;
  unsigned open_reserve;
  uint64_t deadlines[4];
  uint64_t evictions;

  pthread_t sweeper;
  pthread_cond_t wake;
  int sweeping;
  /// Set (under the lock) when the server stops: the sweeper ends and no request is
  /// suspended any more (each is answered 503 at once).
  int stopping;
  /// Set (under the lock) once the server takes no new connections (tessera_server_quiesce).
  int refusing;

  /// The first message libmicrohttpd logs while starting (why it could not).
  int starting;
  char start_error[256];
};

enum request_state { RECEIVING, HANDLING, ANSWERED };

struct tessera_request {
  tessera_server *server;
  /// Holders of this state: libmicrohttpd until the connection ends, and the handler from the
  /// call until its answer. Freed when both have let go, so an answer that comes after the
  /// client went away finds it still there (and answers no one).
  int refs;
  int closed;
  int seen;
  /// Why the request is refused from its head (enum tessera_refusal), and whether its
  /// connection closes after the answer (refusals and reserve connections).
  int refusal;
  int close_after;
  size_t target_length;
  char *target;
  struct MHD_Connection *connection;
  pthread_mutex_t lock;
  enum request_state state;
  int suspended;
  uint8_t *body;
  size_t body_length;
  size_t body_capacity;
  int body_too_large;
  struct MHD_Response *response;
  unsigned status;
  /// In the server's pending list (under the server's lock).
  int pending;
  struct tessera_request *pending_prev;
  struct tessera_request *pending_next;
};

static uint64_t now_ms(void) {
  struct timespec time;
  clock_gettime(CLOCK_MONOTONIC, &time);
  return (uint64_t)time.tv_sec * 1000 + (uint64_t)time.tv_nsec / 1000000;
}

static struct tracked *tracked_of(struct MHD_Connection *connection) {
  const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_SOCKET_CONTEXT);
  return info ? info->socket_context : NULL;
}

/// Moves a connection to `phase`, with a deadline `timeout` milliseconds from now (0: none).
static void enter_phase(tessera_server *server, struct MHD_Connection *connection, enum phase phase, uint64_t timeout) {
  struct tracked *entry = tracked_of(connection);
  if (!entry) return;
  pthread_mutex_lock(&server->lock);
  entry->phase = phase;
  entry->deadline = timeout ? now_ms() + timeout : 0;
  pthread_mutex_unlock(&server->lock);
}

/// Keeps the reserve for requests that come at once: past its size, the reserve connection
/// that has waited longest for its head (else the newest) is closed now rather than at its
/// deadline. Connections queued in the listen backlog ahead of a probe then pass through in the
/// time it takes to accept them, not a head deadline per reserve's worth. Called with the lock
/// held, after the newest reserve connection joined the list (newest first).
static void evict_locked(tessera_server *server) {
  unsigned live = 0;
  struct tracked *oldest = NULL;
  for (struct tracked *entry = server->connections; entry; entry = entry->next) {
    if (!entry->reserve || entry->cut) continue;
    live += 1;
    if (entry->phase == AWAITING_HEAD) oldest = entry;
  }
  if (live <= server->reserve_limit || !oldest) return;
  shutdown(oldest->fd, SHUT_RDWR);
  oldest->cut = 1;
  server->evictions += 1;
}

/// The accept policy: every connection until the server quiesces, none after.
static enum MHD_Result accept_policy(void *cls, const struct sockaddr *address, socklen_t length) {
  (void)address;
  (void)length;
  tessera_server *server = cls;
  pthread_mutex_lock(&server->lock);
  int refusing = server->refusing;
  pthread_mutex_unlock(&server->lock);
  return refusing ? MHD_NO : MHD_YES;
}

static void notify_connection(
  void *cls, struct MHD_Connection *connection, void **socket_context, enum MHD_ConnectionNotificationCode code) {
  tessera_server *server = cls;
  if (code == MHD_CONNECTION_NOTIFY_STARTED) {
    const union MHD_ConnectionInfo *info = MHD_get_connection_info(connection, MHD_CONNECTION_INFO_CONNECTION_FD);
    struct tracked *entry = calloc(1, sizeof *entry);
    if (!entry || !info) {
      // A connection without a deadline is not kept: closing its socket's both directions
      // makes libmicrohttpd drop it at once.
      free(entry);
      if (info) shutdown(info->connect_fd, SHUT_RDWR);
      *socket_context = NULL;
      return;
    }
    entry->fd = info->connect_fd;
    entry->phase = AWAITING_HEAD;
    pthread_mutex_lock(&server->lock);
    entry->reserve = server->open >= server->connection_limit;
    uint64_t timeout = entry->reserve ? server->reserve_head_ms : server->head_ms;
    entry->deadline = timeout ? now_ms() + timeout : 0;
    if (entry->reserve) {
      server->open_reserve += 1;
    } else {
      server->open += 1;
    }
    entry->next = server->connections;
    if (server->connections) server->connections->prev = entry;
    server->connections = entry;
    if (entry->reserve) evict_locked(server);
    pthread_mutex_unlock(&server->lock);
    *socket_context = entry;
  } else if (code == MHD_CONNECTION_NOTIFY_CLOSED) {
    struct tracked *entry = *socket_context;
    if (!entry) return;
    pthread_mutex_lock(&server->lock);
    if (entry->prev) {
      entry->prev->next = entry->next;
    } else {
      server->connections = entry->next;
    }
    if (entry->next) entry->next->prev = entry->prev;
    if (entry->reserve) {
      server->open_reserve -= 1;
    } else {
      server->open -= 1;
    }
    pthread_mutex_unlock(&server->lock);
    free(entry);
    *socket_context = NULL;
  }
}

/// Every quarter second: closes (both directions of the socket; libmicrohttpd then sees the
/// end and drops the connection) each connection past its deadline.
static void *sweep(void *cls) {
  tessera_server *server = cls;
  pthread_mutex_lock(&server->lock);
  while (!server->stopping) {
    uint64_t now = now_ms();
    for (struct tracked *entry = server->connections; entry; entry = entry->next) {
      if (entry->cut || !entry->deadline || entry->phase == AWAITING_ANSWER || now < entry->deadline) continue;
      shutdown(entry->fd, SHUT_RDWR);
      entry->cut = 1;
      server->deadlines[entry->phase] += 1;
    }
    struct timespec until;
    clock_gettime(CLOCK_MONOTONIC, &until);
    until.tv_nsec += 250 * 1000000L;
    if (until.tv_nsec >= 1000000000L) {
      until.tv_sec += 1;
      until.tv_nsec -= 1000000000L;
    }
    pthread_cond_timedwait(&server->wake, &server->lock, &until);
  }
  pthread_mutex_unlock(&server->lock);
  return NULL;
}

struct arguments {
  const char **keys;
  const char **values;
  size_t count;
  size_t capacity;
  size_t length;
};

static enum MHD_Result collect_argument(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  struct arguments *args = cls;
  if (args->count == args->capacity) {
    size_t capacity = args->capacity ? args->capacity * 2 : 16;
    const char **keys = realloc(args->keys, capacity * sizeof *keys);
    const char **values = realloc(args->values, capacity * sizeof *values);
    if (!keys || !values) {
      free(keys ? keys : args->keys);
      free(values ? values : args->values);
      args->keys = NULL;
      args->values = NULL;
      args->count = args->capacity = 0;
      return MHD_NO;
    }
    args->keys = keys;
    args->values = values;
    args->capacity = capacity;
  }
  args->keys[args->count] = key;
  args->values[args->count] = value ? value : "";
  args->count += 1;
  args->length += strlen(key) + 2 + (value ? strlen(value) : 0);
  return MHD_YES;
}

/// The headers that frame a body, as sent (every occurrence).
struct framing {
  unsigned content_lengths;
  unsigned transfer_encodings;
  int chunked;
  const char *content_length;
  int expects_continue;
};

static enum MHD_Result collect_framing(void *cls, enum MHD_ValueKind kind, const char *key, const char *value) {
  (void)kind;
  struct framing *framing = cls;
  if (!key) return MHD_YES;
  if (strcasecmp(key, MHD_HTTP_HEADER_CONTENT_LENGTH) == 0) {
    framing->content_lengths += 1;
    framing->content_length = value;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_TRANSFER_ENCODING) == 0) {
    framing->transfer_encodings += 1;
    framing->chunked = value && strcasecmp(value, "chunked") == 0;
  } else if (strcasecmp(key, MHD_HTTP_HEADER_EXPECT) == 0) {
    framing->expects_continue = value && strcasecmp(value, "100-continue") == 0;
  }
  return MHD_YES;
}

/// Why a request is refused from its head alone, or TESSERA_REFUSAL_NONE.
static int refusal_of(tessera_server *server, struct MHD_Connection *connection, const char *url) {
  struct framing framing = {0};
  MHD_get_connection_values(connection, MHD_HEADER_KIND, collect_framing, &framing);
  // One length, told one way: two Content-Length headers (even equal), or one with
  // Transfer-Encoding, could be read differently by a proxy in front (request smuggling).
  if (framing.content_lengths > 1 || framing.transfer_encodings > 1
      || (framing.content_lengths && framing.transfer_encodings)
      || (framing.transfer_encodings && !framing.chunked)) {
    return TESSERA_REFUSAL_FRAMING;
  }
  if (framing.expects_continue && framing.content_length) {
    // libmicrohttpd has checked that it is all digits.
    unsigned long long length = strtoull(framing.content_length, NULL, 10);
    if (length > server->max_body) return TESSERA_REFUSAL_TOO_LARGE;
  }
  struct tracked *entry = tracked_of(connection);
  if (entry && entry->reserve) {
    for (size_t i = 0; i < server->reserve_path_count; i++) {
      if (url && strcmp(url, server->reserve_paths[i]) == 0) return TESSERA_REFUSAL_NONE;
    }
    return TESSERA_REFUSAL_RESERVE;
  }
  return TESSERA_REFUSAL_NONE;
}

/// Takes the pending list's reference off `request` if it is still in the list (called with
/// the request's lock held; the caller holds a reference too, so this is never the last).
static void unlist_locked(tessera_request *request) {
  tessera_server *server = request->server;
  pthread_mutex_lock(&server->lock);
  int listed = request->pending;
  if (listed) {
    if (request->pending_prev) {
      request->pending_prev->pending_next = request->pending_next;
    } else {
      server->pending = request->pending_next;
    }
    if (request->pending_next) request->pending_next->pending_prev = request->pending_prev;
    request->pending = 0;
    request->pending_prev = request->pending_next = NULL;
  }
  pthread_mutex_unlock(&server->lock);
  if (listed) request->refs -= 1;
}

/// Makes `response` the request's answer (called with the request's lock held, for a request
/// not answered yet); returns the connection to resume, if it was suspended.
static struct MHD_Connection *answer_locked(tessera_request *request, struct MHD_Response *response, unsigned status) {
  request->state = ANSWERED;
  request->response = response;
  request->status = status;
  unlist_locked(request);
  int resume = request->suspended;
  request->suspended = 0;
  return resume ? request->connection : NULL;
}

/// A plain answer made here: for a refusal the handler did not answer at once, or (with
/// TESSERA_REFUSAL_NONE) for a request not answered when the server stops.
static struct MHD_Response *fallback_response(int refusal, unsigned *status) {
  static const char framing[] = "the request's Content-Length and Transfer-Encoding headers conflict\n";
  static const char too_large[] = "the body is larger than this server takes\n";
  static const char busy[] = "the server is busy; try again shortly\n";
  static const char stopping[] = "the server is stopping; try again shortly\n";
  const char *text = refusal == TESSERA_REFUSAL_FRAMING     ? framing
                     : refusal == TESSERA_REFUSAL_TOO_LARGE ? too_large
                     : refusal == TESSERA_REFUSAL_RESERVE   ? busy
                                                            : stopping;
  *status = refusal == TESSERA_REFUSAL_FRAMING ? 400 : refusal == TESSERA_REFUSAL_TOO_LARGE ? 413 : 503;
  struct MHD_Response *response = MHD_create_response_from_buffer(strlen(text), (void *)text, MHD_RESPMEM_PERSISTENT);
  if (response) {
    MHD_add_response_header(response, MHD_HTTP_HEADER_CONTENT_TYPE, "text/plain; charset=utf-8");
    if (*status == 503) MHD_add_response_header(response, MHD_HTTP_HEADER_RETRY_AFTER, "1");
  }
  return response;
}

/// Hands the request to the handler (once) and queues its answer when there is one; else
/// suspends the connection until tessera_server_respond. A refusal (`early`: in the call with
/// the head, before the body) must be answered at once; if the handler did not, it is answered
/// here.
static enum MHD_Result dispatch(
  tessera_server *server, tessera_request *request, struct MHD_Connection *connection, const char *url,
  const char *method, int early) {
  pthread_mutex_lock(&request->lock);
  if (request->state == RECEIVING) {
    request->state = HANDLING;
    request->refs += 2;  // the handler's, given back by tessera_server_respond, and the pending list's
    pthread_mutex_lock(&server->lock);
    request->pending = 1;
    request->pending_next = server->pending;
    if (server->pending) server->pending->pending_prev = request;
    server->pending = request;
    pthread_mutex_unlock(&server->lock);
    pthread_mutex_unlock(&request->lock);
    enter_phase(server, connection, AWAITING_ANSWER, 0);
    struct arguments args = {0};
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &args);
    size_t target_length = request->target_length ? request->target_length : strlen(url) + args.length;
    const uint8_t *body = request->refusal ? NULL : request->body;
    server->handler(
      server->context, request, method, url, args.keys, args.values, args.count, target_length,
      request->target ? request->target : url, body, body ? request->body_length : 0,
      request->refusal ? 0 : request->body_too_large, request->refusal);
    free(args.keys);
    free(args.values);
    pthread_mutex_lock(&request->lock);
  }
  pthread_mutex_lock(&server->lock);
  int stopping = server->stopping;
  pthread_mutex_unlock(&server->lock);
  if ((early || stopping) && request->state == HANDLING) {
    // The handler answers later, but the body must not be read (or the server is stopping
    // and must not suspend): answer here (its answer will find the request answered and be
    // dropped).
    unsigned status = 503;
    struct MHD_Response *response = fallback_response(request->refusal, &status);
    if (response) answer_locked(request, response, status);
  }
  enum MHD_Result result = MHD_YES;
  int sending = 0;
  if (request->state == ANSWERED && request->response) {
    struct MHD_Response *response = request->response;
    request->response = NULL;
    if (request->close_after) MHD_add_response_header(response, MHD_HTTP_HEADER_CONNECTION, "close");
    result = MHD_queue_response(connection, request->status, response);
    MHD_destroy_response(response);
    sending = 1;
  } else if (request->state == HANDLING && !request->suspended && !early && !stopping) {
    // Answered later, from another thread: wait without polling.
    request->suspended = 1;
    MHD_suspend_connection(connection);
  } else if ((early || stopping) && request->state == HANDLING) {
    result = MHD_NO;  // out of memory for even a fallback answer: drop the connection
  }
  pthread_mutex_unlock(&request->lock);
  if (sending) enter_phase(server, connection, SENDING, server->send_ms);
  return result;
}

static enum MHD_Result access_handler(
  void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
  const char *upload_data, size_t *upload_data_size, void **con_cls) {
  (void)version;
  tessera_server *server = cls;
  tessera_request *request = *con_cls;
  if (!request) return MHD_NO;
  if (!request->seen) {
    // The first call has the head; the body (if any) follows in later calls.
    request->seen = 1;
    request->server = server;
    request->connection = connection;
    struct tracked *entry = tracked_of(connection);
    request->close_after = entry && entry->reserve;
    request->refusal = refusal_of(server, connection, url);
    if (request->refusal != TESSERA_REFUSAL_NONE) {
      // Answered before the body: libmicrohttpd then reads no body (and sends no
      // `100 Continue`) and closes the connection after the answer.
      request->close_after = 1;
      return dispatch(server, request, connection, url, method, 1);
    }
    enter_phase(server, connection, RECEIVING_BODY, server->body_ms);
    return MHD_YES;
  }
  if (request->state == RECEIVING && *upload_data_size > 0) {
    size_t size = *upload_data_size;
    if (!request->body_too_large) {
      if (request->body_length + size > server->max_body) {
        request->body_too_large = 1;
      } else {
        if (request->body_length + size > request->body_capacity) {
          size_t capacity = request->body_capacity ? request->body_capacity : 4096;
          while (capacity < request->body_length + size) capacity *= 2;
          uint8_t *grown = realloc(request->body, capacity);
          if (!grown) return MHD_NO;
          request->body = grown;
          request->body_capacity = capacity;
        }
        memcpy(request->body + request->body_length, upload_data, size);
        request->body_length += size;
      }
    }
    *upload_data_size = 0;
    return MHD_YES;
  }
  return dispatch(server, request, connection, url, method, 0);
}

/// Called with the request target as sent (path and query, not decoded), before parsing:
/// makes the request's state and keeps the target's length.
static void *uri_logger(void *cls, const char *uri, struct MHD_Connection *connection) {
  (void)cls;
  (void)connection;
  tessera_request *request = calloc(1, sizeof *request);
  if (!request) return NULL;
  pthread_mutex_init(&request->lock, NULL);
  request->refs = 1;
  request->target_length = uri ? strlen(uri) : 0;
  request->target = uri ? strdup(uri) : NULL;
  return request;
}

static void release(tessera_request *request) {
  // Called with the lock held; unlocks it.
  request->refs -= 1;
  int last = request->refs == 0;
  pthread_mutex_unlock(&request->lock);
  if (!last) return;
  if (request->response) MHD_destroy_response(request->response);
  pthread_mutex_destroy(&request->lock);
  free(request->target);
  free(request->body);
  free(request);
}

static void request_completed(
  void *cls, struct MHD_Connection *connection, void **con_cls, enum MHD_RequestTerminationCode code) {
  (void)code;
  tessera_server *server = cls;
  // The next request's head is due within the head deadline (this also bounds the time a
  // kept-alive connection may sit idle).
  struct tracked *entry = connection ? tracked_of(connection) : NULL;
  if (entry) {
    enter_phase(server, connection, AWAITING_HEAD, entry->reserve ? server->reserve_head_ms : server->head_ms);
  }
  tessera_request *request = *con_cls;
  if (!request) return;
  *con_cls = NULL;
  pthread_mutex_lock(&request->lock);
  request->closed = 1;
  request->connection = NULL;
  release(request);
}

static void log_message(void *cls, const char *format, va_list arguments) {
  tessera_server *server = cls;
  // Only why a start failed is kept; later messages (a client over its cap, …) are dropped.
  if (!__atomic_load_n(&server->starting, __ATOMIC_ACQUIRE) || server->start_error[0]) return;
  vsnprintf(server->start_error, sizeof server->start_error, format, arguments);
  size_t length = strlen(server->start_error);
  while (length > 0 && (server->start_error[length - 1] == '\n' || server->start_error[length - 1] == '.')) {
    server->start_error[--length] = 0;
  }
}

static void free_server(tessera_server *server) {
  for (size_t i = 0; i < server->reserve_path_count; i++) free(server->reserve_paths[i]);
  free(server->reserve_paths);
  pthread_cond_destroy(&server->wake);
  pthread_mutex_destroy(&server->lock);
  free(server);
}

tessera_server *tessera_server_start(
  const tessera_server_options *options, tessera_request_handler handler, void *context, char *error,
  size_t error_size) {
  const char *unloadable = load_microhttpd();
  if (unloadable) {
    snprintf(error, error_size, "%s", unloadable);
    return NULL;
  }
  struct sockaddr_storage address;
  memset(&address, 0, sizeof address);
  unsigned flags =
    MHD_USE_INTERNAL_POLLING_THREAD | MHD_USE_EPOLL | MHD_ALLOW_SUSPEND_RESUME | MHD_USE_ITC | MHD_USE_ERROR_LOG;
  struct sockaddr_in *v4 = (struct sockaddr_in *)&address;
  struct sockaddr_in6 *v6 = (struct sockaddr_in6 *)&address;
  const char *host = options->host;
  if (inet_pton(AF_INET, host, &v4->sin_addr) == 1) {
    v4->sin_family = AF_INET;
    v4->sin_port = htons(options->port);
  } else if (inet_pton(AF_INET6, host, &v6->sin6_addr) == 1) {
    v6->sin6_family = AF_INET6;
    v6->sin6_port = htons(options->port);
    flags |= MHD_USE_IPv6;
  } else {
    snprintf(error, error_size, "'%s' is not an IPv4 or IPv6 address", host);
    return NULL;
  }
  tessera_server *server = calloc(1, sizeof *server);
  if (!server) {
    snprintf(error, error_size, "out of memory");
    return NULL;
  }
  server->handler = handler;
  server->context = context;
  server->max_body = options->max_body;
  server->connection_limit = options->connection_limit ? options->connection_limit : 1;
  server->reserve_limit = options->reserve_connections;
  server->head_ms = options->head_timeout_ms;
  server->body_ms = options->body_timeout_ms;
  server->send_ms = options->send_timeout_ms;
  server->reserve_head_ms = options->reserve_head_timeout_ms;
  pthread_mutex_init(&server->lock, NULL);
  pthread_condattr_t attributes;
  pthread_condattr_init(&attributes);
  pthread_condattr_setclock(&attributes, CLOCK_MONOTONIC);
  pthread_cond_init(&server->wake, &attributes);
  pthread_condattr_destroy(&attributes);
  if (options->reserve_path_count) {
    server->reserve_paths = calloc(options->reserve_path_count, sizeof *server->reserve_paths);
    if (!server->reserve_paths) {
      snprintf(error, error_size, "out of memory");
      free_server(server);
      return NULL;
    }
    for (size_t i = 0; i < options->reserve_path_count; i++) {
      server->reserve_paths[i] = strdup(options->reserve_paths[i]);
      server->reserve_path_count += server->reserve_paths[i] != NULL;
    }
  }
  unsigned threads = options->threads ? options->threads : 1;
  unsigned reserve = options->reserve_connections;
  __atomic_store_n(&server->starting, 1, __ATOMIC_RELEASE);
  errno = 0;
  // The logger goes first, so that messages of the start itself reach it. Without
  // MHD_OPTION_LISTENING_ADDRESS_REUSE the socket gets SO_REUSEADDR only (a restart can bind
  // over connections in TIME_WAIT), and a port another socket listens on fails the bind.
  server->daemon = MHD_start_daemon(
    flags, options->port, accept_policy, server, access_handler, server, MHD_OPTION_EXTERNAL_LOGGER, log_message, server,
    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE, threads,
    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)(options->idle_timeout_seconds ? options->idle_timeout_seconds : 1),
    // Room for twice the reserve above the ordinary connections: reserve connections past its
    // size are accepted only to close the one waiting longest for its head (evict_locked).
    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)(server->connection_limit + 2 * reserve),
    MHD_OPTION_PER_IP_CONNECTION_LIMIT, (unsigned int)options->per_client_limit,
    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024), MHD_OPTION_NOTIFY_COMPLETED, request_completed, server,
    MHD_OPTION_NOTIFY_CONNECTION, notify_connection, server, MHD_OPTION_URI_LOG_CALLBACK, uri_logger, NULL,
    options->reuse_port ? MHD_OPTION_LISTENING_ADDRESS_REUSE : MHD_OPTION_END, (unsigned int)1, MHD_OPTION_END);
  int failure = errno;
  __atomic_store_n(&server->starting, 0, __ATOMIC_RELEASE);
  if (!server->daemon) {
    const char *reason = server->start_error[0] ? server->start_error : failure ? strerror(failure) : "in use, or not allowed";
    if (v6->sin6_family == AF_INET6) {
      snprintf(error, error_size, "cannot listen on [%s]:%u: %s", host, (unsigned)options->port, reason);
    } else {
      snprintf(error, error_size, "cannot listen on %s:%u: %s", host, (unsigned)options->port, reason);
    }
    free_server(server);
    return NULL;
  }
  if (pthread_create(&server->sweeper, NULL, sweep, server) != 0) {
    snprintf(error, error_size, "cannot start the deadline thread");
    MHD_stop_daemon(server->daemon);
    free_server(server);
    return NULL;
  }
  server->sweeping = 1;
  return server;
}

uint16_t tessera_server_port(tessera_server *server) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

void tessera_server_get_stats(tessera_server *server, tessera_server_stats *stats) {
  pthread_mutex_lock(&server->lock);
  stats->open = server->open;
  stats->open_reserve = server->open_reserve;
  stats->busy = 0;
  for (struct tracked *entry = server->connections; entry; entry = entry->next) {
    stats->busy += entry->phase == RECEIVING_BODY || entry->phase == AWAITING_ANSWER || entry->phase == SENDING;
  }
  stats->head_deadlines = server->deadlines[AWAITING_HEAD];
  stats->body_deadlines = server->deadlines[RECEIVING_BODY];
  stats->send_deadlines = server->deadlines[SENDING];
  stats->reserve_evictions = server->evictions;
  pthread_mutex_unlock(&server->lock);
}

void tessera_server_quiesce(tessera_server *server) {
  // Not MHD_quiesce_daemon: in 0.9.75 it removes the listening socket from each pool thread's
  // epoll set while that thread may be doing the same (at its connection limit, say), and the
  // loser of the race aborts the process. The accept policy closes new connections instead.
  pthread_mutex_lock(&server->lock);
  server->refusing = 1;
  pthread_mutex_unlock(&server->lock);
}

void tessera_server_stop(tessera_server *server) {
  pthread_mutex_lock(&server->lock);
  server->stopping = 1;
  pthread_cond_signal(&server->wake);
  pthread_mutex_unlock(&server->lock);
  if (server->sweeping) pthread_join(server->sweeper, NULL);
  // libmicrohttpd cannot stop while a connection is suspended: every request still waiting for
  // its answer gets 503 now (the handler's later answer is dropped), and its connection is
  // resumed. From here on no request is suspended (see dispatch).
  for (;;) {
    pthread_mutex_lock(&server->lock);
    tessera_request *request = server->pending;
    if (request) {
      server->pending = request->pending_next;
      if (server->pending) server->pending->pending_prev = NULL;
      request->pending = 0;
      request->pending_prev = request->pending_next = NULL;
    }
    pthread_mutex_unlock(&server->lock);
    if (!request) break;
    pthread_mutex_lock(&request->lock);
    struct MHD_Connection *resume = NULL;
    if (request->state == HANDLING && !request->closed) {
      unsigned status = 503;
      struct MHD_Response *response = fallback_response(TESSERA_REFUSAL_NONE, &status);
      if (response) {
        resume = answer_locked(request, response, status);
      } else if (request->suspended) {
        // No memory for an answer: resume it unanswered (it is then closed).
        request->suspended = 0;
        resume = request->connection;
      }
    }
    release(request);  // the pending list's reference
    if (resume) MHD_resume_connection(resume);
  }
  MHD_stop_daemon(server->daemon);
  free_server(server);
}

const char *tessera_request_header(tessera_request *request, const char *name) {
  pthread_mutex_lock(&request->lock);
  const char *value = request->closed || !request->connection || request->state == ANSWERED
                        ? NULL
                        : MHD_lookup_connection_value(request->connection, MHD_HEADER_KIND, name);
  pthread_mutex_unlock(&request->lock);
  return value;
}

void tessera_request_client(tessera_request *request, char *buffer, size_t size) {
  buffer[0] = 0;
  if (request->closed || !request->connection) return;
  const union MHD_ConnectionInfo *info =
    MHD_get_connection_info(request->connection, MHD_CONNECTION_INFO_CLIENT_ADDRESS);
  if (!info || !info->client_addr) return;
  const struct sockaddr *address = info->client_addr;
  if (address->sa_family == AF_INET) {
    inet_ntop(AF_INET, &((const struct sockaddr_in *)address)->sin_addr, buffer, (socklen_t)size);
  } else if (address->sa_family == AF_INET6) {
    inet_ntop(AF_INET6, &((const struct sockaddr_in6 *)address)->sin6_addr, buffer, (socklen_t)size);
  }
}

void tessera_server_respond(
  tessera_request *request, unsigned status, const char *const *header_names, const char *const *header_values,
  size_t header_count, const uint8_t *body, size_t body_length, int head_only) {
  // libmicrohttpd leaves the body out of answers to HEAD itself (keeping its length).
  (void)head_only;
  struct MHD_Response *response =
    MHD_create_response_from_buffer(body_length, body_length ? (void *)body : (void *)"", MHD_RESPMEM_MUST_COPY);
  if (response) {
    for (size_t i = 0; i < header_count; i++) MHD_add_response_header(response, header_names[i], header_values[i]);
  }
  pthread_mutex_lock(&request->lock);
  if (!response || request->state == ANSWERED || request->closed) {
    // Answered already, the client is gone, or out of memory: nobody to answer. A request
    // whose connection is gone leaves the pending list too (out of memory, it stays there, to
    // be answered when the server stops).
    if (response) MHD_destroy_response(response);
    if (request->closed) unlist_locked(request);
    release(request);
    return;
  }
  struct MHD_Connection *resume = answer_locked(request, response, status);
  // A suspended connection stays open until resumed, so it is safe to resume after unlocking.
  release(request);
  if (resume) MHD_resume_connection(resume);
}
