// The C headers of WebP as Tessera imports them.
#pragma once
#include <webp/decode.h>
#include <webp/encode.h>
