/*
 * CICS file control's datasets and statements in the worker (worker_cics.h): a dataset's definition,
 * asked of the server once per folder (SQLPLAN, FILE_PLAN), and db.cics.files' statements on the call's
 * connection, SQLite's prepared once per connection, PostgreSQL's once per session (binary rids and
 * records, as bytea), with the savepoint after a change that db.unit keeps on PostgreSQL.
 */
#include "worker_cics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define FILE_PLAN (-2) /* sqlbridge.cics_worker.FILE_PLAN */
const char *const DB_SQL[S_COUNT] = {
    "SELECT 1 FROM cics_datasets WHERE name = ?1",
    "SELECT rid, data FROM cics_records WHERE dataset = ?1 AND rid = ?2",
    "SELECT rid, data FROM cics_records WHERE dataset = ?1 AND rid >= ?2 ORDER BY rid LIMIT 1",
    "UPDATE cics_datasets SET next_rba = next_rba + ?2 WHERE name = ?1 RETURNING next_rba",
    "INSERT INTO cics_records (dataset, rid, data) VALUES (?1, ?2, ?3) ON CONFLICT (dataset, rid) DO NOTHING",
    "UPDATE cics_datasets SET next_rba = next_rba WHERE name = ?1",
    "SELECT 1 FROM cics_records WHERE dataset = ?1 AND rid = ?2 FOR UPDATE",
    "SELECT 1 FROM cics_records WHERE dataset = ?1 AND rid = ?2 FOR UPDATE NOWAIT",
    "UPDATE cics_records SET data = ?3 WHERE dataset = ?1 AND rid = ?2",
    "DELETE FROM cics_records WHERE dataset = ?1 AND rid = ?2",
    "DELETE FROM cics_records WHERE dataset = ?1 AND rid >= ?2",
    "DELETE FROM cics_records WHERE dataset = ?1 AND rid >= ?2 AND rid < ?3",
    "SELECT rid, data FROM cics_records WHERE dataset = ?1 AND rid > ?2 ORDER BY rid LIMIT 1",
    "SELECT rid, data FROM cics_records WHERE dataset = ?1 AND rid <= ?2 ORDER BY rid DESC LIMIT 1",
    "SELECT rid, data FROM cics_records WHERE dataset = ?1 AND rid < ?2 ORDER BY rid DESC LIMIT 1",
    "INSERT INTO cics_ts_queues (queue, items, next_item) VALUES (?1, 0, 1) ON CONFLICT (queue) DO NOTHING",
    "UPDATE cics_ts_queues SET items = items + 1 WHERE queue = ?1 RETURNING items",
    "INSERT INTO cics_ts_items (queue, item, data) VALUES (?1, ?2, ?3)",
    "SELECT items FROM cics_ts_queues WHERE queue = ?1",
    "UPDATE cics_ts_items SET data = ?3 WHERE queue = ?1 AND item = ?2",
    "SELECT items, next_item FROM cics_ts_queues WHERE queue = ?1",
    "SELECT data FROM cics_ts_items WHERE queue = ?1 AND item = ?2",
    "UPDATE cics_ts_queues SET next_item = ?2 WHERE queue = ?1",
    "DELETE FROM cics_ts_queues WHERE queue = ?1",
    "DELETE FROM cics_ts_items WHERE queue = ?1",
    "INSERT INTO cics_td (queue, data) VALUES (?1, ?2)",
    "SELECT seq, data FROM cics_td WHERE queue = ?1 ORDER BY seq LIMIT 1",
    "DELETE FROM cics_td WHERE seq = ?1",
    "DELETE FROM cics_td WHERE queue = ?1",
    "SELECT value, minimum, maximum FROM cics_counters WHERE pool = ?1 AND name = ?2",
    "SELECT value, minimum, maximum FROM cics_counters WHERE pool = ?1 AND name = ?2",
    "UPDATE cics_counters SET value = ?3 WHERE pool = ?1 AND name = ?2",
    "INSERT INTO cics_counters (pool, name, wide, value, minimum, maximum) VALUES (?1, ?2, ?3, ?4, ?5, ?6) "
    "ON CONFLICT (pool, name) DO NOTHING",
    "DELETE FROM cics_counters WHERE pool = ?1 AND name = ?2",
};
const char *const DB_PG_SUFFIX[S_COUNT] = { /* what PostgreSQL adds (db.cics.queues, db.cics.counters) */
    [S_TD_FIRST] = " FOR UPDATE SKIP LOCKED",
    [S_CT_GET_LOCK] = " FOR UPDATE",
};

void fc_fail(const char *why) { worker_fail("CICS file control", why); }

int cond(struct command *k, int resp, int resp2) {
    k->resp_ = resp, k->resp2_ = resp2;
    return 0;
}

