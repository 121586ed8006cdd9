// The signals `tessera serve` answers (SIGTERM, SIGINT, SIGHUP), caught by a handler that only
// writes the signal's number to a pipe and keeps errno: async-signal-safe, in C so that no
// language runtime runs inside the handler. The service reads the pipe.
#pragma once

/// Makes the pipe (both ends close-on-exec, the write end non-blocking) and installs the
/// handlers; returns the read end, or -1 with errno set (EBUSY when they are installed
/// already: one reader per process).
int tessera_signals_install(void);
