#ifndef CSQLITE_SHIM_H
#define CSQLITE_SHIM_H
#include <sqlite3.h>

/// sqlite3_db_config is variadic, which Swift cannot call: these wrap the calls Vellum needs.
/// Turns user triggers on or off for one connection; returns an SQLite result code.
int vellum_sqlite_enable_triggers(sqlite3 *db, int enabled);
/// Keeps the connection from checkpointing the WAL into the main file when it closes
/// (read-only use changes neither file); returns an SQLite result code.
int vellum_sqlite_disable_checkpoint_on_close(sqlite3 *db);
/// Turns off SQLite's memory statistics for the process (before any connection opens):
/// with them on, every allocation SQLite makes takes a global mutex. Returns a result code.
int vellum_sqlite_disable_memory_statistics(void);
#endif
