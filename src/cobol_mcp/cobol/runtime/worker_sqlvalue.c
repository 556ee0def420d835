/*
 * The conversions of EXEC SQL run in the worker (worker_sql.c): host-variable bytes to SQLite's values
 * as sqlbridge.values reads them and db.values.to_driver gives them to the driver, and result values
 * back into host variables as db.values.from_driver and sqlbridge.values.writer store them; SQLite's
 * errors as db.errors maps them; the texts of Python's str() and repr() where a message or a PIC X
 * host variable shows a number.
 */
#include "worker_sql.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static void set_message(struct outcome *o, const char *utf8) {
    unsigned char buf[512];
    size_t n = strlen(utf8);
    if (n > 200)
        n = 200;
    n = to_latin1((const unsigned char *)utf8, n, buf);
    if (n > 70)
        n = 70;
    memcpy(o->message, buf, n);
    o->message[n] = 0;
}

void sql_error(struct outcome *o, int code, const char *state, const char *message) {
    o->code = code;
    memcpy(o->state, state, 6);
    o->errd3 = 0;
    memset(o->warn, ' ', 11);
    set_message(o, message);
}

void sql_warn(struct outcome *o, int flag) { o->warn[0] = o->warn[flag] = 'W'; }

/* SQLite's error as db.errors.from_sqlite maps it */
void driver_error(struct outcome *o, sqlite3 *db, int is_delete) {
    int x = lite.extended_errcode(db), primary = x & 0xFF;
    const char *text = lite.errmsg(db);
    if (arith_failure.set) { /* one of DB2's functions failed: its own DB2 error (db.exact.failure) */
        arith_failure.set = 0;
        if (strcmp(text, arith_failure.text) == 0)
            return sql_error(o, arith_failure.code, arith_failure.state, arith_failure.text);
    }
    int code = -901;
    const char *state = "58004";
    if (x == 2067 || x == 1555) /* SQLITE_CONSTRAINT_UNIQUE, _PRIMARYKEY */
        code = -803, state = "23505";
    else if (x == 787 || strstr(text, "FOREIGN KEY constraint")) /* _FOREIGNKEY */
        code = is_delete ? -532 : -530, state = is_delete ? "23504" : "23503";
    else if (x == 1299) /* _NOTNULL */
        code = -407, state = "23502";
    else if (x == 275) { /* _CHECK: DB2's type checks db.ddl adds, else a CHECK of the table's */
        code = -545, state = "23513";
        if (strstr(text, "DB2LEN_"))
            code = -404, state = "22001";
        else if (strstr(text, "DB2DEC_"))
            code = -406, state = "22003";
        else if (strstr(text, "DB2FMT_"))
            code = -180, state = "22007";
        else if (strstr(text, "DB2VAL_"))
            code = -181, state = "22008";
    } else if (primary == 5 || primary == 6) /* BUSY, LOCKED */
        code = -913, state = "57033";
    else if (primary == 13 || primary == 10 || primary == 14 || primary == 8 || primary == 7)
        code = -904, state = "57011";
    else if (strstr(text, "already exists"))
        code = -601, state = "42710";
    else if (strstr(text, "duplicate column name"))
        code = -612, state = "42711";
    else if (strstr(text, "no such table"))
        code = -204, state = "42704";
    else if (strstr(text, "no such column"))
        code = -206, state = "42703";
    else if (strstr(text, "syntax error") || strstr(text, "incomplete input"))
        code = -104, state = "42601";
    sql_error(o, code, state, text);
}

/* ---------------------------------------------------------------------------------- reading host variables */

static int sign_digit(unsigned char c, int *neg) {
    if (c >= '0' && c <= '9')
        return *neg = 0, c - '0';
    if (c >= 0x70 && c <= 0x79) /* GnuCOBOL's negative digits p..y */
        return *neg = 1, c - 0x70;
    if (c == '{')
        return *neg = 0, 0;
    if (c == '}')
        return *neg = 1, 0;
    if (c >= 'A' && c <= 'I')
        return *neg = 0, c - 'A' + 1;
    if (c >= 'J' && c <= 'R')
        return *neg = 1, c - 'J' + 1;
    return -1;
}

static big read_binary(const unsigned char *b, unsigned size, int little, int is_signed) {
    unsigned __int128 u = 0;
    for (unsigned i = 0; i < size; i++)
        u = u << 8 | b[little ? size - 1 - i : i];
    if (is_signed && size && (b[little ? size - 1 : 0] & 0x80))
        return (big)u - ((big)1 << (8 * size));
    return (big)u;
}

