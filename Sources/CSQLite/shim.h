#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text is copied by SQLite.
static inline sqlite3_destructor_type feedpull_sqlite_transient(void) { return SQLITE_TRANSIENT; }

/// SQLite's memory statistics off, process-wide (sqlite3_config is variadic: Swift cannot call
/// it). Every allocation then skips a global mutex and a malloc_usable_size. Only before SQLite
/// is initialized (the first open); later it returns SQLITE_MISUSE and changes nothing.
static inline int feedpull_sqlite_memstatus_off(void) {
  return sqlite3_config(SQLITE_CONFIG_MEMSTATUS, 0);
}
