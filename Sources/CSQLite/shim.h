#include <sqlite3.h>

/// SQLITE_TRANSIENT is a cast macro Swift cannot import: bound text is copied by SQLite.
static inline sqlite3_destructor_type feedpull_sqlite_transient(void) { return SQLITE_TRANSIENT; }
