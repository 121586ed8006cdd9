// The C headers of EGL as Tessera imports them.
#pragma once
#include <EGL/egl.h>
#include <EGL/eglext.h>
