/*
 * A DATE host variable in any of DB2's forms, as stored (db.dates.iso: date_iso), and
 * DB2_DATEADD in the worker (db.exact._date_add): DB2's ISO DATE (YYYY-MM-DD) or TIMESTAMP
 * (YYYY-MM-DD-HH.MM.SS.ffffff) text plus a labelled duration (YEARS … MICROSECONDS); a month or year
 * landing past a month's end goes to its last day. -180 for text that is no date, -181 for a result
 * outside the years 1 to 9999.
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int leap(long y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }

static int month_days(long y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days since 0001-01-01 of a date (proleptic Gregorian), and back */
static long long day_number(long y, int m, int d) {
    long long days = 0;
    long yy = y - 1;
    days = yy * 365 + yy / 4 - yy / 100 + yy / 400;
    for (int k = 1; k < m; k++)
        days += month_days(y, k);
    return days + d - 1;
}

static void from_day_number(long long n, long *y, int *m, int *d) {
    long year = (long)(n / 366) + 1;
    while (day_number(year + 1, 1, 1) <= n)
        year++;
    n -= day_number(year, 1, 1);
    int month = 1;
    while (n >= month_days(year, month))
        n -= month_days(year, month++);
    *y = year, *m = month, *d = (int)n + 1;
}

/* A number of up to `most` digits at s[*at] (Python's strptime takes 1 to 2 for fields, 4 for a year) */
static int field(const char *s, size_t len, size_t *at, int most, long *out) {
    int k = 0;
    long v = 0;
    while (*at < len && k < most && s[*at] >= '0' && s[*at] <= '9')
        v = v * 10 + (s[(*at)++] - '0'), k++;
    *out = v;
    return k > 0;
}

static int sep(const char *s, size_t len, size_t *at, char c) {
    if (*at < len && s[*at] == c) {
        (*at)++;
        return 1;
    }
    return 0;
}

