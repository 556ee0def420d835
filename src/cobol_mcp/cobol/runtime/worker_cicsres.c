/*
 * TS and TD queues and named counters run in the worker (worker_cics.h), for a call whose database work
 * runs here: WRITEQ/READQ/DELETEQ TS (ITEM, REWRITE, NEXT, NUMITEMS), READQ/DELETEQ TD and WRITEQ TD
 * to an intrapartition queue (named counters: worker_cicscounter.c), with db.cics.queues' statements,
 * conditions and RESP2 values. WRITEQ TD to CSMT or CSSL, a line of the server's log, stays the
 * server's (it touches no database).
 */
#include "worker_cics.h"

#include <libcob.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

enum { QIDERR = 44, ITEMERR = 26, QZERO = 23 }; /* db.cics.result */
#define MAX_ITEM 32763

unsigned char *opt(const struct options *o, const char *name, size_t *size) {
    for (int i = 0; i < o->n; i++)
        if (strcmp(o->name[i], name) == 0) {
            if (size)
                *size = o->size[i];
            return o->data[i] ? o->data[i] : (unsigned char *)"";
        }
    return NULL;
}

long long *number(const struct options *o, const char *name, long long *out) {
    size_t n;
    unsigned char *p = opt(o, name, &n);
    if (!p || n < 8)
        return NULL;
    *out = number_of(p);
    return out;
}

/* A name as the server takes it: the bytes without trailing blanks (a NUL among them kept), their length;
 * 0 for blanks or zeros alone */
static int name_of(const unsigned char *p, size_t n, char *out, size_t room) {
    size_t m = n < room - 1 ? n : room - 1, used = 0;
    memcpy(out, p, m);
    while (m && out[m - 1] == ' ')
        m--;
    out[m] = 0;
    for (size_t i = 0; i < m; i++)
        used |= out[i] != ' ' && out[i] != 0;
    return used ? (int)m : 0;
}

/* ---------------------------------------------------------------------------------- TS */
static void ts_command(struct command *k, const struct options *o, const char *verb) {
    size_t n = 0;
    unsigned char *q = opt(o, "QNAME", &n);
    if (!q)
        q = opt(o, "QUEUE", &n);
    char name[17];
    int name_n = name_of(q ? q : (unsigned char *)"", q ? n : 0, name, sizeof name);
    if (!name_n)
        return (void)cond(k, INVREQ, 0);
    struct connection *c = res_connection();
    struct arg key = {'t', name, name_n, 0};
    long long v, count;
    if (strcmp(verb, "DELETEQ TS") == 0) {
        db_run(c, S_TS_DROP, &key, 1, 0, &count);
        fc_changed(c);
        if (count == 0)
            return (void)cond(k, QIDERR, 0);
        db_run(c, S_TS_ITEMS_DROP, &key, 1, 0, NULL);
        return fc_changed(c);
    }
    unsigned char *numitems = opt(o, "NUMITEMS", &n), *item = opt(o, "ITEM", NULL);
    if (strcmp(verb, "WRITEQ TS") == 0) {
        size_t from_n = 0;
        unsigned char *from = opt(o, "FROM", &from_n);
        int len = slice_length(from_n, number(o, "LENGTH", &v) ? opt(o, "LENGTH", NULL) : NULL);
        if (len <= 0 || len > MAX_ITEM)
            return (void)cond(k, LENGERR, 0);
        long long which = 0;
        if (opt(o, "REWRITE", NULL)) {
            if (db_run(c, S_TS_ITEMS, &key, 1, 0, NULL) != 1)
                return (void)cond(k, QIDERR, 0);
            long long items = db_int(0);
            if (!number(o, "ITEM", &which) || which < 1 || which > items)
                return (void)cond(k, ITEMERR, 0);
            struct arg args[3] = {key, {'i', NULL, 0, which}, {'b', from, len, 0}};
            db_run(c, S_TS_ITEM_SET, args, 3, 0, NULL);
            fc_changed(c);
            if (numitems)
                put_number(numitems, items);
            return;
        }
        db_run(c, S_TS_MAKE, &key, 1, 0, NULL);
        fc_changed(c);
        db_run(c, S_TS_ADD, &key, 1, 0, NULL);
        which = db_int(0);
        struct arg args[3] = {key, {'i', NULL, 0, which}, {'b', from, len, 0}};
        db_run(c, S_TS_ITEM_ADD, args, 3, 0, NULL);
        fc_changed(c);
        if (item)
            put_number(item, which);
        if (numitems)
            put_number(numitems, which);
        return;
    }
    /* READQ TS: ITEM(n), else the next */
    if (db_run(c, S_TS_STATE, &key, 1, 0, NULL) != 1)
        return (void)cond(k, QIDERR, 0);
    long long items = db_int(0), which = db_int(1);
    if (!opt(o, "NEXT", NULL) && number(o, "ITEM", &v))
        which = v;
    if (numitems)
        put_number(numitems, items);
    if (which < 1 || which > items)
        return (void)cond(k, ITEMERR, 0);
    struct arg args[2] = {key, {'i', NULL, 0, which}};
    if (db_run(c, S_TS_ITEM_GET, args, 2, 0, NULL) != 1)
        fc_fail("a TS queue's item is gone");
    struct row r = {NULL, NULL, 0, 0};
    r.data = db_bytes(0, &r.data_n);
    k->into = opt(o, "INTO", &k->into_n), k->length = opt(o, "LENGTH", NULL);
    fc_read_result(k, &r);
    if (k->resp_)
        k->resp2_ = 0; /* (TS's LENGERR has RESP2 0) */
    struct arg next[2] = {key, {'i', NULL, 0, which + 1}};
    db_run(c, S_TS_NEXT, next, 2, 0, NULL);
    fc_changed(c);
}

