/*
 * EXEC SQL statements run in the worker on its own SQLite connection (sqlbridge.inworker says when),
 * with the semantics db.unit gives them on the server: host variables read and converted as
 * sqlbridge.values and db.values do (DB2's -302, -311), SELECT INTO's +100 and -811, +100 for a
 * searched UPDATE or DELETE (or INSERT … SELECT) of no row, cursors (-501, -502, -507, -508, WITH HOLD,
 * WHERE CURRENT OF through the rowid), NULL without an indicator -305, numbers cut to the host
 * variable's decimals (-304 when the rest does not fit), strings padded or cut (SQLWARN1, and the
 * indicator given the length before the cut), SQLite's errors as db.errors maps them, the SQLCA at
 * DB2's offsets. Nothing is stored unless all of it can be.
 *
 * The transaction begins at the first statement (BEGIN: deferred, as the server's) and ends with the
 * call: committed once the program has returned and the server has said the call is still on, rolled
 * back by SQLite when the worker ends with it open (an abend, a runtime error, a kill).
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

uint32_t sql_call;
unsigned sql_folder;


static void fatal(const char *what, long long number) {
    fprintf(stderr, "cobol-mcp worker: CALL 'SQLRT' %lld: %s\n", number, what);
    _exit(70);
}

/* ---------------------------------------------------------------------------------- a statement */
struct value *values;
static size_t values_size;
struct cell *cells;
size_t cells_size;
unsigned char *texts;
size_t texts_size;
static unsigned char *copies;
static size_t copies_size;

/* WHERE CURRENT OF: its cursor open and on a row (else -507, -508 in *o) */
int current_of(struct plan *p, const char *program, struct outcome *o) {
    if (p->current == NO_SLOT)
        return 1;
    struct cursor *of = p->of ? p->of : (p->of = cursor_of(program, p->current));
    if (!of->open)
        return named(o, -507, "24501", "cursor %s is not open", p->current_name), 0;
    if (!of->on_row)
        return named(o, -508, "24504", "cursor %s is not on a row", p->current_name), 0;
    return 1;
}

static int bind_all(struct plan *p, struct outcome *o) {
    sqlite3_stmt *s = p->stmt;
    for (unsigned i = 0; i < p->nbinds; i++) {
        const struct bind *b = &p->binds[i];
        int rc;
        if (b->value < 0)
            rc = lite.bind_int64(s, (int)i + 1, p->of ? p->of->current : 0);
        else if (b->indicator >= 0 && values[b->indicator].n < 0)
            rc = lite.bind_null(s, (int)i + 1);
        else
            rc = bind_value(s, (int)i + 1, &values[b->value], &b->column);
        if (rc != SQLITE_OK) {
            driver_error(o, p->conn->db, 0);
            return 0;
        }
    }
    return 1;
}

static int prepared(struct plan *p, struct outcome *o) {
    if (!p->stmt && lite.prepare_v2(p->conn->db, p->sql, -1, &p->stmt, NULL) != SQLITE_OK) {
        p->stmt = NULL;
        driver_error(o, p->conn->db, p->flags & F_DELETE);
        return 0;
    }
    lite.reset(p->stmt);
    return bind_all(p, o);
}

/* The current row's columns from `first` on, kept (texts made Latin-1) past the next step */
static int read_row(sqlite3_stmt *s, int first) {
    int n = lite.column_count(s) - first;
    cells = grow(cells, &cells_size, (size_t)(n + 1) * sizeof *cells);
    size_t used = 0;
    for (int k = 0; k < n; k++) {
        struct cell *c = &cells[k];
        c->type = lite.column_type(s, k + first);
        if (c->type == SQLITE_INTEGER)
            c->i = lite.column_int64(s, k + first);
        else if (c->type == SQLITE_FLOAT)
            c->d = lite.column_double(s, k + first);
        else if (c->type != SQLITE_NULL) {
            const unsigned char *t = lite.column_text(s, k + first);
            size_t len = (size_t)lite.column_bytes(s, k + first);
            texts = grow(texts, &texts_size, used + len + 1);
            c->len = to_latin1(t ? t : (const unsigned char *)"", len, texts + used);
            c->i = (long long)used; /* (the offset: texts may move while the row is read) */
            used += c->len;
        }
    }
    for (int k = 0; k < n; k++)
        if (cells[k].type == SQLITE_TEXT || cells[k].type == SQLITE_BLOB)
            cells[k].text = texts + cells[k].i;
    return n;
}

