#include <sqlite3.h>

/* `sqlite3_db_config` is variadic, which Swift cannot call; this wraps the one use Reckon has.
   Turns off SQLite's legacy reading of a double-quoted word that names no column as a string
   literal in queries, so `WHERE status = "active"` with a mistyped column fails to prepare
   instead of comparing with the text. Schema statements (DDL) keep the legacy reading, so
   existing databases whose schema relies on it still open. */
static inline int reckon_sqlite3_refuse_double_quoted_strings(sqlite3 *db) {
  return sqlite3_db_config(db, SQLITE_DBCONFIG_DQS_DML, 0, (int *)0);
}
