#include <sqlite3.h>

/* `sqlite3_db_config` is variadic, which Swift cannot call; this wraps the one use Reckon has.
   Turns off SQLite's legacy reading of a double-quoted word that names no column as a string
   literal in queries, so `WHERE status = "active"` with a mistyped column fails to prepare
   instead of comparing with the text. Schema statements (DDL) keep the legacy reading, so
   existing databases whose schema relies on it still open. */
static inline int reckon_sqlite3_refuse_double_quoted_strings(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
}

/* `sqlite3_config` is variadic too. Turns off SQLite's memory statistics, which take one
   process-wide mutex on every allocation: connections read side by side on several threads
   (a dry-run's scans) then queue for it. Reckon reads none of those statistics. Must run
   before SQLite initializes, so before the first connection opens. */
static inline int reckon_sqlite3_skip_memory_statistics(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
