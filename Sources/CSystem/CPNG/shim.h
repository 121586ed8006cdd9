// The C headers of PNG as Tessera imports them.
#pragma once
#include <png.h>
