#include "csqlite_shim.h"

int vellum_sqlite_enable_triggers(sqlite3 *db, int enabled) {
    int now = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_ENABLE_TRIGGER, enabled, &now);
}

int vellum_sqlite_disable_memory_statistics(void) {
    return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}

int vellum_sqlite_disable_checkpoint_on_close(sqlite3 *db) {
    int now = 0;
    return sqlite3_db_config(db, SQLITE_DBCONFIG_NO_CKPT_ON_CLOSE, 1, &now);
}
