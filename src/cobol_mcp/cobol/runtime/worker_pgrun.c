/*
 * A statement of EXEC SQL run in the worker on PostgreSQL, and the call's end (worker_pg.c says how the
 * semantics follow db.unit's on the server's way).
 */
#include "worker_pg.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------- running */
static unsigned prepared_count;

/* Run the plan's statement with BEGIN before it (not begun yet) and the savepoint after it (a change), in
 * one round trip; the statement's result (the caller clears it), NULL when BEGIN failed (in *o). */
static PGresult *pg_run(struct plan *p, struct connection *conn, struct value *values, struct outcome *o) {
    PGconn *c = conn->pg;
    const char *params[MAX_ARGS * 4];
    int n = parameters(p, params, values);
    int prepare = p->op == OP_INTO || p->op == OP_CHANGE;
    if (prepare && (!p->pg_name[0] || p->pg_session != conn->session)) {
        char name[24];
        snprintf(name, sizeof name, "cobol_mcp_%u", ++prepared_count);
        p->pg_session = conn->session;
        PGresult *r = pq.prepare(c, name, p->sql, n, types_in);
        if (pq.result_status(r) != PGRES_COMMAND_OK) {
            return r; /* (the caller maps the error; outside a transaction it aborted nothing) */
        }
        pq.clear(r);
        memcpy(p->pg_name, name, sizeof name);
    }
    int begin = !conn->in_txn, save = (p->flags & F_SAVE) != 0;
    if (!begin && !save) {
        if (prepare)
            return pq.exec_prepared(c, p->pg_name, n, params, NULL, NULL, 0);
        return pq.exec_params(c, p->sql, n, types_in, params, NULL, NULL, 0);
    }
    pq.enter_pipeline(c);
    if (begin)
        pq.send_params(c, "BEGIN", 0, NULL, NULL, NULL, NULL, 0);
    if (prepare)
        pq.send_prepared(c, p->pg_name, n, params, NULL, NULL, 0);
    else
        pq.send_params(c, p->sql, n, types_in, params, NULL, NULL, 0);
    if (save && conn->savepoint)
        pq.send_params(c, "RELEASE SAVEPOINT cobol_mcp", 0, NULL, NULL, NULL, NULL, 0);
    if (save)
        pq.send_params(c, "SAVEPOINT cobol_mcp", 0, NULL, NULL, NULL, NULL, 0);
    pq.pipeline_sync(c);
    PGresult *mine = NULL, *r;
    int query = begin ? -1 : 0, failed_begin = 0, last = 1 + (save && conn->savepoint) + save;
    for (;;) { /* each query's result, then NULL; after the last, the sync */
        r = pq.get_result(c);
        if (r == NULL) {
            if (++query > last || pq.status(c) != CONNECTION_OK)
                break; /* the session is gone: no sync comes */
            continue;
        }
        if (pq.result_status(r) == PGRES_PIPELINE_SYNC) {
            pq.clear(r);
            break;
        }
        if (query == -1 && pq.result_status(r) != PGRES_COMMAND_OK)
            failed_begin = 1, pg_error(o, r, c, 0);
        if (query == 0 && !mine)
            mine = r;
        else
            pq.clear(r);
    }
    pq.exit_pipeline(c);
    if (!mine && !failed_begin)
        failed_begin = 1, pg_error(o, NULL, c, 0);
    if (failed_begin) {
        if (mine)
            pq.clear(mine);
        return NULL;
    }
    conn->in_txn = 1;
    if (save && mine && (pq.result_status(mine) == PGRES_COMMAND_OK || pq.result_status(mine) == PGRES_TUPLES_OK))
        conn->savepoint = 1;
    return mine;
}

/* After a failed statement (db.unit.Unit._failed): -911 rolls the unit back; otherwise an aborted
 * transaction goes back to the savepoint after the last change, or (only reads before) is rolled back */
static void recover(struct connection *conn, const struct outcome *o) {
    PGconn *c = conn->pg;
    if (o->code == -911 || !conn->savepoint) {
        if (o->code == -911 || pq_transaction_aborted(c)) {
            command(c, "ROLLBACK");
            conn->in_txn = conn->savepoint = 0;
            if (o->code == -911)
                for (struct cursor *k = cursors; k; k = k->next)
                    cursor_close(k);
        }
    } else if (pq_transaction_aborted(c)) {
        command(c, "ROLLBACK TO SAVEPOINT cobol_mcp");
    }
}

static int ok(PGresult *r) {
    return r && (pq.result_status(r) == PGRES_COMMAND_OK || pq.result_status(r) == PGRES_TUPLES_OK);
}

