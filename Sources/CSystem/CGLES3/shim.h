// The C headers of GLES3 as Tessera imports them.
#pragma once
#include <GLES3/gl32.h>
#include <GLES2/gl2ext.h>
