// The C headers of GBM as Tessera imports them.
#pragma once
#include <gbm.h>
#include <fcntl.h>
#include <unistd.h>