/* The value of a piece; 0 read, 1 bytes that are no value of its PICTURE (the server says why), 2 a
 * VARCHAR's length out of range (-311, in *o) */
int read_piece(const struct piece *p, unsigned char **data, struct value *v, struct outcome *o) {
    const unsigned char *b = data[p->param + 3] + p->offset;
    if (p->cls == P_TEXT) {
        v->is_text = 1, v->text = b, v->len = p->size;
        return 0;
    }
    if (p->cls == P_VARCHAR) {
        big n = read_binary(b, p->len_size, p->len_native, p->len_signed);
        if (n < 0 || n > (big)p->size) {
            char text[200];
            snprintf(text, sizeof text, "the length of VARCHAR %s is %lld, not 0 to %u", p->name, (long long)n,
                     (unsigned)p->size);
            sql_error(o, -311, "22501", text);
            return 2;
        }
        v->is_text = 1, v->text = data[p->param + 3] + p->text_offset, v->len = (size_t)n;
        return 0;
    }
    v->is_text = 0, v->scale = p->scale, v->decimal = (p->truncated & DECIMAL_VALUE) != 0;
    big n = 0, top = ten((int)p->digits) - 1;
    int neg = 0;
    if (p->cls == P_DISPLAY) {
        unsigned size = p->size, first = 0, last = size; /* the digits: [first, last) */
        if (p->separate) {
            unsigned char mark = p->leading ? b[0] : b[size - 1];
            if (mark != '+' && mark != '-')
                return 1;
            neg = mark == '-';
            first = p->leading ? 1 : 0, last = p->leading ? size : size - 1;
        }
        for (unsigned i = first; i < last; i++) {
            int d;
            if (!p->separate && p->is_signed && i == (p->leading ? 0 : size - 1)) {
                d = sign_digit(b[i], &neg);
                if (d < 0)
                    return 1;
            } else if (b[i] >= '0' && b[i] <= '9') {
                d = b[i] - '0';
            } else {
                return 1;
            }
            n = n * 10 + d;
        }
        v->n = neg ? -n : n;
        return 0;
    }
    if (p->cls == P_PACKED) {
        for (unsigned i = 0; i < p->size; i++) {
            unsigned hi = b[i] >> 4, lo = b[i] & 15;
            if (hi > 9)
                return 1;
            n = n * 10 + hi;
            if (i + 1 < p->size) {
                if (lo > 9)
                    return 1;
                n = n * 10 + lo;
            } else {
                if (lo < 10)
                    return 1;
                neg = lo == 0xB || lo == 0xD;
            }
        }
        n = neg ? -n : n;
        if (n > top || n < (p->is_signed ? -top : 0))
            return 1;
        v->n = n;
        return 0;
    }
    n = read_binary(b, p->size, p->cls == P_NATIVE, p->is_signed);
    if (p->cls == P_BINARY && (p->truncated & TRUNCATED) && (n > top || n < (p->is_signed ? -top : 0)))
        return 1;
    v->n = n;
    return 0;
}

/* ---------------------------------------------------------------------------------- binding (db.values.to_driver) */
static unsigned char *scratch;
static size_t scratch_size;

/* A text host variable as its column takes it (db.values.to_driver): blanks past a CHAR or VARCHAR
 * column's length cut, as DB2 assigns; a CHAR padded to its length; a DATE in DB2's forms as ISO; as
 * UTF-8 into `out`, which has room for 2 * v->len + c->n + 1 bytes (NUL-terminated); its length */
size_t column_text(const struct value *v, const struct column *c, unsigned char *out) {
    size_t len = v->len;
    if (c->kind == COL_DATE && date_iso((const char *)v->text, len, (char *)out)) /* any of DB2's forms */
        return 10;
    if ((c->kind == COL_CHAR || c->kind == COL_VARCHAR) && len > c->n) {
        size_t at = c->n;
        while (at < len && v->text[at] == ' ')
            at++;
        if (at == len)
            len = c->n;
    }
    size_t pad = c->kind == COL_CHAR && len < c->n ? c->n - len : 0;
    size_t n = to_utf8(v->text, len, out);
    memset(out + n, ' ', pad);
    out[n + pad] = 0;
    return n + pad;
}

