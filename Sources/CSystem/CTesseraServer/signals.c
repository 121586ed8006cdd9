#define _GNU_SOURCE
#include "tessera_signals.h"

#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <unistd.h>

/// The pipe's write end, set before any handler is installed.
static volatile sig_atomic_t signal_pipe = -1;

/// Writes the signal's number to the pipe. A full pipe drops it: the reader has stops and
/// reloads enough already.
static void write_signal(int number) {
  int saved = errno;
  unsigned char byte = (unsigned char)number;
  ssize_t written = write(signal_pipe, &byte, 1);
  (void)written;
  errno = saved;
}

int tessera_signals_install(void) {
  if (signal_pipe >= 0) {
    errno = EBUSY;
    return -1;
  }
  int ends[2];
  if (pipe2(ends, O_CLOEXEC) != 0) return -1;
  int flags = fcntl(ends[1], F_GETFL);
  if (flags < 0 || fcntl(ends[1], F_SETFL, flags | O_NONBLOCK) != 0) {
    int saved = errno;
    close(ends[0]);
    close(ends[1]);
    errno = saved;
    return -1;
  }
  signal_pipe = ends[1];
  struct sigaction action = {0};
  action.sa_handler = write_signal;
  sigemptyset(&action.sa_mask);
  action.sa_flags = SA_RESTART;
  const int answered[] = {SIGTERM, SIGINT, SIGHUP};
  for (unsigned i = 0; i < sizeof answered / sizeof answered[0]; i++) sigaction(answered[i], &action, NULL);
  return ends[0];
}