/* Store the row read into the outputs: all of it, or nothing and the error in *o */
int store_row(struct plan *p, unsigned char **data, const size_t *sizes, int count, int n, struct outcome *o) {
    if ((unsigned)n != p->nouts)
        sql_warn(o, 3); /* DB2: the numbers of result columns and of host variables differ */
    unsigned stored = (unsigned)n < p->nouts ? (unsigned)n : p->nouts;
    for (unsigned k = 0; k < stored; k++)
        if (cells[k].type == SQLITE_NULL && !p->outs[k].has_indicator) {
            named(o, -305, "22002", "NULL into %s, which has no indicator variable", p->outs[k].target.name);
            return 0;
        }
    size_t total = 0;
    for (int i = 3; i <= count; i++)
        total += sizes[i];
    copies = grow(copies, &copies_size, total + 1);
    unsigned char *copy[MAX_ARGS + 2];
    for (int i = 3, at = 0; i <= count; at += (int)sizes[i], i++) {
        copy[i] = copies + at;
        memcpy(copy[i], data[i], sizes[i]);
    }
    long long cuts[stored + 1];
    for (unsigned k = 0; k < stored; k++) {
        const struct output *out = &p->outs[k];
        cuts[k] = -1;
        if (cells[k].type != SQLITE_NULL) {
            if (!store_cell(&out->target, copy, &cells[k], &out->column, &cuts[k], o))
                return 0;
            if (cuts[k] >= 0)
                sql_warn(o, 1);
        }
        if (out->has_indicator && !store_whole(&out->indicator, copy, cells[k].type == SQLITE_NULL ? -1 : 0, o))
            return 0;
    }
    for (unsigned k = 0; k < stored; k++) /* DB2: the indicator of a cut string holds its length before the cut */
        if (cuts[k] >= 0 && p->outs[k].has_indicator && !store_whole(&p->outs[k].indicator, copy, cuts[k], o))
            return 0;
    for (int i = 3; i <= count; i++)
        memcpy(data[i], copy[i], sizes[i]);
    o->errd3 = 1;
    return 1;
}

static void fetch(struct plan *p, struct cursor *c, unsigned char **data, const size_t *sizes, int count,
                  struct outcome *o) {
    if (!c->open)
        return named(o, -501, "24501", "cursor %s is not open", p->cursor_name);
    if (c->failed) {
        c->failed = 0;
        sql_error(o, c->fail_code, c->fail_state, c->fail_text ? c->fail_text : "");
        return;
    }
    if (!c->has_row) {
        c->on_row = 0;
        o->code = 100;
        memcpy(o->state, "02000", 6);
        return;
    }
    int n = read_row(c->stmt, c->rowid);
    c->on_row = 1;
    if (c->rowid)
        c->current = lite.column_int64(c->stmt, 0);
    int rc = lite.step(c->stmt);
    c->has_row = rc == SQLITE_ROW;
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) { /* the next FETCH gets it, as the server's reading on does */
        struct outcome later;
        driver_error(&later, p->conn->db, 0);
        c->failed = 1, c->fail_code = later.code;
        memcpy(c->fail_state, later.state, 6);
        c->fail_text = strdup(later.message);
    }
    store_row(p, data, sizes, count, n, o);
}

static void run_statement(struct plan *p, const char *program, unsigned char **data, const size_t *sizes, int count,
                          struct outcome *o) {
    sqlite3 *db = p->conn->db;
    struct cursor *c = p->slot != NO_SLOT ? (p->cursor ? p->cursor : (p->cursor = cursor_of(program, p->slot))) : NULL;
    switch (p->op) {
    case OP_COMMIT:
    case OP_ROLLBACK:
        return unit_finish(p->conn, p->op == OP_ROLLBACK, o);
    case OP_CLOSE:
        if (!c->open)
            return named(o, -501, "24501", "cursor %s is not open", p->cursor_name);
        return cursor_close(c);
    case OP_OPEN: {
        if (c->open)
            return named(o, -502, "24502", "cursor %s is already open", p->cursor_name);
        if (!prepared(p, o))
            return;
        int rc = lite.step(p->stmt);
        if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
            driver_error(o, db, 0);
            lite.reset(p->stmt);
            return;
        }
        c->open = 1, c->has_row = rc == SQLITE_ROW, c->on_row = 0, c->failed = 0;
        c->stmt = p->stmt, c->hold = p->flags & F_HOLD, c->rowid = (p->flags & F_ROWID) != 0;
        return;
    }
    case OP_FETCH:
        return fetch(p, c, data, sizes, count, o);
    default:
        break;
    }
    if (!current_of(p, program, o))
        return;
    if (!prepared(p, o))
        return;
    int rc = lite.step(p->stmt), is_delete = (p->flags & F_DELETE) != 0;
    if (p->op == OP_INTO) {
        if (rc == SQLITE_DONE) {
            o->code = 100;
            memcpy(o->state, "02000", 6);
        } else if (rc != SQLITE_ROW) {
            driver_error(o, db, is_delete);
        } else {
            int n = read_row(p->stmt, 0);
            rc = lite.step(p->stmt);
            if (rc == SQLITE_ROW)
                sql_error(o, -811, "21000", "the result of SELECT INTO has more than one row");
            else if (rc != SQLITE_DONE)
                driver_error(o, db, is_delete);
            else
                store_row(p, data, sizes, count, n, o);
        }
    } else if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        driver_error(o, db, is_delete);
    } else {
        int rows = p->flags & F_DML ? lite.changes(db) : -1;
        o->errd3 = rows > 0 ? rows : 0;
        if (rows == 0 && (p->flags & F_NOTFOUND)) {
            o->code = 100;
            memcpy(o->state, "02000", 6);
        }
    }
    lite.reset(p->stmt);
}

