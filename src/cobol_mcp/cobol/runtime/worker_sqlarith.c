/*
 * DB2's exact DECIMAL arithmetic on SQLite, in the worker: the functions db.exact defines on the
 * server's connections (DB2_DEC, DB2_ADD, DB2_SUB, DB2_MUL, DB2_DIV, DB2_NEG, DB2_CMP, DB2_STORE,
 * DB2_DECIMAL, DB2_CHAR, the aggregates DB2_SUM and DB2_AVG; DB2_DATEADD in worker_sqldate.c), defined
 * on the worker's SQLite connections with the same results. Values travel as exact decimal text, as
 * there; here a value is a sign, decimal digits and a scale (struct dec), as Python's Decimal is, with
 * its signs of zero. A failure (-802, -406, -420) is kept for driver_error, as db.exact.failure keeps it.
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

struct failure arith_failure;

void arith_fail(sqlite3_context *ctx, int code, const char *state, const char *text) {
    arith_failure.code = code;
    snprintf(arith_failure.state, sizeof arith_failure.state, "%s", state);
    snprintf(arith_failure.text, sizeof arith_failure.text, "%s", text);
    arith_failure.set = 1;
    lite.result_error(ctx, text, -1);
}

void dec_trim(struct dec *x) {
    while (x->n > 1 && x->d[x->n - 1] == 0)
        x->n--;
}

int dec_zero(const struct dec *x) { return x->n == 1 && x->d[0] == 0; }

int dec_from_text(const unsigned char *s, size_t len, struct dec *x) {
    memset(x, 0, sizeof *x);
    size_t i = 0;
    while (i < len && (s[i] == ' ' || (s[i] >= 9 && s[i] <= 13)))
        i++;
    while (len > i && (s[len - 1] == ' ' || (s[len - 1] >= 9 && s[len - 1] <= 13)))
        len--;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        x->neg = s[i++] == '-';
    unsigned char digits[MAXD];
    int k = 0, dot = 0, frac = 0;
    for (; i < len && ((s[i] >= '0' && s[i] <= '9') || (s[i] == '.' && !dot)); i++) {
        if (s[i] == '.') {
            dot = 1;
            continue;
        }
        if (k >= MAXD - 40)
            return 0;
        digits[k++] = (unsigned char)(s[i] - '0'), frac += dot;
    }
    if (!k)
        return 0;
    int exp = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        int eneg = 0, ed = 0;
        if (++i < len && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        for (; i < len && s[i] >= '0' && s[i] <= '9' && exp < 1000; i++, ed++)
            exp = exp * 10 + (s[i] - '0');
        if (!ed)
            return 0;
        exp = eneg ? -exp : exp;
    }
    if (i != len)
        return 0;
    x->scale = frac - exp;
    int zeros = x->scale < 0 ? -x->scale : 0; /* 1E+2: 100, scale 0 */
    if (zeros + k >= MAXD - 40 || x->scale > MAXD - 40)
        return 0;
    x->n = 0;
    for (int z = 0; z < zeros; z++)
        x->d[x->n++] = 0;
    for (int j = k - 1; j >= 0; j--)
        x->d[x->n++] = digits[j];
    if (x->scale < 0)
        x->scale = 0;
    dec_trim(x);
    return 1;
}

void dec_from_int(long long v, struct dec *x) {
    memset(x, 0, sizeof *x);
    x->neg = v < 0;
    unsigned long long u = v < 0 ? 0ULL - (unsigned long long)v : (unsigned long long)v;
    do {
        x->d[x->n++] = (unsigned char)(u % 10);
        u /= 10;
    } while (u);
}

/* A value of a function's argument (db.exact._dec): NULL -> 0 (no value), else 1; -420 when no number */
int dec_arg(sqlite3_context *ctx, sqlite3_value *v, struct dec *x, int *ok) {
    int type = lite.value_type(v);
    *ok = 1;
    if (type == SQLITE_NULL)
        return 0;
    if (type == SQLITE_INTEGER) {
        dec_from_int(lite.value_int64(v), x);
        return 1;
    }
    char text[64];
    const unsigned char *s;
    size_t len;
    if (type == SQLITE_FLOAT) {
        len = float_text(lite.value_double(v), text);
        s = (const unsigned char *)text;
    } else {
        s = lite.value_text(v);
        len = (size_t)lite.value_bytes(v);
    }
    if (!s || !dec_from_text(s, len, x)) {
        char why[120];
        snprintf(why, sizeof why, "'%.60s' is not a number", s ? (const char *)s : "");
        arith_fail(ctx, -420, "22018", why);
        *ok = 0;
    }
    return 1;
}

void dec_align(struct dec *x, int scale) { /* more decimals, same value */
    int k = scale - x->scale;
    if (k <= 0 || x->n + k >= MAXD)
        return;
    memmove(x->d + k, x->d, (size_t)x->n);
    memset(x->d, 0, (size_t)k);
    x->n += k, x->scale = scale;
}

static int cmp_abs(const struct dec *a, const struct dec *b) { /* same scale */
    if (a->n != b->n)
        return a->n > b->n ? 1 : -1;
    for (int i = a->n - 1; i >= 0; i--)
        if (a->d[i] != b->d[i])
            return a->d[i] > b->d[i] ? 1 : -1;
    return 0;
}

