/*
 * EXEC SQL run in the worker on PostgreSQL, through libpq (opened with dlopen: libpq.so.5), with the
 * semantics db.unit gives them on the server's way: a transaction begun by the call's first statement
 * (BEGIN sent with it), a savepoint after each change so that a failed statement undoes itself alone
 * as on DB2 (sent with the change, in one round trip: libpq's pipeline mode), -911 rolling the whole
 * unit back, cursors declared in the session (NO SCROLL, WITH HOLD, FOR UPDATE, read 100 rows at a
 * time, or 1 when WHERE CURRENT OF names them: the row's ctid), PostgreSQL's errors mapped as
 * db.errors.from_postgresql maps them, results converted as db.values.from_driver converts psycopg's
 * values (TIME and TIMESTAMP as DB2's ISO text).
 */
#include "worker_pg.h"

#include <dlfcn.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct pq_api pq;
static int pq_state; /* 0 not tried, 1 loaded, -1 failed */

static const char *pq_load(void) {
    static char error[256];
    if (pq_state)
        return pq_state > 0 ? NULL : error;
    pq_state = -1;
    void *h = dlopen("libpq.so.5", RTLD_NOW | RTLD_LOCAL);
    if (!h) {
        snprintf(error, sizeof error, "PostgreSQL's libpq cannot be loaded: %s", dlerror());
        return error;
    }
    struct {
        void **at;
        const char *name;
    } wanted[] = {
        {(void **)&pq.connectdb, "PQconnectdb"}, {(void **)&pq.status, "PQstatus"},
        {(void **)&pq.error_message, "PQerrorMessage"}, {(void **)&pq.exec, "PQexec"},
        {(void **)&pq.exec_params, "PQexecParams"}, {(void **)&pq.prepare, "PQprepare"},
        {(void **)&pq.exec_prepared, "PQexecPrepared"}, {(void **)&pq.result_status, "PQresultStatus"},
        {(void **)&pq.result_error_field, "PQresultErrorField"},
        {(void **)&pq.result_error_message, "PQresultErrorMessage"}, {(void **)&pq.clear, "PQclear"},
        {(void **)&pq.ntuples, "PQntuples"}, {(void **)&pq.nfields, "PQnfields"},
        {(void **)&pq.getvalue, "PQgetvalue"}, {(void **)&pq.getlength, "PQgetlength"},
        {(void **)&pq.getisnull, "PQgetisnull"}, {(void **)&pq.ftype, "PQftype"},
        {(void **)&pq.cmd_tuples, "PQcmdTuples"}, {(void **)&pq.enter_pipeline, "PQenterPipelineMode"},
        {(void **)&pq.exit_pipeline, "PQexitPipelineMode"}, {(void **)&pq.pipeline_sync, "PQpipelineSync"},
        {(void **)&pq.send_prepared, "PQsendQueryPrepared"}, {(void **)&pq.send_params, "PQsendQueryParams"},
        {(void **)&pq.get_result, "PQgetResult"}, {(void **)&pq.finish, "PQfinish"},
        {(void **)&pq.transaction_status, "PQtransactionStatus"},
    };
    for (size_t i = 0; i < sizeof wanted / sizeof wanted[0]; i++)
        if (!(*wanted[i].at = dlsym(h, wanted[i].name))) {
            snprintf(error, sizeof error, "PostgreSQL's libpq has no %s (version 14 or later is needed)",
                     wanted[i].name);
            return error;
        }
    pq_state = 1;
    return NULL;
}

int command(PGconn *c, const char *sql) {
    PGresult *r = pq.exec(c, sql);
    int ok = pq.result_status(r) == PGRES_COMMAND_OK;
    pq.clear(r);
    return ok;
}

int pq_transaction_aborted(PGconn *c) { return pq.transaction_status(c) == PQTRANS_INERROR; }

/* The connection to `url`, set up as the server sets up a unit's (sqlbridge.session.unit_connection) */
struct connection *pg_connect(const char *url, const char **why) {
    if ((*why = pq_load()) != NULL)
        return NULL;
    PGconn *c = pq.connectdb(url);
    if (pq.status(c) != CONNECTION_OK) {
        static char text[512];
        snprintf(text, sizeof text, "the folder's database cannot be opened: %s", pq.error_message(c));
        pq.finish(c);
        *why = text;
        return NULL;
    }
    command(c, "SET lock_timeout = 10000"); /* db.connection.BUSY_TIMEOUT_MS: then -913 */
    command(c, "SET client_encoding = 'UTF8'");
    command(c, "SET DateStyle = 'ISO, MDY'");
    struct connection *conn = calloc(1, sizeof *conn);
    conn->path = strdup(url);
    conn->pg = c;
    return conn;
}

/* A session the database ended (a restart, an idle timeout) opened again, at the call's first statement: 1,
 * or 0 when it cannot be (the statement then fails with the connection's error) */
int pg_reopen(struct connection *conn) {
    const char *why = NULL;
    struct connection *fresh = pg_connect(conn->path, &why);
    if (!fresh)
        return 0;
    pq.finish(conn->pg);
    conn->pg = fresh->pg, conn->in_txn = conn->savepoint = 0, conn->session++;
    free(fresh->path);
    free(fresh);
    return 1;
}

void pg_cursor_forget(struct cursor *c) {
    if (c->res)
        pq.clear(c->res);
    c->res = NULL;
    c->row = c->rows = 0;
    free(c->ctid);
    c->ctid = NULL;
}

