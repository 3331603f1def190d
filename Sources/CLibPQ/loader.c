// libpq, loaded on first use (see clibpq.h). Every function Vellum calls is defined here
// with libpq's own prototype and calls through a table filled once (pthread_once) from
// dlopen("libpq.so.5"). Without libpq the connecting call fails (PQconnectdb gives NULL and
// vellum_libpq_load_error says why); the others are never reached then, and give their
// "nothing" values.
#include "clibpq.h"

#include <dlfcn.h>
#include <pthread.h>
#include <stddef.h>
#include <stdio.h>

static const char vellum_libpq_message[] = "libpq is not loaded";
static pthread_once_t vellum_libpq_once = PTHREAD_ONCE_INIT;
static const char *vellum_libpq_error;
static char vellum_libpq_why[512];

static struct {
    PGresult * (*PQexecParams)(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat);
    void (*PQclear)(PGresult *res);
    char * (*PQerrorMessage)(const PGconn *conn);
    int (*PQcancel)(PGcancel *cancel, char *errbuf, int errbufsize);
    ConnStatusType (*PQstatus)(const PGconn *conn);
    void (*PQfinish)(PGconn *conn);
    ExecStatusType (*PQresultStatus)(const PGresult *res);
    int (*PQntuples)(const PGresult *res);
    char * (*PQgetvalue)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetlength)(const PGresult *res, int tup_num, int field_num);
    int (*PQgetisnull)(const PGresult *res, int tup_num, int field_num);
    PGcancel * (*PQgetCancel)(PGconn *conn);
    Oid (*PQftype)(const PGresult *res, int field_num);
    void (*PQfreeCancel)(PGcancel *cancel);
    PGresult * (*PQexec)(PGconn *conn, const char *query);
    PGconn * (*PQconnectdb)(const char *conninfo);
    PGTransactionStatusType (*PQtransactionStatus)(const PGconn *conn);
    int (*PQsocket)(const PGconn *conn);
    PQnoticeProcessor (*PQsetNoticeProcessor)(PGconn *conn, PQnoticeProcessor proc, void *arg);
    char * (*PQresultErrorMessage)(const PGresult *res);
    char * (*PQresultErrorField)(const PGresult *res, int fieldcode);
    void (*PQreset)(PGconn *conn);
    PGnotify * (*PQnotifies)(PGconn *conn);
    int (*PQnfields)(const PGresult *res);
    void (*PQfreemem)(void *ptr);
    char * (*PQfname)(const PGresult *res, int field_num);
    int (*PQfformat)(const PGresult *res, int field_num);
    int (*PQconsumeInput)(PGconn *conn);
    char * (*PQcmdTuples)(PGresult *res);
    int (*PQbackendPID)(const PGconn *conn);
} vellum_libpq;

