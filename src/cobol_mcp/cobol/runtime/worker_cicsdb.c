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
static const char *const SQL[S_COUNT] = {
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
};

void fc_fail(const char *why) {
    fprintf(stderr, "cobol-mcp worker: CICS file control: %s\n", why);
    _exit(70);
}

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

static uint32_t u32(const unsigned char **p, const unsigned char *end, unsigned size) {
    uint32_t v = 0;
    if ((size_t)(end - *p) < size)
        fc_fail("the server's plan of a dataset does not read");
    for (unsigned i = 0; i < size; i++)
        v |= (uint32_t)(*p)[i] << (8 * i);
    *p += size;
    return v;
}

static char *text(const unsigned char **p, const unsigned char *end) {
    uint32_t n = u32(p, end, 2);
    if ((size_t)(end - *p) < n)
        fc_fail("the server's plan of a dataset does not read");
    char *t = malloc(n + 1);
    memcpy(t, *p, n);
    t[n] = 0;
    *p += n;
    return t;
}

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
    const unsigned char *p = plan_asked(&n), *end = p + n;
    struct dataset *d = calloc(1, sizeof *d);
    snprintf(d->file, sizeof d->file, "%s", file);
    d->folder = sql_folder;
    d->found = (int)u32(&p, end, 1), d->org = (int)u32(&p, end, 1);
    d->min = u32(&p, end, 4), d->max = u32(&p, end, 4);
    d->key_length = u32(&p, end, 4), d->key_offset = u32(&p, end, 4);
    d->name = text(&p, end), d->database = text(&p, end);
    if (d->org > RRDS || d->key_length > 255 || d->key_offset > d->max)
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

static int pg_statement_run(struct connection *c, int s, const char *const *values, const int *lengths,
                            const int *formats, int n) {
    if (c->files_session != c->session)
        c->files_prepared = 0, c->files_session = c->session;
    char name[24];
    snprintf(name, sizeof name, "cobol_mcp_f%d", s);
    if (!(c->files_prepared & (1u << s))) {
        char sql[160];
        snprintf(sql, sizeof sql, "%s", SQL[s]);
        for (char *q = sql; *q; q++)
            if (*q == '?')
                *q = '$';
        unsigned types[3] = {25, s == S_NEXT_RBA ? 20 : 17, 17};
        PGresult *r = pq.prepare(c->pg, name, sql, n, types);
        if (pq.result_status(r) != PGRES_COMMAND_OK) {
            snprintf(fc_text, sizeof fc_text, "%s", pq.result_error_message(r));
            pq.clear(r);
            fc_fail(fc_text);
        }
        pq.clear(r);
        c->files_prepared |= 1u << s;
    }
    last = pq.exec_prepared(c->pg, name, n, values, lengths, formats, 1);
    int status = pq.result_status(last);
    return status == PGRES_COMMAND_OK || status == PGRES_TUPLES_OK;
}

/* Statement s with ?1 the dataset's name, ?2 the rid a (or the number), ?3 the bytes b: 1 a row (in *row,
 * until the next statement), 0 none; -1 a lock attempt failed (fc_state, fc_text). The rows it changed
 * (ESDS's next RBA: the RBA) in *count. */
int fc_run(struct connection *c, struct dataset *d, int s, const struct key *a, const unsigned char *b, int b_n,
           long long number, struct row *row, long long *count) {
    fc_release();
    int lock = s == S_WRITER || s == S_LOCK || s == S_LOCK_NOWAIT;
    if (c->pg) {
        char digits[24];
        snprintf(digits, sizeof digits, "%lld", number);
        const char *values[3] = {d->name, s == S_NEXT_RBA ? digits : (const char *)(a ? a->b : NULL), (const char *)b};
        int lengths[3] = {0, a ? a->n : 0, b_n}, formats[3] = {0, s != S_NEXT_RBA, 1};
        int n = b ? 3 : (a || s == S_NEXT_RBA) ? 2 : 1;
        if (!pg_statement_run(c, s, values, lengths, formats, n)) {
            const char *state = pq.result_error_field(last, DIAG_SQLSTATE);
            snprintf(fc_state, sizeof fc_state, "%s", state ? state : "");
            snprintf(fc_text, sizeof fc_text, "%s", pq.result_error_message(last));
            if (lock)
                return -1;
            fc_fail(fc_text);
        }
        const char *tuples = pq.cmd_tuples(last);
        if (count)
            *count = tuples && *tuples ? atoll(tuples) : 0;
        if (pq.ntuples(last) == 0)
            return 0;
        if (s == S_NEXT_RBA && count) {
            const unsigned char *v = (const unsigned char *)pq.getvalue(last, 0, 0);
            long long rba = 0;
            for (int i = 0; i < pq.getlength(last, 0, 0); i++)
                rba = rba << 8 | v[i];
            *count = rba;
        }
        if (row) {
            row->rid = (const unsigned char *)pq.getvalue(last, 0, 0), row->rid_n = pq.getlength(last, 0, 0);
            row->data = (const unsigned char *)pq.getvalue(last, 0, 1), row->data_n = pq.getlength(last, 0, 1);
        }
        return 1;
    }
    sqlite3_stmt **stmt = (sqlite3_stmt **)&c->files[s];
    if (!*stmt && lite.prepare_v2(c->db, SQL[s], -1, stmt, NULL) != SQLITE_OK)
        fc_fail(lite.errmsg(c->db));
    lite.bind_text(*stmt, 1, d->name, -1, NULL);
    if (s == S_NEXT_RBA)
        lite.bind_int64(*stmt, 2, number);
    else if (a)
        lite.bind_blob(*stmt, 2, a->b, a->n, NULL);
    if (b)
        lite.bind_blob(*stmt, 3, b, b_n, NULL);
    active = *stmt;
    int rc = lite.step(*stmt);
    if (rc != SQLITE_ROW && rc != SQLITE_DONE) {
        snprintf(fc_text, sizeof fc_text, "%s", lite.errmsg(c->db));
        fc_release();
        if (lock)
            return -1;
        fc_fail(fc_text);
    }
    if (count)
        *count = s == S_NEXT_RBA && rc == SQLITE_ROW ? lite.column_int64(*stmt, 0) : lite.changes(c->db);
    if (rc != SQLITE_ROW)
        return 0;
    if (row) {
        row->rid = lite.column_blob(*stmt, 0), row->rid_n = lite.column_bytes(*stmt, 0);
        row->data = lite.column_blob(*stmt, 1), row->data_n = lite.column_bytes(*stmt, 1);
    }
    return 1;
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