long long number_of(const unsigned char *p) {
    long long v;
    memcpy(&v, p, 8);
    return v;
}

void put_number(unsigned char *p, long long v) { memcpy(p, &v, 8); }

void fc_key(struct key *out, const unsigned char *b, int n) {
    out->n = n < KEY_ROOM ? n : KEY_ROOM;
    memcpy(out->b, b, (size_t)out->n);
}

/* ---------------------------------------------------------------------------------- datasets */
static struct dataset *datasets;

/* FILE's definition (sqlbridge.cics_worker.dataset_plan), asked once per folder */
static struct dataset *definition(const char *file) {
    for (struct dataset *d = datasets; d; d = d->next)
        if (d->folder == sql_folder && strcmp(d->file, file) == 0)
            return d;
    char name[9];
    snprintf(name, sizeof name, "%s", file);
    void *data[3] = {NULL, NULL, name};
    size_t sizes[3] = {0, 0, strlen(name)}, n;
    ask_with(3, FILE_PLAN, 2, data, sizes);
    const unsigned char *p = plan_asked(&n);
    struct reader r = {p, p + n, 0};
    struct dataset *d = calloc(1, sizeof *d);
    snprintf(d->file, sizeof d->file, "%s", file);
    d->folder = sql_folder;
    d->found = (int)get_u8(&r), d->org = (int)get_u8(&r);
    d->min = get_u32(&r), d->max = get_u32(&r);
    d->key_length = get_u32(&r), d->key_offset = get_u32(&r);
    d->name = get_str(&r), d->database = get_str(&r);
    if (r.bad || d->org > RRDS || d->key_length > 255 || d->key_offset > d->max)
        fc_fail("the server's plan of a dataset does not read");
    d->next = datasets, datasets = d;
    return d;
}

/* The command's dataset and the call's connection (FILENOTFOUND, NOTOPEN: NULL, the condition set) */
struct dataset *fc_dataset(struct command *k, struct connection **conn) {
    char file[9] = {0};
    size_t n = k->file_n < 8 ? k->file_n : 8;
    for (size_t i = 0; i < n; i++)
        file[i] = (char)(k->file[i] >= 'a' && k->file[i] <= 'z' ? k->file[i] - 32 : k->file[i]);
    while (n && (file[n - 1] == ' ' || file[n - 1] == 0))
        file[--n] = 0;
    struct dataset *d = definition(file);
    if (!d->found)
        return cond(k, FILENOTFOUND, 1), NULL;
    *conn = call_connection(d->database, "CICS file control");
    if (!d->opened) {
        if (!fc_run(*conn, d, S_OPENED, NULL, NULL, 0, 0, NULL, NULL))
            return cond(k, NOTOPEN, 60), NULL;
        d->opened = 1;
    }
    return d;
}

/* ---------------------------------------------------------------------------------- statements */
char fc_state[6], fc_text[256];
static sqlite3_stmt *active; /* SQLite: the statement whose row a caller may still be reading */
static PGresult *last;       /* PostgreSQL: the last statement's result */

void fc_release(void) {
    if (active)
        lite.reset(active);
    active = NULL;
    if (last)
        pq.clear(last);
    last = NULL;
}