static void vellum_libpq_load(void) {
    void *library = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!library) library = dlopen("libpq.so", RTLD_NOW | RTLD_LOCAL);
    if (!library) {
        const char *why = dlerror();   // its buffer is reused by the next dl call: copied
        snprintf(vellum_libpq_why, sizeof vellum_libpq_why, "%s", why ? why : "libpq.so.5 was not found");
        vellum_libpq_error = vellum_libpq_why;
        return;
    }
    *(void **)&vellum_libpq.PQexecParams = dlsym(library, "PQexecParams");
    *(void **)&vellum_libpq.PQclear = dlsym(library, "PQclear");
    *(void **)&vellum_libpq.PQerrorMessage = dlsym(library, "PQerrorMessage");
    *(void **)&vellum_libpq.PQcancel = dlsym(library, "PQcancel");
    *(void **)&vellum_libpq.PQstatus = dlsym(library, "PQstatus");
    *(void **)&vellum_libpq.PQfinish = dlsym(library, "PQfinish");
    *(void **)&vellum_libpq.PQresultStatus = dlsym(library, "PQresultStatus");
    *(void **)&vellum_libpq.PQntuples = dlsym(library, "PQntuples");
    *(void **)&vellum_libpq.PQgetvalue = dlsym(library, "PQgetvalue");
    *(void **)&vellum_libpq.PQgetlength = dlsym(library, "PQgetlength");
    *(void **)&vellum_libpq.PQgetisnull = dlsym(library, "PQgetisnull");
    *(void **)&vellum_libpq.PQgetCancel = dlsym(library, "PQgetCancel");
    *(void **)&vellum_libpq.PQftype = dlsym(library, "PQftype");
    *(void **)&vellum_libpq.PQfreeCancel = dlsym(library, "PQfreeCancel");
    *(void **)&vellum_libpq.PQexec = dlsym(library, "PQexec");
    *(void **)&vellum_libpq.PQconnectdb = dlsym(library, "PQconnectdb");
    *(void **)&vellum_libpq.PQtransactionStatus = dlsym(library, "PQtransactionStatus");
    *(void **)&vellum_libpq.PQsocket = dlsym(library, "PQsocket");
    *(void **)&vellum_libpq.PQsetNoticeProcessor = dlsym(library, "PQsetNoticeProcessor");
    *(void **)&vellum_libpq.PQresultErrorMessage = dlsym(library, "PQresultErrorMessage");
    *(void **)&vellum_libpq.PQresultErrorField = dlsym(library, "PQresultErrorField");
    *(void **)&vellum_libpq.PQreset = dlsym(library, "PQreset");
    *(void **)&vellum_libpq.PQnotifies = dlsym(library, "PQnotifies");
    *(void **)&vellum_libpq.PQnfields = dlsym(library, "PQnfields");
    *(void **)&vellum_libpq.PQfreemem = dlsym(library, "PQfreemem");
    *(void **)&vellum_libpq.PQfname = dlsym(library, "PQfname");
    *(void **)&vellum_libpq.PQfformat = dlsym(library, "PQfformat");
    *(void **)&vellum_libpq.PQconsumeInput = dlsym(library, "PQconsumeInput");
    *(void **)&vellum_libpq.PQcmdTuples = dlsym(library, "PQcmdTuples");
    *(void **)&vellum_libpq.PQbackendPID = dlsym(library, "PQbackendPID");
    // Every function or none: a libpq too old to have one is reported, not half used.
    if (!vellum_libpq.PQexecParams ||
        !vellum_libpq.PQclear ||
        !vellum_libpq.PQerrorMessage ||
        !vellum_libpq.PQcancel ||
        !vellum_libpq.PQstatus ||
        !vellum_libpq.PQfinish ||
        !vellum_libpq.PQresultStatus ||
        !vellum_libpq.PQntuples ||
        !vellum_libpq.PQgetvalue ||
        !vellum_libpq.PQgetlength ||
        !vellum_libpq.PQgetisnull ||
        !vellum_libpq.PQgetCancel ||
        !vellum_libpq.PQftype ||
        !vellum_libpq.PQfreeCancel ||
        !vellum_libpq.PQexec ||
        !vellum_libpq.PQconnectdb ||
        !vellum_libpq.PQtransactionStatus ||
        !vellum_libpq.PQsocket ||
        !vellum_libpq.PQsetNoticeProcessor ||
        !vellum_libpq.PQresultErrorMessage ||
        !vellum_libpq.PQresultErrorField ||
        !vellum_libpq.PQreset ||
        !vellum_libpq.PQnotifies ||
        !vellum_libpq.PQnfields ||
        !vellum_libpq.PQfreemem ||
        !vellum_libpq.PQfname ||
        !vellum_libpq.PQfformat ||
        !vellum_libpq.PQconsumeInput ||
        !vellum_libpq.PQcmdTuples ||
        !vellum_libpq.PQbackendPID) {
        vellum_libpq_error = "libpq.so.5 lacks a function Vellum needs (a libpq older than PostgreSQL 10?)";
        dlclose(library);
    }
}

const char *vellum_libpq_load_error(void) {
    pthread_once(&vellum_libpq_once, vellum_libpq_load);
    return vellum_libpq_error;
}

PGresult * PQexecParams(PGconn *conn, const char *command, int nParams, const Oid *paramTypes, const char *const *paramValues, const int *paramLengths, const int *paramFormats, int resultFormat) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQexecParams(conn, command, nParams, paramTypes, paramValues, paramLengths, paramFormats, resultFormat);
}

