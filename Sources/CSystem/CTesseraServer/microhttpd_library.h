// libmicrohttpd, loaded when the first server starts rather than at start-up: with GnuTLS and
// its libraries it is some ten shared objects, which every process (most never serve) would
// otherwise load and search when it resolves symbols, EGL's driver among them. Include after
// <microhttpd.h>: the MHD_ names used below then call through the loaded library.
#pragma once
#include <dlfcn.h>
#include <pthread.h>
#include <stdio.h>

#define TESSERA_MHD_FUNCTIONS(X)                                                                         \
  X(add_response_header) X(create_response_from_buffer) X(destroy_response) X(get_connection_info)      \
  X(get_connection_values) X(get_daemon_info) X(lookup_connection_value) X(queue_response)              \
  X(resume_connection) X(start_daemon) X(stop_daemon) X(suspend_connection)

static struct {
#define TESSERA_MHD_SLOT(name) __typeof__(&MHD_##name) name;
  TESSERA_MHD_FUNCTIONS(TESSERA_MHD_SLOT)
#undef TESSERA_MHD_SLOT
} microhttpd;

/// Why libmicrohttpd could not be loaded (empty when it was).
static char microhttpd_error[256];
static pthread_once_t microhttpd_once = PTHREAD_ONCE_INIT;

static void load_microhttpd_once(void) {
  void *library = dlopen("libmicrohttpd.so.12", RTLD_NOW | RTLD_LOCAL);
  if (!library) {
    snprintf(microhttpd_error, sizeof microhttpd_error, "libmicrohttpd could not be loaded: %s", dlerror());
    return;
  }
#define TESSERA_MHD_LOOKUP(name)                                                                          \
  if (!(microhttpd.name = (__typeof__(microhttpd.name))dlsym(library, "MHD_" #name))) {                 \
    snprintf(microhttpd_error, sizeof microhttpd_error, "libmicrohttpd.so.12 has no MHD_" #name);       \
    return;                                                                                               \
  }
  TESSERA_MHD_FUNCTIONS(TESSERA_MHD_LOOKUP)
#undef TESSERA_MHD_LOOKUP
}

/// Loads libmicrohttpd once per process; returns NULL, or why it could not be loaded.
static const char *load_microhttpd(void) {
  pthread_once(&microhttpd_once, load_microhttpd_once);
  return microhttpd_error[0] ? microhttpd_error : NULL;
}

#define MHD_add_response_header (*microhttpd.add_response_header)
#define MHD_create_response_from_buffer (*microhttpd.create_response_from_buffer)
#define MHD_destroy_response (*microhttpd.destroy_response)
#define MHD_get_connection_info (*microhttpd.get_connection_info)
#define MHD_get_connection_values (*microhttpd.get_connection_values)
#define MHD_get_daemon_info (*microhttpd.get_daemon_info)
#define MHD_lookup_connection_value (*microhttpd.lookup_connection_value)
#define MHD_queue_response (*microhttpd.queue_response)
#define MHD_resume_connection (*microhttpd.resume_connection)
#define MHD_start_daemon (*microhttpd.start_daemon)
#define MHD_stop_daemon (*microhttpd.stop_daemon)
#define MHD_suspend_connection (*microhttpd.suspend_connection)