/* PostgreSQL's error as db.errors.from_postgresql maps it: code, DB2's SQLSTATE and psycopg's text */
void pg_error(struct outcome *o, PGresult *r, PGconn *c, int is_delete) {
    static const struct {
        const char *pg, *db2;
        int code;
    } map[] = {
        {"23505", "23505", -803}, {"23502", "23502", -407}, {"23514", "23513", -545}, {"22007", "22007", -180},
        {"22008", "22008", -181}, {"22001", "22001", -404}, {"22003", "22003", -406}, {"22012", "22012", -802},
        {"42P01", "42704", -204}, {"42703", "42703", -206}, {"42601", "42601", -104}, {"40P01", "40001", -911},
        {"40001", "40001", -911}, {"55P03", "57033", -913}, {"57014", "57033", -913}, {"53000", "57011", -904},
        {"53100", "57011", -904}, {"53200", "57011", -904}, {"53300", "57011", -904}, {"42P07", "42710", -601},
        {"42710", "42710", -601}, {"42701", "42711", -612},
    };
    const char *state = r ? pq.result_error_field(r, DIAG_SQLSTATE) : NULL, *db2 = "58004";
    int code = -901;
    if (state && strcmp(state, "23503") == 0)
        code = is_delete ? -532 : -530, db2 = is_delete ? "23504" : "23503";
    for (size_t i = 0; state && i < sizeof map / sizeof map[0]; i++)
        if (strcmp(state, map[i].pg) == 0)
            code = map[i].code, db2 = map[i].db2;
    const char *text = r ? pq.result_error_message(r) : pq.error_message(c);
    const char *colon = strstr(text, ":  "); /* "ERROR:  the message": psycopg shows the message */
    if (colon && colon - text < 10)
        text = colon + 3;
    char clean[200];
    snprintf(clean, sizeof clean, "%s", text);
    for (size_t n = strlen(clean); n && (clean[n - 1] == '\n' || clean[n - 1] == ' '); n--)
        clean[n - 1] = 0;
    sql_error(o, code, db2, clean);
}

/* ---------------------------------------------------------------------------------- parameters */
static char *texts_in[MAX_ARGS * 4];
unsigned types_in[MAX_ARGS * 4];

/* The statement's parameters as text, as psycopg passes them (db.values.to_driver): NULL for NULL */
int parameters(struct plan *p, const char **values_out, struct value *values) {
    unsigned n = p->nbinds < MAX_ARGS * 4 ? p->nbinds : MAX_ARGS * 4;
    for (unsigned i = 0; i < n; i++) {
        const struct bind *b = &p->binds[i];
        free(texts_in[i]);
        texts_in[i] = NULL;
        types_in[i] = 0; /* text: unknown, as psycopg sends a str */
        if (b->value < 0) {
            texts_in[i] = strdup(p->of && p->of->ctid ? p->of->ctid : "(0,0)");
        } else {
            const struct value *v = &values[b->value];
            if (!v->is_text)
                types_in[i] = v->decimal ? 1700 : 20; /* numeric, int8 */
            if (b->indicator >= 0 && values[b->indicator].n < 0) {
                values_out[i] = NULL;
                continue;
            }
            if (v->is_text) {
                texts_in[i] = malloc(2 * v->len + b->column.n + 1);
                column_text(v, &b->column, (unsigned char *)texts_in[i]);
            } else {
                texts_in[i] = malloc(64);
                plain(v->n, v->decimal ? v->scale : 0, texts_in[i]);
            }
        }
        values_out[i] = texts_in[i];
    }
    return (int)n;
}

/* ---------------------------------------------------------------------------------- results */
/* Row `row` of `r`, from column `first`, as cells (db.values.from_driver of psycopg's values) */
int pg_row(PGresult *r, int row, int first) {
    int n = pq.nfields(r) - first;
    cells = grow(cells, &cells_size, (size_t)(n + 1) * sizeof *cells);
    size_t used = 0;
    for (int k = 0; k < n; k++) {
        struct cell *c = &cells[k];
        int col = k + first;
        if (pq.getisnull(r, row, col)) {
            c->type = SQLITE_NULL;
            continue;
        }
        const char *t = pq.getvalue(r, row, col);
        size_t len = (size_t)pq.getlength(r, row, col);
        unsigned type = pq.ftype(r, col);
        if (type == 20 || type == 21 || type == 23) { /* int8, int2, int4 */
            c->type = SQLITE_INTEGER, c->i = strtoll(t, NULL, 10);
            continue;
        }
        if (type == 700 || type == 701) { /* float4, float8: PostgreSQL's shortest text, as the double */
            c->type = SQLITE_FLOAT, c->d = strtod(t, NULL);
            continue;
        }
        char when[40];
        if (type == 16) { /* bool: Python's True and False */
            snprintf(when, sizeof when, "%s", t[0] == 't' ? "True" : "False");
            t = when, len = strlen(when);
        } else if (type == 1083 && len >= 8) { /* time: DB2's HH.MM.SS */
            snprintf(when, sizeof when, "%.2s.%.2s.%.2s", t, t + 3, t + 6);
            t = when, len = 8;
        } else if ((type == 1114 || type == 1184) && len >= 19) { /* timestamp: YYYY-MM-DD-HH.MM.SS.ffffff */
            char fraction[7] = "000000";
            if (len > 20 && t[19] == '.')
                for (int d = 0; d < 6 && t[20 + d] >= '0' && t[20 + d] <= '9'; d++)
                    fraction[d] = t[20 + d];
            snprintf(when, sizeof when, "%.10s-%.2s.%.2s.%.2s.%s", t, t + 11, t + 14, t + 17, fraction);
            t = when, len = 26;
        }
        c->type = SQLITE_TEXT;
        texts = grow(texts, &texts_size, used + len + 1);
        c->len = to_latin1((const unsigned char *)t, len, texts + used);
        c->i = (long long)used;
        used += c->len;
    }
    for (int k = 0; k < n; k++)
        if (cells[k].type == SQLITE_TEXT)
            cells[k].text = texts + cells[k].i;
    return n;
}