static void pg_fetch(struct plan *p, struct cursor *cur, unsigned char **data, const size_t *sizes, int count,
                     struct outcome *o) {
    struct connection *conn = p->conn;
    if (!cur->open)
        return named(o, -501, "24501", "cursor %s is not open", p->cursor_name);
    if (cur->row >= cur->rows) { /* the next rows, 100 at a time (1 for a cursor WHERE CURRENT OF names) */
        pg_cursor_forget(cur);
        PGresult *r = pq.exec(conn->pg, p->sql);
        if (!ok(r)) {
            pg_error(o, r, conn->pg, 0);
            pq.clear(r);
            return recover(conn, o);
        }
        cur->res = r, cur->row = 0, cur->rows = pq.ntuples(r);
    }
    if (cur->row >= cur->rows) {
        cur->on_row = 0;
        o->code = 100;
        memcpy(o->state, "02000", 6);
        return;
    }
    int row = cur->row++, n = pg_row(cur->res, row, cur->rowid);
    cur->on_row = 1;
    if (cur->rowid) {
        free(cur->ctid);
        cur->ctid = strdup(pq.getvalue(cur->res, row, 0));
    }
    store_row(p, data, sizes, count, n, o);
}

void pg_statement(struct plan *p, const char *program, unsigned char **data, const size_t *sizes, int count,
                  struct outcome *o) {
    struct connection *conn = p->conn;
    PGconn *c = conn->pg;
    struct cursor *cur = p->slot != NO_SLOT ? (p->cursor ? p->cursor : (p->cursor = cursor_of(program, p->slot))) : NULL;
    switch (p->op) {
    case OP_COMMIT:
    case OP_ROLLBACK:
        return unit_finish(conn, p->op == OP_ROLLBACK, o);
    case OP_CLOSE:
        if (!cur->open)
            return named(o, -501, "24501", "cursor %s is not open", p->cursor_name);
        cursor_close(cur);
        if (!command(c, p->sql) && pq_transaction_aborted(c))
            recover(conn, o);
        return;
    case OP_FETCH:
        return pg_fetch(p, cur, data, sizes, count, o);
    case OP_OPEN:
        if (cur->open)
            return named(o, -502, "24502", "cursor %s is already open", p->cursor_name);
        break;
    default:
        if (!current_of(p, program, o))
            return;
    }
    int first = !conn->in_txn;
    PGresult *r = pg_run(p, conn, values, o);
    if (first && pq.status(c) != CONNECTION_OK && pg_reopen(conn)) { /* the database ended the session */
        if (r)
            pq.clear(r);
        c = conn->pg;
        success(o);
        r = pg_run(p, conn, values, o);
    }
    if (!r)
        return;
    int is_delete = (p->flags & F_DELETE) != 0;
    if (!ok(r)) {
        pg_error(o, r, c, is_delete);
        pq.clear(r);
        return recover(conn, o);
    }
    if (p->op == OP_OPEN) {
        cur->open = 1, cur->on_row = 0, cur->failed = 0, cur->row = cur->rows = 0;
        cur->hold = p->flags & F_HOLD, cur->rowid = (p->flags & F_ROWID) != 0;
    } else if (p->op == OP_INTO) {
        int rows = pq.ntuples(r);
        if (rows == 0) {
            o->code = 100;
            memcpy(o->state, "02000", 6);
        } else if (rows > 1) {
            sql_error(o, -811, "21000", "the result of SELECT INTO has more than one row");
        } else {
            store_row(p, data, sizes, count, pg_row(r, 0, 0), o);
        }
    } else {
        const char *tuples = pq.cmd_tuples(r);
        int rows = tuples && *tuples ? atoi(tuples) : -1;
        o->errd3 = rows > 0 ? rows : 0;
        if (rows == 0 && (p->flags & F_NOTFOUND)) {
            o->code = 100;
            memcpy(o->state, "02000", 6);
        }
    }
    pq.clear(r);
}

/* The call's end: committed, and the session's cursors closed when the program left some open (`open`:
 * WITH HOLD ones outlive the COMMIT); NULL, or why the commit failed (rolled back then) */
const char *pg_end(struct connection *conn, int open) {
    PGconn *c = conn->pg;
    const char *why = NULL;
    if (conn->in_txn && !command(c, "COMMIT")) {
        static char text[320];
        snprintf(text, sizeof text, "its unit of work could not be committed: %s", pq.error_message(c));
        command(c, "ROLLBACK");
        why = text;
    }
    if (open)
        command(c, "CLOSE ALL");
    conn->in_txn = conn->savepoint = 0;
    return why;
}
