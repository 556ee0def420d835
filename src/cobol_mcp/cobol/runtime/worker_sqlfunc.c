/*
 * DB2's functions on the worker's SQLite connections, as db.exact defines them on the server's: DB2_DEC,
 * DB2_ADD, DB2_SUB, DB2_MUL, DB2_DIV, DB2_NEG, DB2_CMP, DB2_STORE, DB2_DECIMAL, DB2_CHAR, the aggregates
 * DB2_SUM and DB2_AVG (exact, with the decimals of worker_sqlarith.c), and DB2_DATEADD (worker_sqldate.c).
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------- the functions */
#define ARGS(count)                                                                                              \
    struct dec x[count];                                                                                          \
    for (int k = 0; k < (count); k++) {                                                                           \
        int ok;                                                                                                   \
        if (!dec_arg(ctx, v[k], &x[k], &ok)) {                                                                        \
            if (ok)                                                                                               \
                lite.result_null(ctx);                                                                            \
            return;                                                                                               \
        }                                                                                                         \
        if (!ok)                                                                                                  \
            return;                                                                                               \
    }

static void f_dec(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    if (lite.value_type(v[0]) == SQLITE_INTEGER) { /* a DECIMAL column's scaled integer */
        struct dec x;
        dec_from_int(lite.value_int64(v[0]), &x);
        x.scale = (int)lite.value_int64(v[1]);
        return dec_result(ctx, &x);
    }
    ARGS(1);
    dec_result(ctx, &x[0]);
}

static void f_add(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(2);
    struct dec r;
    dec_add(x[0], x[1], &r);
    dec_result(ctx, &r);
}

static void f_sub(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(2);
    struct dec r;
    x[1].neg = !x[1].neg;
    dec_add(x[0], x[1], &r);
    dec_result(ctx, &r);
}

static void f_mul(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(2);
    struct dec r;
    dec_mul(&x[0], &x[1], &r);
    dec_result(ctx, &r);
}

static void f_div(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(2);
    if (dec_zero(&x[1]))
        return arith_fail(ctx, -802, "22012", "division by zero");
    struct dec r;
    dec_div(x[0], x[1], (int)lite.value_int64(v[2]), &r);
    dec_result(ctx, &r);
}

static void f_neg(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(1);
    x[0].neg = dec_zero(&x[0]) ? 0 : !x[0].neg; /* Decimal's -0 is 0 */
    dec_result(ctx, &x[0]);
}

static void f_cmp(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(2);
    struct dec r;
    x[1].neg = !x[1].neg;
    dec_add(x[0], x[1], &r);
    lite.result_int64(ctx, dec_zero(&r) ? 0 : r.neg ? -1 : 1);
}

static void f_store(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(1);
    char shown[MAXD + 8];
    dec_text(&x[0], shown);
    dec_truncate(&x[0], (int)lite.value_int64(v[1]));
    unsigned __int128 u = 0;
    int big = 0;
    for (int i = x[0].n - 1; i >= 0 && !big; i--) {
        u = u * 10 + x[0].d[i];
        big = u >= ((unsigned __int128)1 << 63);
    }
    if (big) {
        char why[MAXD + 40];
        snprintf(why, sizeof why, "%s does not fit the column", shown);
        return arith_fail(ctx, -406, "22003", why);
    }
    lite.result_int64(ctx, x[0].neg ? -(long long)u : (long long)u);
}

static void f_decimal(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(1);
    int p = (int)lite.value_int64(v[1]), s = (int)lite.value_int64(v[2]);
    char shown[MAXD + 8];
    dec_text(&x[0], shown);
    dec_truncate(&x[0], s);
    if (x[0].n - x[0].scale > p - s && !dec_zero(&x[0])) {
        char why[MAXD + 60];
        snprintf(why, sizeof why, "%s does not fit DECIMAL(%d,%d)", shown, p, s);
        return arith_fail(ctx, -406, "22003", why);
    }
    dec_result(ctx, &x[0]);
}

static void f_char(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    ARGS(1);
    int p = (int)lite.value_int64(v[1]), s = (int)lite.value_int64(v[2]);
    dec_truncate(&x[0], s);
    char text[MAXD + 80];
    size_t n = dec_text(&x[0], text);
    while (n < (size_t)p + 2 && n < sizeof text - 1)
        text[n++] = ' ';
    lite.result_text(ctx, text, (int)n, SQLITE_TRANSIENT);
}

struct total {
    int any, count, scale;
    struct dec sum;
};

static void sum_step(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    struct total *t = lite.aggregate_context(ctx, sizeof *t);
    struct dec x;
    int ok;
    if (!t || !dec_arg(ctx, v[0], &x, &ok) || !ok)
        return;
    if (argc > 1)
        t->scale = (int)lite.value_int64(v[1]);
    if (!t->any)
        dec_from_int(0, &t->sum);
    struct dec r;
    dec_add(t->sum, x, &r);
    if (!t->any && argc == 1)
        r = x; /* SUM starts from its first value (Decimal's sign of a zero kept) */
    t->sum = r, t->any = 1, t->count++;
}

static void sum_final(sqlite3_context *ctx) {
    struct total *t = lite.aggregate_context(ctx, 0);
    if (!t || !t->any)
        return lite.result_null(ctx);
    dec_result(ctx, &t->sum);
}

static void avg_final(sqlite3_context *ctx) {
    struct total *t = lite.aggregate_context(ctx, 0);
    if (!t || !t->count)
        return lite.result_null(ctx);
    struct dec count, r;
    dec_from_int(t->count, &count);
    dec_div(t->sum, count, t->scale, &r);
    dec_result(ctx, &r);
}

/* Define the functions on a connection of the worker (as db.exact.register does on the server's) */
void arith_register(sqlite3 *db) {
    static const struct {
        const char *name;
        int args;
        void (*f)(sqlite3_context *, int, sqlite3_value **);
    } plain[] = {{"DB2_DEC", 2, f_dec},   {"DB2_ADD", 2, f_add},   {"DB2_SUB", 2, f_sub},
                 {"DB2_MUL", 2, f_mul},   {"DB2_DIV", 3, f_div},   {"DB2_NEG", 1, f_neg},
                 {"DB2_CMP", 2, f_cmp},   {"DB2_STORE", 2, f_store}, {"DB2_DECIMAL", 3, f_decimal},
                 {"DB2_CHAR", 3, f_char}, {"DB2_DATEADD", 3, date_add}};
    for (size_t i = 0; i < sizeof plain / sizeof plain[0]; i++)
        lite.create_function(db, plain[i].name, plain[i].args, SQLITE_UTF8 | SQLITE_DETERMINISTIC, NULL, plain[i].f,
                             NULL, NULL);
    lite.create_function(db, "DB2_SUM", 1, SQLITE_UTF8, NULL, NULL, sum_step, sum_final);
    lite.create_function(db, "DB2_AVG", 2, SQLITE_UTF8, NULL, NULL, sum_step, avg_final);
}
