/*
 * Named counters run in the worker (worker_cics.h), for a call whose database work runs here: DEFINE,
 * GET, PUT, UPDATE, QUERY, REWIND and DELETE of COUNTER and DCOUNTER with POOL, with db.cics.counters'
 * statements, conditions and RESP2 values: a counter's numbers are decimal text in the database and
 * 128-bit numbers here (a DCOUNTER reaches 2**64 - 1, and a counter at its limit one past it).
 */
#include "worker_cics.h"

#include <stdio.h>
#include <string.h>

enum { SUPPRESSED = 72 }; /* db.cics.result */

/* ---------------------------------------------------------------------------------- counters */
struct counter {
    big value, minimum, maximum;
};

static big decimal(int k) {
    int n;
    const unsigned char *p = db_bytes(k, &n);
    big v = 0;
    int neg = n > 0 && p[0] == '-';
    for (int i = neg; i < n; i++)
        v = v * 10 + (p[i] - '0');
    return neg ? -v : v;
}

/* A name CICS takes (A-Z 0-9 $ @ # _; a counter's starting with neither a digit nor _), its bytes as given */
static int valid(const char *s, size_t n, int first, size_t most) {
    if (n > most || (first && n == 0))
        return 0;
    for (size_t i = 0; i < n; i++) {
        char ch = s[i];
        int letter = (ch >= 'A' && ch <= 'Z') || ch == '$' || ch == '@' || ch == '#';
        if (!(letter || (ch >= '0' && ch <= '9') || ch == '_') || (first && i == 0 && !letter))
            return 0;
    }
    return 1;
}

/* An option's bytes without trailing blanks (a NUL among them stays, and makes the name invalid) */
static size_t raw_name(const unsigned char *p, size_t n, char *out, size_t room) {
    size_t m = p ? (n < room - 1 ? n : room - 1) : 0;
    memcpy(out, p ? p : (const unsigned char *)"", m);
    while (m && out[m - 1] == ' ')
        m--;
    out[m] = 0;
    return m;
}

/* ?1 the pool, ?2 the counter; INVREQ 403/404 for names CICS would not take (0, the condition set) */
static int counter_names(struct command *k, const struct options *o, const char *word, char *pool, char *name,
                         struct arg *args) {
    size_t n = 0, m = 0;
    unsigned char *p = opt(o, "POOL", &n), *q = opt(o, word, &m);
    if (!valid(pool, raw_name(p, n, pool, 10), 0, 8))
        return cond(k, INVREQ, 403);
    if (!valid(name, raw_name(q, m, name, 18), 1, 16))
        return cond(k, INVREQ, 404);
    args[0] = (struct arg){'t', pool, -1, 0}, args[1] = (struct arg){'t', name, -1, 0};
    return 1;
}

static int counter_get(struct command *k, struct connection *c, const struct arg *names, int wide, int lock,
                       struct counter *out) {
    if (db_run(c, lock ? S_CT_GET_LOCK : S_CT_GET, names, 2, 0, NULL) != 1)
        return cond(k, INVREQ, 201); /* never defined (db.cics.counters.NOT_FOUND) */
    out->value = decimal(0), out->minimum = decimal(1), out->maximum = decimal(2);
    if (!wide && !(out->value >= -((big)1 << 31) && out->value <= ((big)1 << 31)))
        return cond(k, LENGERR, 1);
    return 1;
}

static void counter_set(struct connection *c, const struct arg *names, big value) {
    char text[48];
    text[plain(value, 0, text)] = 0;
    struct arg args[3] = {names[0], names[1], {'t', text, -1, 0}};
    db_run(c, S_CT_SET, args, 3, 0, NULL);
    fc_changed(c);
}

static int compare(big value, const big *min, const big *max) {
    int above = !min || value >= *min, below = !max || value <= *max;
    if (min && max && *max < *min)
        return above || below ? 0 : 102;
    return !above ? 102 : below ? 0 : 103;
}