static int piece_fits(const struct plan *p, const struct piece *x) {
    if (x->param + 1 >= p->nparams || x->digits > 18 || x->scale < 0 || x->scale > 6)
        return 0;
    uint64_t room = p->sizes[x->param + 1], size = x->size;
    if (x->cls == P_VARCHAR)
        return x->len_size >= 1 && x->len_size <= 8 && x->offset + (uint64_t)x->len_size <= room &&
               x->text_offset + size <= room;
    if ((x->cls == P_BINARY || x->cls == P_NATIVE) && (size < 1 || size > 8))
        return 0;
    return x->cls >= P_TEXT && x->cls <= P_NATIVE && size >= 1 + (x->separate ? 1u : 0u) && x->offset + size <= room;
}

/* Statement `number` of `program`'s plan, asked of the server (once per worker) */
static struct plan *ask_plan(const char *program, long long number) {
    char name[NAME_LENGTH];
    snprintf(name, sizeof name, "%s", program);
    void *data[3] = {NULL, NULL, name};
    size_t sizes[3] = {0, 0, strlen(name)}, n;
    ask_with(3, number, 2, data, sizes);
    const unsigned char *bytes = plan_asked(&n);
    struct plan *p = plan_read(bytes, n);
    int ok = p != NULL && p->nparams >= 1 && p->sizes[0] >= 136;
    for (unsigned i = 0; ok && i < p->nreads; i++)
        ok = piece_fits(p, &p->reads[i]);
    for (unsigned i = 0; ok && i < p->nouts; i++)
        ok = piece_fits(p, &p->outs[i].target) && (!p->outs[i].has_indicator || piece_fits(p, &p->outs[i].indicator));
    if (ok && (p->op == OP_OPEN || p->op == OP_FETCH || p->op == OP_CLOSE))
        ok = p->slot != NO_SLOT;
    if (!ok)
        fatal("the server's plan of the statement does not read", number);
    plan_keep(program, number, p);
    return p;
}

int sql_statement(void) {
    int count = cob_get_num_params();
    long long number = cob_get_s64_param(1);
    const char *program = caller_program(0);
    struct plan *p = plan_find(program, number);
    if (!p)
        p = ask_plan(program, number);
    if (count < 2 || count > MAX_ARGS || (unsigned)(count - 1) != p->nparams)
        fatal("a CALL with another number of parameters than the statement has", number);
    unsigned char *data[MAX_ARGS + 2];
    size_t sizes[MAX_ARGS + 2];
    for (int i = 2; i <= count; i++) {
        data[i] = cob_get_param_data(i);
        sizes[i] = (size_t)cob_get_param_size(i);
        if (sizes[i] != p->sizes[i - 2])
            fatal("a parameter of another size than the statement's", number);
    }
    struct outcome o;
    success(&o);
    if (p->op != OP_NONE) {
        if (!p->conn) {
            const char *why = NULL;
            if (!(p->conn = connection_for(p->database, &why)))
                fatal(why, number);
        }
        if (conn_call != running)
            call_conn = p->conn, conn_call = running;
        else if (call_conn != p->conn)
            fatal("one call's statements on two databases", number);
        values = grow(values, &values_size, (p->nreads + 1) * sizeof *values);
        for (unsigned i = 0; i < p->nreads; i++) {
            int bad = read_piece(&p->reads[i], data, &values[i], &o);
            if (bad == 1) { /* bytes that are no value of the PICTURE: the server reads them and says why */
                void *asked[MAX_ARGS + 3];
                size_t asked_sizes[MAX_ARGS + 3];
                char name[NAME_LENGTH];
                snprintf(name, sizeof name, "%s", program);
                asked[2] = name, asked_sizes[2] = strlen(name);
                for (int k = 2; k <= count; k++)
                    asked[k + 1] = data[k], asked_sizes[k + 1] = sizes[k];
                return ask_with(3, number, count + 1, asked, asked_sizes);
            }
            if (bad)
                return put_sqlca(data[2], &o), 0;
        }
        sqlite3 *db = p->conn->db;
        if (p->conn->pg)
            pg_statement(p, program, data, sizes, count, &o);
        else if (p->op != OP_COMMIT && p->op != OP_ROLLBACK && p->op != OP_CLOSE && lite.get_autocommit(db) &&
            lite.exec(db, "BEGIN", NULL, NULL, NULL) != SQLITE_OK)
            driver_error(&o, db, 0);
        else
            run_statement(p, program, data, sizes, count, &o);
    }
    put_sqlca(data[2], &o);
    return 0;
}
