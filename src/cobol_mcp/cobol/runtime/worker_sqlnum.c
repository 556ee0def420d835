/*
 * Text and numbers for EXEC SQL run in the worker (worker_sql.c): Latin-1 (the program's bytes) and
 * UTF-8 (SQLite's), and the texts of Python's str() and repr() of numbers and of Decimal's syntax,
 * as the server's way reads and shows them (sqlbridge.values, db.values).
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

/* ---------------------------------------------------------------------------------- text */
/* Latin-1 (the program's bytes) to UTF-8 (SQLite's text): at most 2n bytes into out */
size_t to_utf8(const unsigned char *in, size_t n, unsigned char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n; i++) {
        if (in[i] < 0x80) {
            out[o++] = in[i];
        } else {
            out[o++] = (unsigned char)(0xC0 | in[i] >> 6);
            out[o++] = (unsigned char)(0x80 | (in[i] & 0x3F));
        }
    }
    return o;
}

/* UTF-8 to Latin-1, '?' for what Latin-1 has not (Python's encode("latin-1", "replace")): into out */
size_t to_latin1(const unsigned char *in, size_t n, unsigned char *out) {
    size_t o = 0;
    for (size_t i = 0; i < n;) {
        unsigned c = in[i], len = c < 0x80 ? 1 : c < 0xE0 ? 2 : c < 0xF0 ? 3 : 4;
        if (len == 2 && i + 1 < n)
            c = (c & 0x1F) << 6 | (in[i + 1] & 0x3F);
        out[o++] = len == 1 || (len == 2 && c < 0x100) ? (unsigned char)c : '?';
        i += len;
    }
    return o;
}

/* ---------------------------------------------------------------------------------- numbers */
big ten(int n) {
    big v = 1;
    while (n-- > 0)
        v *= 10;
    return v;
}

/* Plain decimal text of n × 10^-scale (scale >= 0), as Python's str of such a Decimal (or int) */
size_t plain(big n, int scale, char *out) {
    char digits[64];
    int k = 0, neg = n < 0;
    big m = neg ? -n : n;
    do {
        digits[k++] = (char)('0' + (int)(m % 10));
        m /= 10;
    } while (m);
    while (k <= scale)
        digits[k++] = '0';
    size_t o = 0;
    if (neg)
        out[o++] = '-';
    for (int i = k - 1; i >= 0; i--) {
        out[o++] = digits[i];
        if (i == scale && scale > 0)
            out[o++] = '.';
    }
    out[o] = 0;
    return o;
}

/* The shortest digits that read back as d (Python's repr): digits in `mantissa`, d = 0.mantissa × 10^point */
int shortest(double d, char *mantissa, int *point) {
    char text[64];
    for (int p = 1; p <= 17; p++) {
        snprintf(text, sizeof text, "%.*e", p - 1, d);
        if (strtod(text, NULL) == d)
            break;
    }
    char *e = strchr(text, 'e');
    int exp = e ? atoi(e + 1) : 0, k = 0;
    for (char *s = text; s < (e ? e : text + strlen(text)); s++)
        if (*s >= '0' && *s <= '9')
            mantissa[k++] = *s;
    mantissa[k] = 0;
    *point = exp + 1;
    return text[0] == '-';
}

/* repr(d) */
size_t float_text(double d, char *out) {
    if (d != d)
        return (size_t)sprintf(out, "nan");
    if (d > 1.7976931348623157e308 || d < -1.7976931348623157e308)
        return (size_t)sprintf(out, d > 0 ? "inf" : "-inf");
    char m[32];
    int point, neg = shortest(d, m, &point), n = (int)strlen(m), exp = point - 1;
    size_t o = 0;
    if (neg)
        out[o++] = '-';
    if (exp >= -4 && exp < 16) {
        if (point <= 0) {
            out[o++] = '0', out[o++] = '.';
            for (int i = 0; i < -point; i++)
                out[o++] = '0';
            for (int i = 0; i < n; i++)
                out[o++] = m[i];
        } else {
            for (int i = 0; i < point; i++)
                out[o++] = i < n ? m[i] : '0';
            out[o++] = '.';
            if (n > point)
                for (int i = point; i < n; i++)
                    out[o++] = m[i];
            else
                out[o++] = '0';
        }
    } else {
        out[o++] = m[0];
        if (n > 1) {
            out[o++] = '.';
            for (int i = 1; i < n; i++)
                out[o++] = m[i];
        }
        o += (size_t)sprintf(out + o, "e%c%02d", exp < 0 ? '-' : '+', exp < 0 ? -exp : exp);
    }
    out[o] = 0;
    return o;
}

/* Decimal text (Python's Decimal syntax, blanks around it) as n × 10^exp; 0 when it is none */
int parse_decimal(const unsigned char *s, size_t len, big *n, int *exp) {
    size_t i = 0;
    while (i < len && (s[i] == ' ' || (s[i] >= 9 && s[i] <= 13)))
        i++;
    while (len > i && (s[len - 1] == ' ' || (s[len - 1] >= 9 && s[len - 1] <= 13)))
        len--;
    int neg = 0, digits = 0, frac = 0, dot = 0;
    big v = 0;
    if (i < len && (s[i] == '+' || s[i] == '-'))
        neg = s[i++] == '-';
    for (; i < len; i++) {
        if (s[i] >= '0' && s[i] <= '9') {
            if (digits < 36)
                v = v * 10 + (s[i] - '0');
            else if (!dot)
                return 0;
            digits++;
            frac += dot && digits <= 36;
        } else if (s[i] == '.' && !dot) {
            dot = 1;
        } else {
            break;
        }
    }
    if (!digits)
        return 0;
    int e = 0;
    if (i < len && (s[i] == 'e' || s[i] == 'E')) {
        i++;
        int eneg = 0, ed = 0;
        if (i < len && (s[i] == '+' || s[i] == '-'))
            eneg = s[i++] == '-';
        for (; i < len && s[i] >= '0' && s[i] <= '9'; i++, ed++)
            if (e < 100000)
                e = e * 10 + (s[i] - '0');
        if (!ed)
            return 0;
        e = eneg ? -e : e;
    }
    if (i != len)
        return 0;
    *n = neg ? -v : v;
    *exp = e - frac;
    return 1;
}