void date_add(sqlite3_context *ctx, int argc, sqlite3_value **v) {
    (void)argc;
    if (lite.value_type(v[0]) == SQLITE_NULL || lite.value_type(v[1]) == SQLITE_NULL)
        return lite.result_null(ctx);
    const char *raw = (const char *)lite.value_text(v[0]);
    char text[64];
    snprintf(text, sizeof text, "%s", raw ? raw : "");
    size_t len = strlen(text), start = 0;
    while (start < len && text[start] == ' ')
        start++;
    while (len > start && text[len - 1] == ' ')
        text[--len] = 0;
    const char *t = text + start;
    len -= start;
    long long n;
    if (lite.value_type(v[1]) == SQLITE_INTEGER) {
        n = lite.value_int64(v[1]);
    } else { /* a number as text or a double: its whole part */
        const char *a = (const char *)lite.value_text(v[1]);
        n = a ? strtoll(a, NULL, 10) : 0;
    }
    const char *unit = (const char *)lite.value_text(v[2]);
    long y = 0, mo = 0, d = 0, h = 0, mi = 0, se = 0, us = 0;
    size_t at = 0;
    int ok = field(t, len, &at, 4, &y) && sep(t, len, &at, '-') && field(t, len, &at, 2, &mo) &&
             sep(t, len, &at, '-') && field(t, len, &at, 2, &d);
    int stamp = len != 10;
    if (ok && stamp) {
        ok = sep(t, len, &at, '-') && field(t, len, &at, 2, &h) && sep(t, len, &at, '.') &&
             field(t, len, &at, 2, &mi) && sep(t, len, &at, '.') && field(t, len, &at, 2, &se) && at == 19;
        if (ok && len > 20) {
            char frac[7] = "000000";
            for (size_t k = 0; k < 6 && 20 + k < len; k++)
                frac[k] = t[20 + k];
            us = strtol(frac, NULL, 10);
        }
    } else if (ok) {
        ok = at == len;
    }
    if (!ok || y < 1 || mo < 1 || mo > 12 || d < 1 || d > month_days(y, (int)mo) || h > 23 || mi > 59 || se > 61) {
        char why[120];
        snprintf(why, sizeof why, "'%s' is not a DB2 date or timestamp", t);
        arith_fail(ctx, -180, "22007", why);
        return;
    }
    char u = unit ? unit[0] : 'D';
    long long when_us = 0, day = day_number(y, (int)mo, (int)d);
    int bad = 0;
    if (u == 'Y' || (u == 'M' && unit[1] == 'O')) { /* YEARS, MONTHS */
        long long months = (long long)y * 12 + mo - 1 + (u == 'Y' ? n * 12 : n);
        long year = (long)(months >= 0 ? months / 12 : -((-months + 11) / 12));
        int month = (int)(months - (long long)year * 12) + 1;
        bad = year < 1 || year > 9999;
        if (!bad) {
            int last = month_days(year, month);
            day = day_number(year, month, d < last ? (int)d : last);
        }
        when_us = ((h * 60 + mi) * 60 + se) * 1000000LL + us;
    } else {
        long long per = u == 'D' ? 86400000000LL : u == 'H' ? 3600000000LL : (u == 'M' && unit[1] == 'I' && unit[2] == 'N') ? 60000000LL
                      : u == 'S' ? 1000000LL : 1;
        long long span = day_number(10000, 1, 1) * 86400000000LL;
        __int128 total = (__int128)day * 86400000000LL + ((h * 60 + mi) * 60 + se) * 1000000LL + us + (__int128)n * per;
        bad = total < 0 || total >= span;
        if (!bad)
            day = (long long)(total / 86400000000LL), when_us = (long long)(total % 86400000000LL);
    }
    if (bad) {
        char why[160];
        snprintf(why, sizeof why, "%s plus %lld %s is not a valid date", t, n, unit ? unit : "");
        arith_fail(ctx, -181, "22008", why);
        return;
    }
    long ry;
    int rm, rd;
    from_day_number(day, &ry, &rm, &rd);
    char out[40];
    int k;
    if (!stamp)
        k = snprintf(out, sizeof out, "%ld-%02d-%02d", ry, rm, rd);
    else
        k = snprintf(out, sizeof out, "%ld-%02d-%02d-%02lld.%02lld.%02lld.%06lld", ry, rm, rd, when_us / 3600000000LL,
                     when_us / 60000000LL % 60, when_us / 1000000LL % 60, when_us % 1000000LL);
    lite.result_text(ctx, out, k, SQLITE_TRANSIENT);
}

/* 1 or 2 digits (`wide` 0) or exactly 4 (`wide` 1) at s[*at] */
static int digits(const char *s, size_t len, size_t *at, int wide, long *out) {
    size_t start = *at;
    if (!field(s, len, at, wide ? 4 : 2, out))
        return 0;
    return wide ? *at - start == 4 : 1;
}

size_t date_iso(const char *s, size_t len, char *out) {
    while (len > 0 && s[len - 1] == ' ')
        len--;
    long y = 0, m = 0, d = 0;
    size_t at = 0;
    int ok = 0;
    if (len >= 5 && s[4] == '-') /* ISO, JIS */
        ok = digits(s, len, &at, 1, &y) && sep(s, len, &at, '-') && digits(s, len, &at, 0, &m) &&
             sep(s, len, &at, '-') && digits(s, len, &at, 0, &d);
    else if (memchr(s, '/', len)) /* USA */
        ok = digits(s, len, &at, 0, &m) && sep(s, len, &at, '/') && digits(s, len, &at, 0, &d) &&
             sep(s, len, &at, '/') && digits(s, len, &at, 1, &y);
    else /* EUR */
        ok = digits(s, len, &at, 0, &d) && sep(s, len, &at, '.') && digits(s, len, &at, 0, &m) &&
             sep(s, len, &at, '.') && digits(s, len, &at, 1, &y);
    if (!ok || at != len)
        return 0;
    snprintf(out, 11, "%04ld-%02ld-%02ld", y, m, d);
    return 10;
}
