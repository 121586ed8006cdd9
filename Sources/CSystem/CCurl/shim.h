// The C headers of libcurl as Tessera imports them.
#pragma once
#include <curl/curl.h>