int bind_value(sqlite3_stmt *s, int k, const struct value *v, const struct column *c) {
    if (v->is_text) {
        scratch = grow(scratch, &scratch_size, 2 * v->len + c->n + 1);
        size_t n = column_text(v, c, scratch);
        return lite.bind_text(s, k, (const char *)scratch, (int)n, SQLITE_TRANSIENT);
    }
    if (c->kind == COL_DECIMAL) { /* its scaled integer, the fraction past the column's scale cut */
        int shift = (int)c->n - v->scale;
        big scaled = shift >= 0 ? v->n * ten(shift) : v->n / ten(-shift);
        return lite.bind_int64(s, k, (long long)scaled);
    }
    if (!v->decimal)
        return lite.bind_int64(s, k, (long long)v->n);
    big unit = ten(v->scale);
    if (v->n % unit == 0)
        return lite.bind_int64(s, k, (long long)(v->n / unit));
    char text[64];
    size_t n = plain(v->n, v->scale, text);
    return lite.bind_text(s, k, text, (int)n, SQLITE_TRANSIENT);
}

/* ---------------------------------------------------------------------------------- storing (sqlbridge.values.writer) */

static void put_number(const struct piece *p, unsigned char *b, big m) {
    if (p->cls == P_BINARY || p->cls == P_NATIVE) {
        unsigned __int128 u = (unsigned __int128)m;
        for (unsigned i = 0; i < p->size; i++) {
            b[p->cls == P_NATIVE ? i : p->size - 1 - i] = (unsigned char)(u & 0xFF);
            u >>= 8;
        }
        return;
    }
    int neg = m < 0;
    big a = neg ? -m : m;
    if (p->cls == P_PACKED) {
        unsigned nibbles = 2 * p->size;
        unsigned char sign = p->is_signed ? (neg ? 0xD : 0xC) : 0xF;
        memset(b, 0, p->size);
        b[p->size - 1] = sign;
        for (unsigned k = 1; k < nibbles; k++) { /* nibble k from the right, after the sign */
            unsigned d = (unsigned)(a % 10);
            a /= 10;
            unsigned at = p->size - 1 - k / 2;
            b[at] |= (unsigned char)(k % 2 ? d << 4 : d);
        }
        return;
    }
    unsigned width = p->size - (p->separate ? 1 : 0), start = p->separate && p->leading ? 1 : 0;
    for (unsigned k = 0; k < width; k++) {
        b[start + width - 1 - k] = (unsigned char)('0' + (int)(a % 10));
        a /= 10;
    }
    if (p->separate)
        b[p->leading ? 0 : p->size - 1] = neg ? '-' : '+';
    else if (p->is_signed && neg)
        b[p->leading ? 0 : p->size - 1] += 0x40; /* GnuCOBOL's ASCII overpunch */
}

/* Store n × 10^exp into a numeric piece, its fraction first cut to the piece's decimals ("cut": Python's
 * Decimal, not an int); -304 in *o when the rest does not fit. `shown`: the value for the message. */
static int store_number(const struct piece *p, unsigned char *b, big n, int exp, int cut, struct outcome *o) {
    if (cut && exp < -p->scale) {
        n /= ten(-p->scale - exp);
        exp = -p->scale;
    }
    char shown[80];
    if (exp <= 0)
        plain(n, -exp, shown);
    else {
        size_t k = plain(n, 0, shown);
        snprintf(shown + k, sizeof shown - k, "E+%d", exp);
    }
    int shift = exp + p->scale; /* the stored integer is n × 10^shift */
    big m = n;
    int fits = 1;
    if (shift < 0) {
        big unit = ten(-shift);
        fits = m % unit == 0;
        m /= unit;
    } else if (shift > 0) {
        fits = shift <= 36 && (m < 0 ? -m : m) < ten(36 - shift);
        if (fits)
            m *= ten(shift);
    }
    big top = ten((int)p->digits);
    if (!fits || m >= top || m <= -top || (m < 0 && !p->is_signed)) {
        char text[240];
        snprintf(text, sizeof text, "%s does not fit host variable %s (PIC %s)", shown, p->name, p->pic);
        sql_error(o, -304, "22003", text);
        return 0;
    }
    put_number(p, b, m);
    return 1;
}