void PQclear(PGresult *res) {
    if (!vellum_libpq_load_error()) vellum_libpq.PQclear(res);
}

char * PQerrorMessage(const PGconn *conn) {
    return vellum_libpq_load_error() ? (char *)vellum_libpq_message : vellum_libpq.PQerrorMessage(conn);
}

int PQcancel(PGcancel *cancel, char *errbuf, int errbufsize) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQcancel(cancel, errbuf, errbufsize);
}

ConnStatusType PQstatus(const PGconn *conn) {
    return vellum_libpq_load_error() ? CONNECTION_BAD : vellum_libpq.PQstatus(conn);
}

void PQfinish(PGconn *conn) {
    if (!vellum_libpq_load_error()) vellum_libpq.PQfinish(conn);
}

ExecStatusType PQresultStatus(const PGresult *res) {
    return vellum_libpq_load_error() ? PGRES_FATAL_ERROR : vellum_libpq.PQresultStatus(res);
}

int PQntuples(const PGresult *res) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQntuples(res);
}

char * PQgetvalue(const PGresult *res, int tup_num, int field_num) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQgetvalue(res, tup_num, field_num);
}

int PQgetlength(const PGresult *res, int tup_num, int field_num) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQgetlength(res, tup_num, field_num);
}

int PQgetisnull(const PGresult *res, int tup_num, int field_num) {
    return vellum_libpq_load_error() ? 1 : vellum_libpq.PQgetisnull(res, tup_num, field_num);
}

PGcancel * PQgetCancel(PGconn *conn) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQgetCancel(conn);
}

Oid PQftype(const PGresult *res, int field_num) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQftype(res, field_num);
}

void PQfreeCancel(PGcancel *cancel) {
    if (!vellum_libpq_load_error()) vellum_libpq.PQfreeCancel(cancel);
}

PGresult * PQexec(PGconn *conn, const char *query) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQexec(conn, query);
}

PGconn * PQconnectdb(const char *conninfo) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQconnectdb(conninfo);
}

PGTransactionStatusType PQtransactionStatus(const PGconn *conn) {
    return vellum_libpq_load_error() ? PQTRANS_UNKNOWN : vellum_libpq.PQtransactionStatus(conn);
}

int PQsocket(const PGconn *conn) {
    return vellum_libpq_load_error() ? -1 : vellum_libpq.PQsocket(conn);
}

PQnoticeProcessor PQsetNoticeProcessor(PGconn *conn, PQnoticeProcessor proc, void *arg) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQsetNoticeProcessor(conn, proc, arg);
}

char * PQresultErrorMessage(const PGresult *res) {
    return vellum_libpq_load_error() ? (char *)vellum_libpq_message : vellum_libpq.PQresultErrorMessage(res);
}

char * PQresultErrorField(const PGresult *res, int fieldcode) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQresultErrorField(res, fieldcode);
}

void PQreset(PGconn *conn) {
    if (!vellum_libpq_load_error()) vellum_libpq.PQreset(conn);
}

PGnotify * PQnotifies(PGconn *conn) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQnotifies(conn);
}

int PQnfields(const PGresult *res) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQnfields(res);
}

void PQfreemem(void *ptr) {
    if (!vellum_libpq_load_error()) vellum_libpq.PQfreemem(ptr);
}

char * PQfname(const PGresult *res, int field_num) {
    return vellum_libpq_load_error() ? NULL : vellum_libpq.PQfname(res, field_num);
}

int PQfformat(const PGresult *res, int field_num) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQfformat(res, field_num);
}

int PQconsumeInput(PGconn *conn) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQconsumeInput(conn);
}

char * PQcmdTuples(PGresult *res) {
    return vellum_libpq_load_error() ? (char *)"" : vellum_libpq.PQcmdTuples(res);
}

int PQbackendPID(const PGconn *conn) {
    return vellum_libpq_load_error() ? 0 : vellum_libpq.PQbackendPID(conn);
}