/* ---------------------------------------------------------------------------------- TD */
/* 0: WRITEQ TD to a log queue, the server's */
static int td_command(struct command *k, const struct options *o, const char *verb) {
    size_t n = 0;
    unsigned char *q = opt(o, "QUEUE", &n);
    char name[9];
    int name_n = name_of(q ? q : (unsigned char *)"", q ? n : 0, name, sizeof name);
    int log = name_n == 4 && (memcmp(name, "CSMT", 4) == 0 || memcmp(name, "CSSL", 4) == 0);
    if (strcmp(verb, "WRITEQ TD") == 0 && log)
        return 0;
    if (!name_n)
        return cond(k, QIDERR, 0), 1;
    struct arg key = {'t', name, name_n, 0};
    long long v;
    if (strcmp(verb, "DELETEQ TD") == 0) {
        if (!log) {
            db_run(res_connection(), S_TD_DROP, &key, 1, 0, NULL);
            fc_changed(res_connection());
        }
        return 1;
    }
    if (strcmp(verb, "WRITEQ TD") == 0) {
        size_t from_n = 0;
        unsigned char *from = opt(o, "FROM", &from_n);
        int len = slice_length(from_n, number(o, "LENGTH", &v) ? opt(o, "LENGTH", NULL) : NULL);
        if (len <= 0 || len > MAX_ITEM)
            return cond(k, LENGERR, 0), 1;
        struct arg args[2] = {key, {'b', from, len, 0}};
        struct connection *c = res_connection();
        db_run(c, S_TD_ADD, args, 2, 0, NULL);
        fc_changed(c);
        return 1;
    }
    if (log) /* READQ TD of an output-only extrapartition queue */
        return cond(k, INVREQ, 0), 1;
    struct connection *c = res_connection();
    if (db_run(c, S_TD_FIRST, &key, 1, 0, NULL) != 1)
        return cond(k, QZERO, 0), 1;
    long long seq = db_int(0);
    int data_n;
    const unsigned char *data = db_bytes(1, &data_n);
    static unsigned char *copy;
    static size_t room;
    copy = grow(copy, &room, (size_t)data_n + 1);
    memcpy(copy, data, (size_t)data_n);
    struct arg take = {'i', NULL, 0, seq};
    db_run(c, S_TD_TAKE, &take, 1, 0, NULL);
    fc_changed(c);
    struct row r = {NULL, copy, 0, data_n};
    k->into = opt(o, "INTO", &k->into_n), k->length = opt(o, "LENGTH", NULL);
    fc_read_result(k, &r);
    if (k->resp_)
        k->resp2_ = 0;
    return 1;
}

/* ---------------------------------------------------------------------------------- the command */
/* A CALL 'CICSRT' of a queue or counter command run here (1), or not one run here (0: the server's) */
int cics_resource(int count) {
    if (count < 3 || count > MAX_ARGS || cob_get_param_size(2) < 85)
        return 0;
    const char *parts[MAX_PARTS];
    size_t lens[MAX_PARTS];
    int nparts = descriptor_parts(parts, lens, MAX_PARTS), param = 4;
    struct command k;
    struct options o;
    memset(&k, 0, sizeof k);
    o.n = 0;
    char verb[24] = {0};
    if (nparts < 2 || lens[1] >= sizeof verb)
        return 0;
    memcpy(verb, parts[1], lens[1]);
    k.line = atoi(parts[0]);
    for (int i = 2; i < nparts; i++) {
        const char *w = parts[i];
        size_t len = lens[i];
        int has_param = len > 2 && w[len - 1] == ')' && w[len - 2] == '(';
        size_t name_n = has_param ? len - 2 : len;
        if (o.n == MAX_OPTIONS || name_n >= sizeof o.name[0] || (has_param && param > count))
            return 0;
        memcpy(o.name[o.n], w, name_n);
        o.name[o.n][name_n] = 0;
        o.data[o.n] = has_param ? cob_get_param_data(param) : NULL;
        o.size[o.n] = has_param ? cics_param_size(param++) : 0;
        o.n++;
    }
    if (param != count + 1 || opt(&o, "SET", NULL))
        return 0;
    k.eib = cob_get_param_data(2);
    k.resp = opt(&o, "RESP", NULL), k.resp2 = opt(&o, "RESP2", NULL), k.nohandle = opt(&o, "NOHANDLE", NULL) != NULL;
    const char *space = strchr(verb, ' ');
    unsigned fn = 0;
    if (space && (strcmp(space, " COUNTER") == 0 || strcmp(space, " DCOUNTER") == 0)) {
        char what[16];
        snprintf(what, sizeof what, "%.*s", (int)(space - verb), verb);
        counter_command(&k, &o, what, space + 1);
    } else if (strcmp(verb, "WRITEQ TS") == 0 || strcmp(verb, "READQ TS") == 0 || strcmp(verb, "DELETEQ TS") == 0) {
        ts_command(&k, &o, verb);
        fn = verb[0] == 'W' ? 0x0A02 : verb[0] == 'R' ? 0x0A04 : 0x0A06; /* precompile.cics_table */
    } else if (strcmp(verb, "WRITEQ TD") == 0 || strcmp(verb, "READQ TD") == 0 || strcmp(verb, "DELETEQ TD") == 0) {
        if (!td_command(&k, &o, verb))
            return 0;
        fn = verb[0] == 'W' ? 0x0802 : verb[0] == 'R' ? 0x0804 : 0x0806;
    } else {
        return 0;
    }
    fc_release();
    return fc_finish(&k, verb, fn);
}
