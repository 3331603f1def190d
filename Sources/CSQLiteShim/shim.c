#include "csqlite_shim.h"

int vellum_sqlite_enable_triggers(sqlite3 *db, int enabled) {
    int now = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &now);
}