void counter_command(struct command *k, const struct options *o, const char *verb, const char *word) {
    int wide = strcmp(word, "DCOUNTER") == 0;
    big low = wide ? 0 : -((big)1 << 31), high = wide ? ((big)1 << 64) - 1 : ((big)1 << 31) - 1;
    big given[6]; /* VALUE MINIMUM MAXIMUM INCREMENT COMPAREMIN COMPAREMAX; a DCOUNTER's as unsigned */
    const big *has[6];
    static const char *const NAMES[6] = {"VALUE", "MINIMUM", "MAXIMUM", "INCREMENT", "COMPAREMIN", "COMPAREMAX"};
    for (int i = 0; i < 6; i++) {
        long long v;
        has[i] = NULL;
        if (number(o, NAMES[i], &v))
            given[i] = wide && v < 0 ? (big)v + ((big)1 << 64) : (big)v, has[i] = &given[i];
    }
    big increment = has[3] && *has[3] ? *has[3] : 1;
    char pool[10], name[18];
    struct arg names[6];
    if (strcmp(verb, "DEFINE") == 0) {
        big minimum = has[1] ? *has[1] : 0, maximum = has[2] ? *has[2] : high, value = has[0] ? *has[0] : minimum;
        if (!counter_names(k, o, word, pool, name, names))
            return;
        if (!(low <= minimum && minimum <= maximum && maximum <= high && minimum <= value && value <= maximum + 1))
            return (void)cond(k, INVREQ, 406);
        char texts[3][48];
        big values[3] = {value, minimum, maximum};
        for (int i = 0; i < 3; i++)
            texts[i][plain(values[i], 0, texts[i])] = 0, names[3 + i] = (struct arg){'t', texts[i], -1, 0};
        names[2] = (struct arg){'i', NULL, 0, wide};
        long long count = 0;
        struct connection *c = res_connection();
        db_run(c, S_CT_MAKE, names, 6, 0, &count);
        fc_changed(c);
        return (void)(count ? 0 : cond(k, INVREQ, 202));
    }
    if (!counter_names(k, o, word, pool, name, names))
        return;
    struct connection *c = res_connection();
    if (strcmp(verb, "DELETE") == 0) {
        long long count = 0;
        db_run(c, S_CT_DROP, names, 2, 0, &count);
        fc_changed(c);
        return (void)(count ? 0 : cond(k, INVREQ, 201));
    }
    struct counter t = {0, 0, 0};
    if (!counter_get(k, c, names, wide, strcmp(verb, "QUERY") != 0, &t))
        return;
    unsigned char *value_out = opt(o, "VALUE", NULL);
    if (strcmp(verb, "QUERY") == 0) {
        unsigned char *outs[3] = {value_out, opt(o, "MINIMUM", NULL), opt(o, "MAXIMUM", NULL)};
        big values[3] = {t.value, t.minimum, t.maximum};
        for (int i = 0; i < 3; i++)
            if (outs[i])
                put_number(outs[i], (long long)(unsigned long long)values[i]);
        return;
    }
    if (strcmp(verb, "UPDATE") == 0) {
        big value = has[0] ? *has[0] : 0;
        if (!(t.minimum <= value && value <= t.maximum))
            return (void)cond(k, INVREQ, 406);
        int failed = compare(t.value, has[4], has[5]);
        if (failed)
            return (void)cond(k, SUPPRESSED, failed);
        return counter_set(c, names, value);
    }
    if (strcmp(verb, "REWIND") == 0) {
        if (t.value + increment <= t.maximum + 1)
            return (void)cond(k, SUPPRESSED, 104); /* not at its limit */
        return counter_set(c, names, t.minimum);
    }
    big current = t.value; /* GET or PUT */
    int get = strcmp(verb, "GET") == 0;
    if (get && current > t.maximum) { /* at its limit */
        if (!opt(o, "WRAP", NULL))
            return (void)cond(k, SUPPRESSED, 101);
        current = t.minimum;
    }
    int failed = get ? compare(current, has[4], has[5]) : 0;
    if (failed)
        return (void)cond(k, SUPPRESSED, failed);
    big after = current + increment;
    if (after > t.maximum + 1) {
        if (!opt(o, "REDUCE", NULL))
            return (void)cond(k, SUPPRESSED, 101);
        after = t.maximum + 1;
    }
    counter_set(c, names, after);
    if (get && value_out)
        put_number(value_out, (long long)(unsigned long long)current);
}