static void add_abs(struct dec *r, const struct dec *a, const struct dec *b) {
    int carry = 0, n = a->n > b->n ? a->n : b->n;
    for (int i = 0; i < n; i++) {
        int s = (i < a->n ? a->d[i] : 0) + (i < b->n ? b->d[i] : 0) + carry;
        r->d[i] = (unsigned char)(s % 10), carry = s / 10;
    }
    r->n = n;
    if (carry && n < MAXD)
        r->d[r->n++] = (unsigned char)carry;
}

static void sub_abs(struct dec *r, const struct dec *a, const struct dec *b) { /* |a| >= |b| */
    int borrow = 0;
    for (int i = 0; i < a->n; i++) {
        int s = a->d[i] - (i < b->n ? b->d[i] : 0) - borrow;
        borrow = s < 0, r->d[i] = (unsigned char)(s < 0 ? s + 10 : s);
    }
    r->n = a->n;
    dec_trim(r);
}

/* a + b (Decimal's add: an exact zero is negative only when both were) */
void dec_add(struct dec a, struct dec b, struct dec *r) {
    int scale = a.scale > b.scale ? a.scale : b.scale;
    dec_align(&a, scale), dec_align(&b, scale);
    memset(r, 0, sizeof *r);
    r->scale = scale;
    if (a.neg == b.neg) {
        add_abs(r, &a, &b);
        r->neg = a.neg;
    } else if (cmp_abs(&a, &b) >= 0) {
        sub_abs(r, &a, &b);
        r->neg = a.neg;
    } else {
        sub_abs(r, &b, &a);
        r->neg = b.neg;
    }
    if (dec_zero(r))
        r->neg = a.neg && b.neg;
}

void dec_mul(const struct dec *a, const struct dec *b, struct dec *r) {
    int acc[2 * MAXD] = {0};
    for (int i = 0; i < a->n; i++)
        for (int j = 0; j < b->n && i + j < MAXD; j++)
            acc[i + j] += a->d[i] * b->d[j];
    memset(r, 0, sizeof *r);
    int carry = 0, n = a->n + b->n < MAXD ? a->n + b->n : MAXD;
    for (int i = 0; i < n; i++) {
        int s = acc[i] + carry;
        r->d[i] = (unsigned char)(s % 10), carry = s / 10;
    }
    r->n = n, r->scale = a->scale + b->scale, r->neg = a->neg != b->neg;
    dec_trim(r);
}

/* x cut (never rounded) to `scale` decimals, or given more zeros: Decimal.quantize(ROUND_DOWN) */
void dec_truncate(struct dec *x, int scale) {
    if (x->scale < scale) {
        dec_align(x, scale);
        return;
    }
    int k = x->scale - scale;
    if (k >= x->n) {
        memset(x->d, 0, sizeof x->d);
        x->n = 1;
    } else {
        memmove(x->d, x->d + k, (size_t)(x->n - k));
        x->n -= k;
    }
    x->scale = scale;
    dec_trim(x);
}

/* a / b cut at `scale` decimals (b not zero) */
void dec_div(struct dec a, struct dec b, int scale, struct dec *r) {
    /* |a| × 10^(scale + b.scale - a.scale) integer-divided by |b| (as integers) */
    int shift = scale + b.scale - a.scale;
    struct dec num = a, den = b;
    num.neg = den.neg = 0, num.scale = den.scale = 0;
    if (shift > 0)
        dec_align(&num, shift), num.scale = 0;
    else if (shift < 0)
        num.scale = -shift, dec_truncate(&num, 0);
    memset(r, 0, sizeof *r);
    struct dec rest = {0, 0, 1, {0}};
    for (int i = num.n - 1; i >= 0; i--) { /* long division, a digit at a time */
        memmove(rest.d + 1, rest.d, (size_t)rest.n);
        rest.d[0] = num.d[i], rest.n++;
        dec_trim(&rest);
        int q = 0;
        while (cmp_abs(&rest, &den) >= 0) {
            struct dec t = rest;
            sub_abs(&rest, &t, &den);
            q++;
        }
        r->d[i] = (unsigned char)q;
    }
    r->n = num.n > 0 ? num.n : 1, r->scale = scale, r->neg = a.neg != b.neg;
    dec_trim(r);
}

size_t dec_text(const struct dec *x, char *out) {
    size_t o = 0;
    if (x->neg)
        out[o++] = '-';
    int whole = x->n - x->scale;
    if (whole <= 0)
        out[o++] = '0';
    for (int i = x->n - 1; i >= x->scale; i--)
        out[o++] = (char)('0' + x->d[i]);
    if (x->scale > 0) {
        out[o++] = '.';
        for (int i = x->scale - 1; i >= 0; i--)
            out[o++] = (char)('0' + (i < x->n ? x->d[i] : 0));
    }
    out[o] = 0;
    return o;
}

void dec_result(sqlite3_context *ctx, const struct dec *x) {
    char text[MAXD + 8];
    size_t n = dec_text(x, text);
    lite.result_text(ctx, text, (int)n, SQLITE_TRANSIENT);
}

