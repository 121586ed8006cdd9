#include "tessera_server.h"

#include <arpa/inet.h>
#include <errno.h>
#include <netinet/in.h>
#include <pthread.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/socket.h>
#include <unistd.h>
#include <microhttpd.h>

struct tessera_server {
  struct MHD_Daemon *daemon;
  tessera_request_handler handler;
  void *context;
  size_t max_body;
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
};

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

static enum MHD_Result access_handler(
  void *cls, struct MHD_Connection *connection, const char *url, const char *method, const char *version,
  const char *upload_data, size_t *upload_data_size, void **con_cls) {
  (void)version;
  tessera_server *server = cls;
  tessera_request *request = *con_cls;
  if (!request) return MHD_NO;
  if (!request->seen) {
    // The first call has the headers; the body (if any) follows in later calls.
    request->seen = 1;
    request->server = server;
    request->connection = connection;
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
  pthread_mutex_lock(&request->lock);
  if (request->state == RECEIVING) {
    request->state = HANDLING;
    request->refs += 1;  // the handler's, given back by tessera_server_respond
    pthread_mutex_unlock(&request->lock);
    struct arguments args = {0};
    MHD_get_connection_values(connection, MHD_GET_ARGUMENT_KIND, collect_argument, &args);
    size_t target_length = request->target_length ? request->target_length : strlen(url) + args.length;
    server->handler(
      server->context, request, method, url, args.keys, args.values, args.count, target_length,
      request->target ? request->target : url, request->body, request->body_length, request->body_too_large);
    free(args.keys);
    free(args.values);
    pthread_mutex_lock(&request->lock);
  }
  enum MHD_Result result = MHD_YES;
  if (request->state == ANSWERED && request->response) {
    struct MHD_Response *response = request->response;
    request->response = NULL;
    result = MHD_queue_response(connection, request->status, response);
    MHD_destroy_response(response);
  } else if (request->state == HANDLING && !request->suspended) {
    // Answered later, from another thread: wait without polling.
    request->suspended = 1;
    MHD_suspend_connection(connection);
  }
  pthread_mutex_unlock(&request->lock);
  return result;
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
  (void)cls;
  (void)connection;
  (void)code;
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

tessera_server *tessera_server_start(
  const tessera_server_options *options, tessera_request_handler handler, void *context, char *error,
  size_t error_size) {
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
  unsigned threads = options->threads ? options->threads : 1;
  __atomic_store_n(&server->starting, 1, __ATOMIC_RELEASE);
  errno = 0;
  // The logger goes first, so that messages of the start itself reach it. Without
  // MHD_OPTION_LISTENING_ADDRESS_REUSE the socket gets SO_REUSEADDR only (a restart can bind
  // over connections in TIME_WAIT), and a port another socket listens on fails the bind.
  server->daemon = MHD_start_daemon(
    flags, options->port, NULL, NULL, access_handler, server, MHD_OPTION_EXTERNAL_LOGGER, log_message, server,
    MHD_OPTION_SOCK_ADDR, (struct sockaddr *)&address, MHD_OPTION_THREAD_POOL_SIZE, threads,
    MHD_OPTION_CONNECTION_TIMEOUT, (unsigned int)(options->idle_timeout_seconds ? options->idle_timeout_seconds : 1),
    MHD_OPTION_CONNECTION_LIMIT, (unsigned int)(options->connection_limit ? options->connection_limit : 1),
    MHD_OPTION_CONNECTION_MEMORY_LIMIT, (size_t)(128 * 1024), MHD_OPTION_NOTIFY_COMPLETED, request_completed, NULL,
    MHD_OPTION_URI_LOG_CALLBACK, uri_logger, NULL,
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
    free(server);
    return NULL;
  }
  return server;
}

uint16_t tessera_server_port(tessera_server *server) {
  const union MHD_DaemonInfo *info = MHD_get_daemon_info(server->daemon, MHD_DAEMON_INFO_BIND_PORT);
  return info ? info->port : 0;
}

void tessera_server_quiesce(tessera_server *server) {
  // The daemon hands the listening socket back; closing it refuses new connections at once
  // (rather than leaving them waiting in the backlog).
  MHD_socket listening = MHD_quiesce_daemon(server->daemon);
  if (listening != MHD_INVALID_SOCKET) close(listening);
}

void tessera_server_stop(tessera_server *server) {
  MHD_stop_daemon(server->daemon);
  free(server);
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
    // Answered already, the client is gone, or out of memory: nobody to answer.
    if (response) MHD_destroy_response(response);
    release(request);
    return;
  }
  request->state = ANSWERED;
  request->response = response;
  request->status = status;
  int resume = request->suspended;
  request->suspended = 0;
  struct MHD_Connection *connection = request->connection;
  // A suspended connection stays open until resumed, so it is safe to resume after unlocking.
  release(request);
  if (resume && connection) MHD_resume_connection(connection);
}
