// libpq's declarations only: the library itself is opened at run time (LibPQ.swift), so that
// feedpull neither loads it at every start nor needs it installed to run without PostgreSQL.
// Debian's libpq-dev puts the header in a directory of its own; its own includes are relative.
#include <postgresql/libpq-fe.h>
