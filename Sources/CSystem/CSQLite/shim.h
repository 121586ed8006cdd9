// The C headers of SQLite as Tessera imports them.
#pragma once
#include <sqlite3.h>
