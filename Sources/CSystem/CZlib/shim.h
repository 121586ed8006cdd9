// The C headers of Zlib as Tessera imports them.
#pragma once
#include <zlib.h>
