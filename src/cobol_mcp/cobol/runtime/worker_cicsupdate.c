/*
 * CICS file control's updates run in the worker (worker_cics.h): READ UPDATE, REWRITE, DELETE and
 * UNLOCK, as db.cics.files.FileControl has them. A READ UPDATE holds its record until REWRITE, DELETE,
 * UNLOCK or the unit's end; the lock is the database's: SQLite's write lock, taken before the record is
 * read (NOSUSPEND: not waited for, RECORDBUSY), PostgreSQL's row lock (SELECT … FOR UPDATE [NOWAIT],
 * under a savepoint of its own so that a lock not granted aborts nothing). A lock not granted otherwise
 * abends the task with AFCV, as on the server's way.
 */
#include "worker_cics.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct hold { /* a READ UPDATE's record, per dataset */
    struct hold *next;
    struct dataset *d;
    struct key rid;
    int held;
};
static struct hold *holds;

static struct hold *hold_of(struct dataset *d, int make) {
    for (struct hold *h = holds; h; h = h->next)
        if (h->d == d)
            return h;
    if (!make)
        return NULL;
    struct hold *h = calloc(1, sizeof *h);
    h->d = d, h->next = holds, holds = h;
    return h;
}

void fc_holds_end(void) {
    for (struct hold *h = holds; h; h = h->next)
        h->held = 0;
}

static int lock_failed(struct command *k, struct dataset *d) {
    snprintf(k->abend, sizeof k->abend, "AFCV");
    size_t n = strlen(fc_text);
    while (n && (fc_text[n - 1] == '\n' || fc_text[n - 1] == ' '))
        fc_text[--n] = 0;
    snprintf(k->why, sizeof k->why, "READ UPDATE of %s: the record lock was not granted: %s", d->name, fc_text);
    return 0;
}

/* SQLite: the database's write lock, before the record is read (so it is read as last committed) */
static int lock_writer(struct command *k, struct connection *c, struct dataset *d) {
    if (c->pg)
        return 1;
    if (k->nosuspend)
        lite.busy_timeout(c->db, 0);
    int got = fc_run(c, d, S_WRITER, NULL, NULL, 0, 0, NULL, NULL);
    if (k->nosuspend)
        lite.busy_timeout(c->db, BUSY_TIMEOUT_MS);
    if (got >= 0)
        return 1;
    return k->nosuspend ? cond(k, RECORDBUSY, 107) : lock_failed(k, d);
}

/* PostgreSQL: the record's row lock (SQLite: the write lock is already held) */
static int lock_row(struct command *k, struct connection *c, struct dataset *d, const struct key *rid) {
    if (!c->pg)
        return 1;
    if (!command(c->pg, "SAVEPOINT cics_attempt"))
        fc_fail(pq.error_message(c->pg));
    int got = fc_run(c, d, k->nosuspend ? S_LOCK_NOWAIT : S_LOCK, rid, NULL, 0, 0, NULL, NULL);
    if (!command(c->pg, got < 0 ? "ROLLBACK TO SAVEPOINT cics_attempt" : "RELEASE SAVEPOINT cics_attempt"))
        fc_fail(pq.error_message(c->pg));
    if (got < 0)
        return k->nosuspend && strcmp(fc_state, "55P03") == 0 ? cond(k, RECORDBUSY, 107) : lock_failed(k, d);
    fc_changed(c);
    return 1;
}

void fc_read_update(struct command *k, struct connection *c, struct dataset *d, const struct key *key) {
    if (!lock_writer(k, c, d))
        return;
    struct row r;
    if (!fc_find(k, c, d, key, &r))
        return;
    struct key rid;
    fc_key(&rid, r.rid, r.rid_n);
    if (c->pg) { /* the row locked, then read again as it is now the lock is held (gone: as it was read) */
        static unsigned char *was;
        static size_t room;
        was = grow(was, &room, (size_t)r.data_n + 1);
        memcpy(was, r.data, (size_t)r.data_n);
        struct row before = {rid.b, was, rid.n, r.data_n};
        if (!lock_row(k, c, d, &rid))
            return;
        if (!fc_run(c, d, S_EQUAL, &rid, NULL, 0, 0, &r, NULL))
            r = before;
    }
    struct hold *h = hold_of(d, 1);
    h->rid = rid, h->held = 1;
    fc_read_result(k, &r);
}

void fc_rewrite(struct command *k, struct connection *c, struct dataset *d) {
    struct hold *h = hold_of(d, 0);
    if (!h || !h->held)
        return (void)cond(k, INVREQ, 30);
    int n = fc_from_length(k);
    if (fc_length_error(k, d, n))
        return;
    if (d->org == KSDS && ((int)d->key_length != h->rid.n || memcmp(k->from + d->key_offset, h->rid.b, d->key_length)))
        return (void)cond(k, INVREQ, 0); /* VSAM keeps a record's key: a REWRITE cannot change it */
    h->held = 0;
    fc_run(c, d, S_REWRITE, &h->rid, k->from, n, 0, NULL, NULL);
    fc_changed(c);
}

static void delete_count(struct command *k, long long count) {
    if (k->numrec)
        put_number(k->numrec, count);
}

void fc_delete(struct command *k, struct connection *c, struct dataset *d) {
    if (d->org == ESDS)
        return (void)cond(k, INVREQ, 20);
    struct hold *h = hold_of(d, 0);
    long long count = 0;
    if (!k->ridfld) { /* the record READ UPDATE holds */
        if (!h || !h->held)
            return (void)cond(k, INVREQ, 21);
        h->held = 0;
        fc_run(c, d, S_DELETE, &h->rid, NULL, 0, 0, NULL, &count);
        fc_changed(c);
        return delete_count(k, 1);
    }
    struct key key;
    if (!fc_rid(k, d, &key))
        return;
    if (k->generic) { /* every record whose key starts so: up to the least bytes above them all */
        struct key upper = key;
        while (upper.n && upper.b[upper.n - 1] == 0xFF)
            upper.n--;
        if (upper.n) {
            upper.b[upper.n - 1]++;
            fc_run(c, d, S_DELETE_RANGE, &key, upper.b, upper.n, 0, NULL, &count);
        } else {
            fc_run(c, d, S_DELETE_FROM, &key, NULL, 0, 0, NULL, &count);
        }
    } else {
        fc_run(c, d, S_DELETE, &key, NULL, 0, 0, NULL, &count);
    }
    fc_changed(c);
    if (count == 0)
        return (void)cond(k, NOTFND, 80);
    if (h && h->held && fc_starts(h->rid.b, h->rid.n, &key))
        h->held = 0;
    delete_count(k, count);
}

void fc_unlock(struct command *k, struct dataset *d) {
    (void)k;
    struct hold *h = hold_of(d, 0);
    if (h)
        h->held = 0;
}
