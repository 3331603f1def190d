#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: these wrap the calls Vellum needs.
/// Turns user triggers on or off for one connection; returns an SQLite result code.
int vellum_sqlite_enable_triggers(sqlite3 *db, int enabled);
#endif
