/*
 * CICS file control's browsing run in the worker (worker_cics.h): STARTBR, READNEXT, READPREV,
 * RESETBR and ENDBR per (dataset, REQID), as db.cics.files.FileControl browses: a READPREV straight
 * after STARTBR needs STARTBR's key to be a record's (else NOTFND); STARTBR at high values with GTEQ
 * positions after the last record; a change of direction reads the same record again; a RIDFLD the
 * program changed between reads repositions the browse (skip-sequential), by GTEQ or EQUAL as it began.
 */
#include "worker_cics.h"

#include <stdlib.h>
#include <string.h>

struct browse {
    struct browse *next;
    struct dataset *d;
    long long reqid;
    int open, inclusive, forward, has_last, generic, gteq, has_asked; /* generic: its length, or -1 */
    struct key pos, last, asked; /* where the next read starts; the last one's rid; STARTBR's key, not found */
};
static struct browse *browses;

static struct browse *browse_of(struct dataset *d, long long reqid, int make) {
    for (struct browse *b = browses; b; b = b->next)
        if (b->d == d && b->reqid == reqid && (b->open || make))
            return b;
    if (!make)
        return NULL;
    struct browse *b = calloc(1, sizeof *b);
    b->d = d, b->reqid = reqid, b->next = browses, browses = b;
    return b;
}

void fc_browses_end(void) {
    for (struct browse *b = browses; b; b = b->next)
        b->open = 0;
}

/* STARTBR (reset 0) or RESETBR (1): the browse positioned at its first record */
void fc_startbr(struct command *k, struct connection *c, struct dataset *d, int reset) {
    long long reqid = k->reqid ? number_of(k->reqid) : 0;
    struct browse *b = browse_of(d, reqid, 0);
    if (!reset && b)
        return (void)cond(k, INVREQ, 33);
    if (reset && !b)
        return (void)cond(k, INVREQ, 35);
    int gteq = !k->equal; /* CICS's default for STARTBR and RESETBR */
    struct key key;
    if (!fc_rid(k, d, &key))
        return;
    struct row r;
    int got = fc_run(c, d, !gteq && !k->generic ? S_EQUAL : S_GTEQ, &key, NULL, 0, 0, &r, NULL);
    if (got && k->generic && !gteq && !fc_starts(r.rid, r.rid_n, &key))
        got = 0;
    if (!got) {
        int high = gteq && key.n > 0;
        for (int i = 0; high && i < key.n; i++)
            high = key.b[i] == 0xFF;
        if (!high)
            return (void)cond(k, NOTFND, 80);
        b = browse_of(d, reqid, 1); /* high values: READPREV from the last record */
        memset(b->pos.b, 0xFF, 256);
        b->pos.n = 256, b->inclusive = 0, b->forward = 0, b->has_last = 0, b->generic = -1, b->gteq = 0;
        b->has_asked = 0, b->open = 1;
        return;
    }
    b = browse_of(d, reqid, 1);
    fc_key(&b->pos, r.rid, r.rid_n);
    b->inclusive = 1, b->forward = 1, b->has_last = 0, b->generic = k->generic ? key.n : -1, b->gteq = gteq;
    b->has_asked = !(r.rid_n == key.n && memcmp(r.rid, key.b, (size_t)key.n) == 0) && !k->generic;
    b->asked = key, b->open = 1;
}

/* READNEXT or READPREV */
void fc_browse(struct command *k, struct connection *c, struct dataset *d) {
    int forward = k->verb == V_READNEXT;
    struct browse *b = browse_of(d, k->reqid ? number_of(k->reqid) : 0, 0);
    if (!b)
        return (void)cond(k, INVREQ, 34);
    if (!forward && b->generic >= 0)
        return (void)cond(k, INVREQ, 41); /* a browse started with GENERIC cannot go backwards */
    if (!forward && !b->has_last && b->has_asked)
        return (void)cond(k, NOTFND, 80); /* READPREV first: STARTBR's key must be a record's */
    int moved = 0;
    struct row r;
    if (b->has_last && d->org == KSDS) { /* the program changed RIDFLD: skip-sequential from the new key */
        struct key key;
        int length = b->generic > 0 ? b->generic : (int)d->key_length;
        fc_key(&key, k->ridfld, length < (int)k->ridfld_n ? length : (int)k->ridfld_n);
        int prefix_differs = key.n > b->last.n || memcmp(key.b, b->last.b, (size_t)key.n) != 0;
        int whole_differs = key.n != b->last.n || memcmp(key.b, b->last.b, (size_t)key.n) != 0;
        if (prefix_differs || (b->generic < 0 && whole_differs)) {
            int got = fc_run(c, d, !b->gteq && b->generic < 0 ? S_EQUAL : S_GTEQ, &key, NULL, 0, 0, &r, NULL);
            if (!got || (!b->gteq && !fc_starts(r.rid, r.rid_n, &key)))
                return (void)cond(k, NOTFND, 80);
            fc_key(&b->pos, r.rid, r.rid_n);
            b->inclusive = 1, moved = 1;
        }
    }
    if (!moved && b->forward != forward && b->has_last)
        b->inclusive = 1; /* a change of direction reads the same record again */
    b->forward = forward;
    int s = forward ? (b->inclusive ? S_GTEQ : S_AFTER) : (b->inclusive ? S_BEFORE_EQ : S_BEFORE);
    if (!fc_run(c, d, s, &b->pos, NULL, 0, 0, &r, NULL))
        return (void)cond(k, ENDFILE, 90);
    fc_key(&b->pos, r.rid, r.rid_n);
    b->last = b->pos, b->has_last = 1, b->inclusive = 0;
    fc_read_result(k, &r);
    fc_rid_back(k, d, r.rid, r.rid_n);
}

void fc_endbr(struct command *k, struct dataset *d) {
    struct browse *b = browse_of(d, k->reqid ? number_of(k->reqid) : 0, 0);
    if (!b)
        return (void)cond(k, INVREQ, 35);
    b->open = 0;
}
