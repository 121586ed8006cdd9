// The C headers of JPEG as Tessera imports them.
#pragma once
#include <stdio.h>
#include <jpeglib.h>
