#ifndef VELLUM_CLIBPQ_H
#define VELLUM_CLIBPQ_H

// libpq's declarations (libpq-dev). The functions are defined in loader.c, which loads
// libpq.so.5 on first use: a SQLite-only session never loads libpq and the twenty-odd
// libraries it needs (Kerberos, LDAP, TLS), and a machine without libpq still runs
// everything but PostgreSQL.
#include <postgresql/libpq-fe.h>

/// Loads libpq if it is not loaded yet: NULL once loaded, else why it could not be
/// (dlerror's message), for an error that names the library.
const char *vellum_libpq_load_error(void);

#endif