/* Store a cell into a piece; returns 0 on an error (in *o); *cut_length: the length before a cut, or -1 */
int store_cell(const struct piece *p, unsigned char **data, const struct cell *c, const struct column *col,
                      long long *cut_length, struct outcome *o) {
    unsigned char *b = data[p->param + 3] + p->offset;
    *cut_length = -1;
    if (p->cls == P_TEXT || p->cls == P_VARCHAR) {
        char text[128];
        const unsigned char *t = (const unsigned char *)text;
        size_t len, pad = 0;
        if (c->type == SQLITE_TEXT || c->type == SQLITE_BLOB) {
            t = c->text, len = c->len;
            if (col->kind == COL_CHAR && len < col->n)
                pad = col->n - len;
        } else if (c->type == SQLITE_INTEGER) {
            len = col->kind == COL_DECIMAL ? plain(c->i, (int)col->n, text) : plain(c->i, 0, text);
        } else {
            len = float_text(c->d, text);
        }
        size_t whole = len + pad, most = p->size;
        if (whole > most)
            *cut_length = (long long)whole;
        size_t n = whole > most ? most : whole, copied = len > n ? n : len;
        if (p->cls == P_VARCHAR) {
            put_number(&(struct piece){.cls = p->len_native ? P_NATIVE : P_BINARY, .size = p->len_size}, b, (big)n);
            unsigned char *at = data[p->param + 3] + p->text_offset;
            memcpy(at, t, copied);
            memset(at + copied, ' ', n - copied);
        } else {
            memcpy(b, t, copied);
            memset(b + copied, ' ', most - copied);
        }
        return 1;
    }
    big n;
    int exp;
    if (c->type == SQLITE_INTEGER) {
        if (col->kind == COL_DECIMAL)
            return store_number(p, b, c->i, -(int)col->n, 1, o);
        return store_number(p, b, c->i, 0, 0, o);
    }
    if (c->type == SQLITE_FLOAT) {
        char m[32];
        int point, neg = shortest(c->d, m, &point);
        if (c->d != c->d || c->d > 1.7976931348623157e308 || c->d < -1.7976931348623157e308) {
            char text[240];
            snprintf(text, sizeof text, "%s does not fit host variable %s (PIC %s)", c->d != c->d ? "NaN" : "Infinity",
                     p->name, p->pic);
            sql_error(o, -304, "22003", text);
            return 0;
        }
        n = 0;
        for (char *s = m; *s && s - m < 36; s++)
            n = n * 10 + (*s - '0');
        exp = point - (int)strlen(m);
        return store_number(p, b, neg ? -n : n, exp, 1, o);
    }
    if (!parse_decimal(c->text, c->len, &n, &exp)) {
        char text[240];
        snprintf(text, sizeof text, "'%.*s' cannot be stored in numeric host variable %s", (int)(c->len > 60 ? 60 : c->len),
                 (const char *)c->text, p->name);
        sql_error(o, -303, "42806", text);
        return 0;
    }
    return store_number(p, b, n, exp, 1, o);
}

/* An indicator's value (0, -1, or a length before a cut), as its writer stores a whole number */
int store_whole(const struct piece *p, unsigned char **data, long long n, struct outcome *o) {
    return store_number(p, data[p->param + 3] + p->offset, n, 0, 0, o);
}

/* ---------------------------------------------------------------------------------- the SQLCA */
void success(struct outcome *o) {
    o->code = o->errd3 = 0;
    memcpy(o->state, "00000", 6);
    memset(o->warn, ' ', 11);
    o->message[0] = 0;
}

/* DB2's SQLCA (sqlbridge.values.sqlca_bytes): SQLCAID, SQLCABC and SQLERRP kept */
void put_sqlca(unsigned char *ca, const struct outcome *o) {
    int32_t code = o->code, errd[6] = {0, 0, o->errd3, 0, 0, 0};
    int16_t length = (int16_t)strlen(o->message);
    memcpy(ca + 12, &code, 4);
    memcpy(ca + 16, &length, 2);
    memset(ca + 18, ' ', 70);
    memcpy(ca + 18, o->message, (size_t)length);
    memcpy(ca + 96, errd, sizeof errd);
    memcpy(ca + 120, o->warn, 11);
    memcpy(ca + 131, o->state, 5);
}

void named(struct outcome *o, int code, const char *state, const char *format, const char *name) {
    char text[160];
    snprintf(text, sizeof text, format, name);
    sql_error(o, code, state, text);
}
