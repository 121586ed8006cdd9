// The C headers of libmicrohttpd as Tessera imports them.
#pragma once
#include <stdarg.h>
#include <stdint.h>
#include <sys/socket.h>
#include <microhttpd.h>