static int pg_run(struct connection *c, int s, const struct arg *args, int n) {
    if (c->files_session != c->session)
        c->files_prepared = 0, c->files_session = c->session;
    char name[24], digits[3][24];
    snprintf(name, sizeof name, "cobol_mcp_f%d", s);
    const char *values[DB_ARGS];
    int lengths[DB_ARGS], formats[DB_ARGS];
    unsigned types[DB_ARGS];
    for (int i = 0; i < n; i++) {
        const struct arg *a = &args[i];
        types[i] = a->type == 'i' ? 20 : a->type == 'b' ? 17 : 25;
        formats[i] = a->type == 'b', lengths[i] = a->n, values[i] = a->p;
        if (a->type == 'i') {
            snprintf(digits[i < 3 ? i : 2], sizeof digits[0], "%lld", a->i);
            values[i] = digits[i < 3 ? i : 2];
        }
    }
    if (!(c->files_prepared & (1ull << s))) {
        char sql[200];
        snprintf(sql, sizeof sql, "%s%s", DB_SQL[s], DB_PG_SUFFIX[s] ? DB_PG_SUFFIX[s] : "");
        for (char *q = sql; *q; q++)
            if (*q == '?')
                *q = '$';
        PGresult *r = pq.prepare(c->pg, name, sql, n, types);
        if (pq.result_status(r) != PGRES_COMMAND_OK) {
            snprintf(fc_text, sizeof fc_text, "%s", pq.result_error_message(r));
            pq.clear(r);
            fc_fail(fc_text);
        }
        pq.clear(r);
        c->files_prepared |= 1ull << s;
    }
    last = pq.exec_prepared(c->pg, name, n, values, lengths, formats, 1);
    int status = pq.result_status(last);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

/* Statement s with these arguments (?1, ?2 …): 1 a row (read with db_int and db_bytes until the next
 * statement), 0 none, -1 it failed and `may_fail` (fc_state, fc_text; else the worker ends with it);
 * the rows it changed in *count */
int db_run(struct connection *c, int s, const struct arg *args, int n, int may_fail, long long *count) {
    fc_release();
    if (c->pg) {
        if (!pg_run(c, s, args, n)) {
            const char *state = pq.result_error_field(last, DIAG_SQLSTATE);
            snprintf(fc_state, sizeof fc_state, "%s", state ? state : "");
            snprintf(fc_text, sizeof fc_text, "%s", pq.result_error_message(last));
            if (may_fail)
                return -1;
            fc_fail(fc_text);
        }
        const char *tuples = pq.cmd_tuples(last);
        if (count)
            *count = tuples && *tuples ? atoll(tuples) : 0;
        return pq.ntuples(last) > 0;
    }
    sqlite3_stmt **stmt = (sqlite3_stmt **)&c->files[s];
    if (!*stmt && lite.prepare_v2(c->db, DB_SQL[s], -1, stmt, NULL) != SQLITE_OK)
        fc_fail(lite.errmsg(c->db));
    for (int i = 0; i < n; i++) {
        const struct arg *a = &args[i];
        if (a->type == 'i')
            lite.bind_int64(*stmt, i + 1, a->i);
        else if (a->type == 'b')
            lite.bind_blob(*stmt, i + 1, a->p, a->n, NULL);
        else
            lite.bind_text(*stmt, i + 1, a->p, a->n, NULL);
    }
    active = *stmt;
    int rc = lite.step(*stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(fc_text, sizeof fc_text, "%s", lite.errmsg(c->db));
        fc_release();
        if (may_fail)
            return -1;
        fc_fail(fc_text);
    }
    if (count)
        *count = lite.changes(c->db);
    return rc == SQLITE_ROW;
}

/* Column k of the row db_run found: its bytes (text or blob), or its number */
const unsigned char *db_bytes(int k, int *n) {
    if (last) {
        *n = pq.getlength(last, 0, k);
        return (const unsigned char *)pq.getvalue(last, 0, k);
    }
    *n = lite.column_bytes(active, k);
    const unsigned char *b = lite.column_blob(active, k);
    return b ? b : (const unsigned char *)"";
}

long long db_int(int k) {
    if (!last)
        return lite.column_int64(active, k);
    int n;
    const unsigned char *v = db_bytes(k, &n); /* binary: big-endian, 2, 4 or 8 bytes */
    long long x = n && (v[0] & 0x80) ? -1 : 0;
    for (int i = 0; i < n; i++)
        x = (long long)((unsigned long long)x << 8 | v[i]);
    return x;
}

/* A file-control statement: ?1 the dataset's name, ?2 the rid a (or the number), ?3 the bytes b: 1 a row
 * (its rid and data in *row, until the next statement), 0 none, -1 a lock attempt failed; the rows it
 * changed (ESDS's next RBA: the RBA) in *count */
int fc_run(struct connection *c, struct dataset *d, int s, const struct key *a, const unsigned char *b, int b_n,
           long long number, struct row *row, long long *count) {
    struct arg args[3] = {{'t', d->name, -1, 0}, {'b', a ? a->b : NULL, a ? a->n : 0, 0}, {'b', b, b_n, 0}};
    if (s == S_NEXT_RBA)
        args[1] = (struct arg){'i', NULL, 0, number};
    int n = b ? 3 : (a || s == S_NEXT_RBA) ? 2 : 1;
    int got = db_run(c, s, args, n, s == S_WRITER || s == S_LOCK || s == S_LOCK_NOWAIT, count);
    if (got == 1 && s == S_NEXT_RBA && count)
        *count = db_int(0);
    else if (got == 1 && row) {
        row->rid = db_bytes(0, &row->rid_n);
        row->data = db_bytes(1, &row->data_n);
    }
    return got;
}

/* A change made: PostgreSQL's savepoint after it (db.unit.Unit.changed: a failed statement later goes back
 * to here, not to the transaction's start) */
void fc_changed(struct connection *c) {
    if (!c->pg)
        return;
    if (!command(c->pg, c->savepoint ? "RELEASE SAVEPOINT cobol_mcp; SAVEPOINT cobol_mcp" : "SAVEPOINT cobol_mcp"))
        fc_fail(pq.error_message(c->pg));
    c->savepoint = 1;
}


/* The call's connection for TS and TD queues and counters: the folder's database (any dataset's plan
 * names it; the nameless one's is asked once per folder) */
struct connection *res_connection(void) { return call_connection(definition("")->database, "CICS"); }
