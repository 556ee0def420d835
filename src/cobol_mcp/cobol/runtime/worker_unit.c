/*
 * The unit of work of a call whose database work runs in the worker (a call frame of kind 4): the one
 * connection its EXEC SQL statements (worker_sql.c) and its CICS commands (worker_cics.h) share, its end
 * by EXEC SQL COMMIT/ROLLBACK or SYNCPOINT [ROLLBACK], and the call's end: committed once the program has returned and the server
 * has said the call is still on, rolled back by the database when the worker ends with it open.
 */
#include "worker_pg.h"

#include <stdio.h>
#include <string.h>
#include <unistd.h>

struct connection *call_conn;
uint32_t conn_call;

void worker_fail(const char *what, const char *why) {
    fprintf(stderr, "cobol-mcp worker: %s: %s\n", what, why);
    _exit(70);
}

struct connection *call_connection(const char *database, const char *what) {
    const char *why = NULL;
    struct connection *c = connection_for(database, &why);
    if (!c)
        worker_fail(what, why);
    if (conn_call != running)
        call_conn = c, conn_call = running;
    else if (call_conn != c)
        worker_fail(what, "one call's statements on two databases");
    if (c->pg && !c->in_txn) { /* (a session the database ended is opened again at the call's start) */
        if (!command(c->pg, "BEGIN") && !(pq.status(c->pg) != CONNECTION_OK && pg_reopen(c) && command(c->pg, "BEGIN")))
            worker_fail(what, pq.error_message(c->pg));
        c->in_txn = 1;
    } else if (!c->pg && lite.get_autocommit(c->db) && lite.exec(c->db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK) {
        worker_fail(what, lite.errmsg(c->db));
    }
    return c;
}

/* EXEC SQL COMMIT or ROLLBACK, or a SYNCPOINT: the unit ended, its cursors closed as DB2 closes them
 * (COMMIT: all but WITH HOLD ones; ROLLBACK: those too, their work being undone); a failed COMMIT's error
 * in *o, the unit rolled back */
void unit_finish(struct connection *c, int rollback, struct outcome *o) {
    int held = 0;
    for (struct cursor *k = cursors; k; k = k->next)
        if (k->open && (rollback || !k->hold)) {
            held |= k->hold;
            cursor_close(k); /* (PostgreSQL closes the others with the transaction) */
        }
    if (c->pg) {
        if (c->in_txn && !command(c->pg, rollback ? "ROLLBACK" : "COMMIT")) {
            pg_error(o, NULL, c->pg, 0);
            command(c->pg, "ROLLBACK");
        }
        if (held)
            command(c->pg, "CLOSE ALL");
        c->in_txn = c->savepoint = 0;
    } else if (!lite.get_autocommit(c->db) && lite.exec(c->db, rollback ? "ROLLBACK" : "COMMIT", NULL, NULL, NULL)) {
        driver_error(o, c->db, 0);
    }
}

void sql_syncpoint(int rollback) {
    cics_file_syncpoint(); /* READ UPDATE's holds end with the unit */
    if (conn_call != running || !call_conn)
        return;
    struct outcome o;
    success(&o);
    unit_finish(call_conn, rollback, &o);
    if (o.code)
        worker_fail("SYNCPOINT", o.message);
}

/* The program returned: the cursors closed; the unit committed once the server says the call is still
 * on (no answer comes to one timed out or cancelled: the worker is killed, the database rolls back) */
const char *sql_end(void) {
    uint32_t call = sql_call;
    int open = 0;
    sql_call = 0;
    for (struct cursor *c = cursors; c; c = c->next) {
        open |= c->open;
        cursor_close(c);
    }
    if (conn_call != call || !call_conn)
        return NULL;
    conn_call = 0;
    struct connection *conn = call_conn;
    if (conn->pg ? conn->in_txn : !lite.get_autocommit(conn->db)) { /* the server says go on, or kills the worker */
        void *data[2] = {NULL, NULL};
        size_t sizes[2] = {0, 0};
        ask_with(3, 0, 1, data, sizes);
    }
    if (conn->pg)
        return pg_end(conn, open);
    if (lite.get_autocommit(conn->db) || lite.exec(conn->db, "COMMIT", NULL, NULL, NULL) == SQLITE_OK)
        return NULL;
    static char why[320];
    snprintf(why, sizeof why, "its unit of work could not be committed: %s", lite.errmsg(conn->db));
    lite.exec(conn->db, "ROLLBACK", NULL, NULL, NULL);
    return why;
}
