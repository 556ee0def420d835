/*
 * IBM Language Environment callable services that COBOL programs CALL, with LE's parameters and
 * feedback codes (see __init__.py beside this file for what is served and how it is reached).
 *
 * Parameters are as a z/OS COBOL program lays them out: INT2/INT4 are big-endian binary (COBOL BINARY,
 * COMP), FLOAT8 is a native double (COMP-2), a VSTRING is a big-endian halfword length followed by its
 * characters, a feedback code is 12 bytes (severity, message number, case/severity/control byte,
 * facility 'CEE' in EBCDIC as LE writes it, so a program's X'...C3C5C5' tokens match; then I_S_Info).
 * An omitted feedback code (OMITTED, or fewer arguments) makes a condition of severity 2 or more end the
 * run unit, as an unhandled LE condition ends the enclave.
 */
#include <stddef.h>
#include <stdint.h>

#include <libcob.h>

#include <stdio.h>
#include <string.h>
#include <sys/time.h>
#include <time.h>

typedef unsigned char byte;

#define LILIAN_MAX 3074324               /* 31 December 9999 */
#define SECONDS_MIN 86400.0              /* 00:00:00 15 October 1582 */
#define SECONDS_MAX 265621679999.999     /* 23:59:59.999 31 December 9999 */
#define OUTPUT_WIDTH 80                  /* CEEDATE and CEEDATM write a fixed 80-character string */

/* ------------------------------------------------------------------------ binary fields */
static int32_t get4(const byte *p) {
    return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}
static void put4(byte *p, int32_t v) {
    uint32_t u = (uint32_t)v;
    p[0] = (byte)(u >> 24), p[1] = (byte)(u >> 16), p[2] = (byte)(u >> 8), p[3] = (byte)u;
}
static int get2(const byte *p) { return (int16_t)((uint16_t)p[0] << 8 | p[1]); }
static void put2(byte *p, int v) { p[0] = (byte)((unsigned)v >> 8), p[1] = (byte)v; }
static double getd(const byte *p) { double d; memcpy(&d, p, sizeof d); return d; }
static void putd(byte *p, double d) { memcpy(p, &d, sizeof d); }

/* A VSTRING's text and length (0 for a negative length) */
static const char *vtext(const byte *v, int *len) {
    int n = get2(v);
    *len = n < 0 ? 0 : n;
    return (const char *)v + 2;
}

/* ------------------------------------------------------------------------ conditions */
struct condition { int number, severity; const char *text; };

static const struct condition CONDITIONS[] = {
    {2505, 3, "The input_seconds value in a call to CEEDATM or CEESECI was not within the supported range."},
    {2507, 3, "Insufficient data was passed to CEEDAYS or CEESECS. The Lilian value was not calculated."},
    {2508, 3, "The date value passed to CEEDAYS or CEESECS was invalid."},
    {2510, 3, "The hours value in a call to CEEISEC or CEESECS was not recognized."},
    {2511, 3, "The day parameter passed in a CEEISEC call was invalid for year and month specified."},
    {2512, 3, "The Lilian date value passed in a call to CEEDATE or CEEDYWK was not within the supported range."},
    {2513, 3, "The input date passed in a CEEISEC, CEEDAYS, or CEESECS call was not within the supported range."},
    {2514, 3, "The year value passed in a CEEISEC call was not within the supported range."},
    {2515, 3, "The milliseconds value in a CEEISEC call was not recognized."},
    {2516, 3, "The minutes value in a CEEISEC call was not recognized."},
    {2517, 3, "The month value in a CEEISEC call was not recognized."},
    {2518, 3, "An invalid picture string was specified in a call to a date/time service."},
    {2519, 3, "The seconds value in a CEEISEC call was not recognized."},
    {2520, 3, "CEEDAYS detected non-numeric data in a numeric field, or the date string did not match the picture string."},
    {2525, 3, "CEESECS detected non-numeric data in a numeric field, or the timestamp string did not match the picture string."},
    {2526, 2, "The date string returned by CEEDATE was truncated."},
    {2527, 2, "The timestamp string returned by CEEDATM was truncated."},
    {2533, 3, "The value passed to CEESCEN was not between 0 and 100."},
};
enum {
    SECONDS_RANGE = 2505, INSUFFICIENT = 2507, DATE_VALUE = 2508, HOURS = 2510, DAY_VALUE = 2511,
    LILIAN_RANGE = 2512, DATE_RANGE = 2513, YEAR_RANGE = 2514, MILLIS = 2515, MINUTES = 2516, BAD_MONTH = 2517,
    PICTURE = 2518, SECONDS = 2519, DAYS_NONNUMERIC = 2520, SECS_NONNUMERIC = 2525, DATE_TRUNCATED = 2526,
    STAMP_TRUNCATED = 2527, CENTURY = 2533,
};

static const struct condition *condition_of(int number) {
    for (size_t i = 0; i < sizeof CONDITIONS / sizeof *CONDITIONS; i++)
        if (CONDITIONS[i].number == number)
            return &CONDITIONS[i];
    return NULL;
}

/* The symbolic name: CEE and the message number in three base-32 digits (2507: CEE2EB) */
static void symbol(int number, char out[7]) {
    static const char digits[] = "0123456789ABCDEFGHIJKLMNOPQRSTUV";
    snprintf(out, 7, "CEE%c%c%c", digits[(number >> 10) & 31], digits[(number >> 5) & 31], digits[number & 31]);
}

/* Argument `index` (0-based) given, and not OMITTED */
static int given(void *arg, int index) { return arg != NULL && cob_get_num_params() > index; }

/* Sets the feedback code (CEE000: twelve zero bytes); without one, a condition of severity 2 or more
 * ends the run unit with LE's message, as an unhandled condition does. */
static void feedback(byte *fc, int has_fc, int number) {
    const struct condition *c = number ? condition_of(number) : NULL;
    if (has_fc) {
        memset(fc, 0, 12);
        if (c) {
            put2(fc, c->severity);
            put2(fc + 2, c->number);
            fc[4] = (byte)(1 << 6 | c->severity << 3 | 1); /* case 1, severity, control: an IBM facility */
            fc[5] = 0xC3, fc[6] = 0xC5, fc[7] = 0xC5;     /* 'CEE' in EBCDIC */
        }
        return;
    }
    if (c && c->severity >= 2) {
        char name[7];
        symbol(c->number, name);
        cob_runtime_error("CEE%04d%c %s (%s: no feedback code was passed, so the condition ends the program)",
                          c->number, "IWESC"[c->severity], c->text, name);
        cob_stop_run(1);
    }
}

/* ------------------------------------------------------------------------ the calendar */
static int leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
static int month_days(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && leap(y) ? 29 : days[m - 1];
}

/* Days from 1 March of year 0 of the proleptic Gregorian calendar (Hinnant's days_from_civil) */
static int64_t civil(int y, int m, int d) {
    y -= m <= 2;
    int64_t era = y / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy;
}
static int64_t lilian(int y, int m, int d) { return civil(y, m, d) - civil(1582, 10, 14); }

static void from_lilian(int64_t lil, int *y, int *m, int *d) {
    int64_t z = lil + civil(1582, 10, 14);
    int64_t era = z / 146097, doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}

/* An instant: its Lilian day and the milliseconds into it */
struct stamp { int64_t day; int64_t ms; };

static struct stamp stamp_of_seconds(double seconds) {
    int64_t ms = (int64_t)(seconds * 1000.0 + 0.5); /* to the nearest millisecond: a double holds no more */
    struct stamp s = {ms / 86400000, ms % 86400000};
    return s;
}

static int century_start = -80; /* CEESCEN: negative, years before this one (a sliding window); else a year */

static int two_digit_year(int yy) {
    int start = century_start;
    if (start < 0) {
        time_t now = time(NULL);
        struct tm tm;
        localtime_r(&now, &tm);
        start = tm.tm_year + 1900 + century_start;
    }
    int year = start - start % 100 + yy;
    return year < start ? year + 100 : year;
}

/* ------------------------------------------------------------------------ picture strings */
enum kind { LITERAL, BLANKS, YEAR, MONTH, MONTH_NAME, ROMAN, DAY, YEAR_DAY, HOUR, MINUTE, SECOND, FRACTION,
            AMPM, WEEKDAY, ERA };
struct term { enum kind kind; int width, suppress, trim, at; char literal; };
#define TERMS_MAX 256

static const char *const MONTHS[] = {"JANUARY", "FEBRUARY", "MARCH", "APRIL", "MAY", "JUNE", "JULY",
                                     "AUGUST", "SEPTEMBER", "OCTOBER", "NOVEMBER", "DECEMBER"};
static const char *const ROMANS[] = {"I", "II", "III", "IV", "V", "VI", "VII", "VIII", "IX", "X", "XI", "XII"};
static const char *const WEEKDAYS[] = {"SUNDAY", "MONDAY", "TUESDAY", "WEDNESDAY", "THURSDAY", "FRIDAY",
                                       "SATURDAY"};

static int run_of(const char *p, int n, int i, const char *set) {
    int k = 0;
    while (i + k < n && p[i + k] && strchr(set, p[i + k]))
        k++;
    return k;
}

/* The picture's terms; -1 when it is not a picture string (CEE2EM) */
static int parse_picture(const char *p, int n, struct term *t) {
    int count = 0;
    for (int i = 0; i < n;) {
        struct term x = {LITERAL, 1, 0, 0, i, p[i]};
        char c = p[i], next = i + 1 < n ? p[i + 1] : 0;
        int k;
        if (c == '<') {
            return -1; /* the Japanese and ROC eras are not served */
        } else if (c == 'Y') {
            k = run_of(p, n, i, "Y");
            if (k > 4)
                return -1;
            x.kind = YEAR, x.width = k;
        } else if (c == 'M' && next == 'I') {
            x.kind = MINUTE, x.width = 2;
        } else if (c == 'M' || c == 'm') {
            k = run_of(p, n, i, "Mm");
            if (k == 2 && c == 'M' && next == 'M')
                x.kind = MONTH, x.width = 2;
            else if (k >= 3 && k <= 20)
                x.kind = MONTH_NAME, x.width = k;
            else
                return -1;
        } else if (c == 'Z' && (next == 'M' || next == 'D' || next == 'H')) {
            x.kind = next == 'M' ? MONTH : next == 'D' ? DAY : HOUR, x.width = 2, x.suppress = 1;
            i += 2, x.at = i;
            t[count++] = x;
            continue;
        } else if (c == 'R' && n - i >= 4 && (!strncmp(p + i, "RRRR", 4) || !strncmp(p + i, "RRRZ", 4))) {
            x.kind = ROMAN, x.width = 4, x.trim = p[i + 3] == 'Z';
            i += 4;
            t[count++] = x;
            continue;
        } else if (c == 'D') {
            k = run_of(p, n, i, "D");
            if (k != 2 && k != 3)
                return -1;
            x.kind = k == 2 ? DAY : YEAR_DAY, x.width = k;
        } else if (c == 'H' && next == 'H') {
            x.kind = HOUR, x.width = 2;
        } else if (c == 'S' && next == 'S') {
            x.kind = SECOND, x.width = 2;
        } else if (c == '9') {
            k = run_of(p, n, i, "9");
            if (k > 3)
                return -1;
            x.kind = FRACTION, x.width = k;
        } else if ((c == 'A' && next == 'P') || (c == 'a' && next == 'p')) {
            x.kind = AMPM, x.width = 2;
        } else if (n - i >= 4 && (!strncmp(p + i, "A.P.", 4) || !strncmp(p + i, "a.p.", 4))) {
            x.kind = AMPM, x.width = 4;
        } else if (c == 'W' || c == 'w') {
            k = run_of(p, n, i, "Ww");
            if (k == 2 || k > 20)
                return -1;
            x.kind = WEEKDAY, x.width = k;
        } else if (c == ' ') {
            x.kind = BLANKS, x.width = run_of(p, n, i, " ");
        }
        i += x.width;
        if ((x.kind == MONTH_NAME || (x.kind == WEEKDAY && x.width > 1)) && i < n && (p[i] == 'Z' || p[i] == 'z'))
            x.trim = 1, i++;
        if (count == TERMS_MAX)
            return -1;
        t[count++] = x;
    }
    return count;
}

/* A picture that is null or blank: the United States' defaults (COUNTRY(US)) */
static const char *picture_or_default(const char *p, int *n, const char *fallback) {
    for (int i = 0; i < *n; i++)
        if (p[i] != ' ' && p[i] != 0)
            return p;
    *n = (int)strlen(fallback);
    return fallback;
}

/* ------------------------------------------------------------------------ formatting */
static int put_text(char *out, int at, const char *text, int len) {
    if (at + len <= OUTPUT_WIDTH * 2)
        memcpy(out + at, text, (size_t)len);
    return at + len;
}

static int put_number(char *out, int at, long value, int width, int suppress) {
    char digits[24];
    int len = suppress ? snprintf(digits, sizeof digits, "%ld", value) : snprintf(digits, sizeof digits, "%0*ld", width, value);
    if (len > width) /* Y, YY, YYY: the last digits */
        return put_text(out, at, digits + len - width, width);
    return put_text(out, at, digits, len);
}

/* A name in the picture's letters' case, cut or blank-padded to the term's width (trimmed with Z) */
static int put_name(char *out, int at, const char *name, const struct term *x, const char *pic) {
    char text[24];
    int len = (int)strlen(name);
    if (len > x->width)
        len = x->width;
    for (int i = 0; i < x->width; i++) {
        char c = i < len ? name[i] : ' ';
        text[i] = pic[x->at + i] >= 'a' && c >= 'A' && c <= 'Z' ? (char)(c - 'A' + 'a') : c;
    }
    return put_text(out, at, text, x->trim ? len : x->width);
}

/* The instant in the picture's form: its length (the text may be longer than OUTPUT_WIDTH: truncated) */
static int format(const char *pic, const struct term *t, int count, struct stamp s, char *out) {
    int y, m, d, at = 0, ampm = 0;
    from_lilian(s.day, &y, &m, &d);
    int hour = (int)(s.ms / 3600000), minute = (int)(s.ms / 60000 % 60), second = (int)(s.ms / 1000 % 60);
    int millis = (int)(s.ms % 1000);
    for (int i = 0; i < count; i++)
        ampm |= t[i].kind == AMPM;
    for (int i = 0; i < count; i++) {
        const struct term *x = &t[i];
        switch (x->kind) {
        case LITERAL: at = put_text(out, at, &x->literal, 1); break;
        case BLANKS: at = put_text(out, at, "                    " "                    ", x->width > 40 ? 40 : x->width); break;
        case YEAR: at = put_number(out, at, y, x->width, 0); break;
        case MONTH: at = put_number(out, at, m, 2, x->suppress); break;
        case MONTH_NAME: at = put_name(out, at, MONTHS[m - 1], x, pic); break;
        case ROMAN: {
            struct term r = *x;
            at = put_name(out, at, ROMANS[m - 1], &r, pic);
            break;
        }
        case DAY: at = put_number(out, at, d, 2, x->suppress); break;
        case YEAR_DAY: at = put_number(out, at, (long)(s.day - lilian(y, 1, 1) + 1), 3, 0); break;
        case HOUR: at = put_number(out, at, ampm ? (hour % 12 ? hour % 12 : 12) : hour, 2, x->suppress); break;
        case MINUTE: at = put_number(out, at, minute, 2, 0); break;
        case SECOND: at = put_number(out, at, second, 2, 0); break;
        case FRACTION: at = put_number(out, at, millis / (x->width == 1 ? 100 : x->width == 2 ? 10 : 1), x->width, 0); break;
        case AMPM: {
            char text[4] = {hour < 12 ? 'A' : 'P', 'M', 0, 0};
            if (x->width == 4)
                text[1] = '.', text[2] = 'M', text[3] = '.';
            for (int k = 0; k < 4 && pic[x->at] == 'a'; k++)
                text[k] = text[k] >= 'A' && text[k] <= 'Z' ? (char)(text[k] - 'A' + 'a') : text[k];
            at = put_text(out, at, text, x->width);
            break;
        }
        case WEEKDAY: at = put_name(out, at, WEEKDAYS[(s.day + 4) % 7], x, pic); break;
        case ERA: break;
        }
    }
    return at;
}

/* CEEDATE and CEEDATM: `s` in the picture's form into an 80-character output */
static int format_service(const byte *picture, const char *fallback, struct stamp s, byte *output, int truncated) {
    int n;
    const char *pic = vtext(picture, &n);
    pic = picture_or_default(pic, &n, fallback);
    struct term t[TERMS_MAX];
    int count = parse_picture(pic, n, t);
    memset(output, ' ', OUTPUT_WIDTH);
    if (count < 0)
        return PICTURE;
    char text[OUTPUT_WIDTH * 2];
    int len = format(pic, t, count, s, text);
    memcpy(output, text, (size_t)(len < OUTPUT_WIDTH ? len : OUTPUT_WIDTH));
    return len > OUTPUT_WIDTH ? truncated : 0;
}

/* ------------------------------------------------------------------------ reading */
struct reading { int year, month, day, yday, hour, minute, second, millis, pm, has_ampm; };

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* Reads a date or timestamp (`times`: CEESECS; else CEEDAYS, which stops once the date is read). 0, or
 * the condition. */
static int read_stamp(const byte *input, const byte *picture, int times, struct reading *r) {
    int n, len;
    const char *pic = vtext(picture, &n);
    const char *in = vtext(input, &len);
    pic = picture_or_default(pic, &n, times ? "MM/DD/YY HH:MI:SS" : "MM/DD/YY");
    struct term t[TERMS_MAX];
    int count = parse_picture(pic, n, t);
    int nonnumeric = times ? SECS_NONNUMERIC : DAYS_NONNUMERIC;
    if (count < 0)
        return PICTURE;
    int delimited = 0, has_year = 0, has_month = 0, has_day = 0, has_yday = 0;
    for (int i = 0; i < count; i++) {
        delimited |= t[i].kind == LITERAL || t[i].kind == BLANKS;
        has_year |= t[i].kind == YEAR, has_month |= t[i].kind == MONTH || t[i].kind == MONTH_NAME || t[i].kind == ROMAN;
        has_day |= t[i].kind == DAY, has_yday |= t[i].kind == YEAR_DAY;
        if ((t[i].kind == YEAR && t[i].width != 2 && t[i].width != 4))
            return PICTURE; /* Y and YYY are for output only (YYY: with an era) */
    }
    if (!has_year || !((has_month && has_day) || has_yday))
        return INSUFFICIENT;
    while (len > 0 && (in[len - 1] == ' ' || in[len - 1] == 0))
        len--; /* trailing blanks: the end */
    int pos = 0, first = 0;
    if (count && t[0].kind == BLANKS)
        pos = t[0].width, first = 1; /* the picture's leading blanks: exactly that many positions */
    else
        while (pos < len && in[pos] == ' ')
            pos++;
    memset(r, 0, sizeof *r);
    r->month = r->day = -1;
    int seen_year = 0, seen_month = 0, seen_day = 0, seen_yday = 0;
    for (int i = first; i < count; i++) {
        const struct term *x = &t[i];
        int done = seen_year && ((seen_month && seen_day) || seen_yday);
        if (done && !times)
            break;
        if (pos >= len) {
            if (done)
                break; /* the time left out: zeros */
            return INSUFFICIENT;
        }
        switch (x->kind) {
        case BLANKS:
            while (pos < len && in[pos] == ' ')
                pos++;
            break;
        case LITERAL:
            if (in[pos] != x->literal)
                return nonnumeric;
            pos++;
            break;
        case MONTH_NAME:
        case ROMAN:
        case WEEKDAY: {
            char word[24];
            int k = 0;
            while (pos < len && is_alpha(in[pos])) {
                if (k < 20)
                    word[k++] = (char)upper(in[pos]);
                pos++;
            }
            word[k] = 0;
            if (x->kind == WEEKDAY)
                break; /* ignored on input */
            if (k == 0)
                return nonnumeric;
            int found = 0;
            for (int mth = 0; mth < 12 && !found; mth++) {
                if (x->kind == ROMAN ? !strcmp(word, ROMANS[mth])
                                     : (k >= 3 && !strncmp(MONTHS[mth], word, (size_t)k)))
                    found = mth + 1;
            }
            if (!found)
                return BAD_MONTH;
            r->month = found, seen_month = 1;
            break;
        }
        case AMPM: {
            char a = (char)upper(in[pos]);
            if (a != 'A' && a != 'P')
                return nonnumeric;
            if (x->width == 4 || (pos + 1 < len && in[pos + 1] == '.')) {
                if (pos + 3 >= len || in[pos + 1] != '.' || upper(in[pos + 2]) != 'M' || in[pos + 3] != '.')
                    return nonnumeric;
                pos += 4;
            } else {
                if (pos + 1 >= len || upper(in[pos + 1]) != 'M')
                    return nonnumeric;
                pos += 2;
            }
            r->has_ampm = 1, r->pm = a == 'P';
            break;
        }
        default: { /* a number: exactly its width, or with delimiters 1 to its width digits */
            int value = 0, k = 0, width = x->width;
            while (k < width && pos < len && is_digit(in[pos]))
                value = value * 10 + in[pos++] - '0', k++;
            if (k == 0 || (!delimited && k < width))
                return nonnumeric;
            switch (x->kind) {
            case YEAR: r->year = width == 2 ? two_digit_year(value) : value, seen_year = 1; break;
            case MONTH: r->month = value, seen_month = 1; break;
            case DAY: r->day = value, seen_day = 1; break;
            case YEAR_DAY: r->yday = value, seen_yday = 1; break;
            case HOUR: r->hour = value; break;
            case MINUTE: r->minute = value; break;
            case SECOND: r->second = value; break;
            case FRACTION: r->millis = value * (k == 1 ? 100 : k == 2 ? 10 : 1); break;
            default: break;
            }
        }
        }
    }
    if (!(seen_year && ((seen_month && seen_day) || seen_yday)))
        return INSUFFICIENT;
    if (r->year < 1582 || r->year > 9999)
        return DATE_RANGE;
    if (seen_month && seen_day) {
        if (r->month < 1 || r->month > 12 || r->day < 1 || r->day > month_days(r->year, r->month))
            return DATE_VALUE;
    } else {
        if (r->yday < 1 || r->yday > (leap(r->year) ? 366 : 365))
            return DATE_VALUE;
        int64_t l = lilian(r->year, 1, 1) + r->yday - 1;
        from_lilian(l, &r->year, &r->month, &r->day);
    }
    if (lilian(r->year, r->month, r->day) < 1)
        return DATE_RANGE;
    if (times) {
        if (r->has_ampm) {
            if (r->hour < 1 || r->hour > 12)
                return HOURS;
            r->hour = r->hour % 12 + (r->pm ? 12 : 0);
        }
        if (r->hour > 23)
            return HOURS;
        if (r->minute > 59)
            return MINUTES;
        if (r->second > 59)
            return SECONDS;
    }
    return 0;
}

/* ------------------------------------------------------------------------ the services */

/* CEEDAYS(input_char_date VSTRING, picture_string VSTRING, output_Lilian_date INT4, fc) */
int CEEDAYS(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = read_stamp(input, picture, 0, &r);
    put4(output, failed ? 0 : (int32_t)lilian(r.year, r.month, r.day));
    feedback(fc, given(fc, 3), failed);
    return 0;
}

/* CEECBLDY: as CEEDAYS, the COBOL integer date (1 = 1 January 1601) */
int CEECBLDY(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = read_stamp(input, picture, 0, &r);
    if (!failed && r.year < 1601)
        failed = DATE_RANGE;
    put4(output, failed ? 0 : (int32_t)(lilian(r.year, r.month, r.day) - lilian(1600, 12, 31)));
    feedback(fc, given(fc, 3), failed);
    return 0;
}

/* CEESECS(input_timestamp VSTRING, picture_string VSTRING, output_seconds FLOAT8, fc) */
int CEESECS(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = read_stamp(input, picture, 1, &r);
    double seconds = 0;
    if (!failed)
        seconds = (double)(lilian(r.year, r.month, r.day) * 86400 + r.hour * 3600 + r.minute * 60 + r.second)
                  + r.millis / 1000.0;
    putd(output, seconds);
    feedback(fc, given(fc, 3), failed);
    return 0;
}

/* CEEDATE(input_Lilian_date INT4, picture_string VSTRING, output_char_date CHAR80, fc) */
int CEEDATE(byte *input, byte *picture, byte *output, byte *fc) {
    int32_t day = get4(input);
    int failed;
    if (day < 1 || day > LILIAN_MAX) {
        memset(output, ' ', OUTPUT_WIDTH);
        failed = LILIAN_RANGE;
    } else {
        struct stamp s = {day, 0};
        failed = format_service(picture, "MM/DD/YY", s, output, DATE_TRUNCATED);
    }
    feedback(fc, given(fc, 3), failed);
    return 0;
}

/* CEEDATM(input_seconds FLOAT8, picture_string VSTRING, output_timestamp CHAR80, fc) */
int CEEDATM(byte *input, byte *picture, byte *output, byte *fc) {
    double seconds = getd(input);
    int failed;
    if (!(seconds >= SECONDS_MIN && seconds <= SECONDS_MAX)) {
        memset(output, ' ', OUTPUT_WIDTH);
        failed = SECONDS_RANGE;
    } else {
        failed = format_service(picture, "MM/DD/YY HH:MI:SS", stamp_of_seconds(seconds), output, STAMP_TRUNCATED);
    }
    feedback(fc, given(fc, 3), failed);
    return 0;
}

/* CEEDYWK(input_Lilian_date INT4, output_day_no INT4 (1 Sunday .. 7 Saturday), fc) */
int CEEDYWK(byte *input, byte *output, byte *fc) {
    int32_t day = get4(input);
    int ok = day >= 1 && day <= LILIAN_MAX;
    put4(output, ok ? (int32_t)((day + 4) % 7 + 1) : 0);
    feedback(fc, given(fc, 2), ok ? 0 : LILIAN_RANGE);
    return 0;
}

/* CEEISEC(year, month, day, hours, minutes, seconds, milliseconds INT4, output_seconds FLOAT8, fc) */
int CEEISEC(byte *year, byte *month, byte *day, byte *hours, byte *minutes, byte *seconds, byte *millis,
            byte *output, byte *fc) {
    int y = get4(year), m = get4(month), d = get4(day), h = get4(hours), mi = get4(minutes), s = get4(seconds);
    int ms = get4(millis), failed = 0;
    if (y < 1582 || y > 9999)
        failed = YEAR_RANGE;
    else if (m < 1 || m > 12)
        failed = BAD_MONTH;
    else if (d < 1 || d > month_days(y, m))
        failed = DAY_VALUE;
    else if (lilian(y, m, d) < 1)
        failed = DATE_RANGE;
    else if (h < 0 || h > 23)
        failed = HOURS;
    else if (mi < 0 || mi > 59)
        failed = MINUTES;
    else if (s < 0 || s > 59)
        failed = SECONDS;
    else if (ms < 0 || ms > 999)
        failed = MILLIS;
    putd(output, failed ? 0 : (double)(lilian(y, m, d) * 86400 + h * 3600 + mi * 60 + s) + ms / 1000.0);
    feedback(fc, given(fc, 8), failed);
    return 0;
}

/* CEESECI(input_seconds FLOAT8, year, month, day, hours, minutes, seconds, milliseconds INT4, fc) */
int CEESECI(byte *input, byte *year, byte *month, byte *day, byte *hours, byte *minutes, byte *seconds,
            byte *millis, byte *fc) {
    double value = getd(input);
    int ok = value >= SECONDS_MIN && value <= SECONDS_MAX, y = 0, m = 0, d = 0;
    struct stamp s = {0, 0};
    if (ok) {
        s = stamp_of_seconds(value);
        from_lilian(s.day, &y, &m, &d);
    }
    put4(year, y), put4(month, m), put4(day, d);
    put4(hours, (int32_t)(s.ms / 3600000)), put4(minutes, (int32_t)(s.ms / 60000 % 60));
    put4(seconds, (int32_t)(s.ms / 1000 % 60)), put4(millis, (int32_t)(s.ms % 1000));
    feedback(fc, given(fc, 8), ok ? 0 : SECONDS_RANGE);
    return 0;
}

/* The time now as Lilian seconds, local (CEELOCT) or UTC (CEEGMT) */
static struct stamp now_stamp(int local, struct tm *out) {
    struct timeval tv;
    gettimeofday(&tv, NULL);
    time_t secs = tv.tv_sec;
    struct tm tm;
    if (local)
        localtime_r(&secs, &tm);
    else
        gmtime_r(&secs, &tm);
    if (out)
        *out = tm;
    struct stamp s = {lilian(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday),
                      (int64_t)tm.tm_hour * 3600000 + tm.tm_min * 60000 + (tm.tm_sec > 59 ? 59 : tm.tm_sec) * 1000
                          + tv.tv_usec / 1000};
    return s;
}

static double seconds_of(struct stamp s) { return (double)(s.day * 86400) + (double)s.ms / 1000.0; }

/* CEEGMT(output_Lilian INT4, output_seconds FLOAT8, fc): the time now, UTC */
int CEEGMT(byte *output_day, byte *output_seconds, byte *fc) {
    struct stamp s = now_stamp(0, NULL);
    put4(output_day, (int32_t)s.day);
    putd(output_seconds, seconds_of(s));
    feedback(fc, given(fc, 2), 0);
    return 0;
}

/* CEEUTC: CEEGMT's other name */
int CEEUTC(byte *output_day, byte *output_seconds, byte *fc) {
    struct stamp s = now_stamp(0, NULL);
    put4(output_day, (int32_t)s.day);
    putd(output_seconds, seconds_of(s));
    feedback(fc, given(fc, 2), 0);
    return 0;
}

/* CEELOCT(output_Lilian INT4, output_seconds FLOAT8, output_Gregorian CHAR17 YYYYMMDDHHMISS999, fc) */
int CEELOCT(byte *output_day, byte *output_seconds, byte *output_gregorian, byte *fc) {
    struct tm tm;
    struct stamp s = now_stamp(1, &tm);
    char text[72];
    snprintf(text, sizeof text, "%04d%02d%02d%02d%02d%02d%03d", tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday,
             tm.tm_hour, tm.tm_min, (int)(s.ms / 1000 % 60), (int)(s.ms % 1000));
    put4(output_day, (int32_t)s.day);
    putd(output_seconds, seconds_of(s));
    memcpy(output_gregorian, text, 17);
    feedback(fc, given(fc, 3), 0);
    return 0;
}

/* CEEGMTO(offset_hours INT4, offset_minutes INT4, offset_seconds FLOAT8, fc): local time less UTC */
int CEEGMTO(byte *hours, byte *minutes, byte *seconds, byte *fc) {
    time_t now = time(NULL);
    struct tm tm;
    localtime_r(&now, &tm);
    long offset = tm.tm_gmtoff;
    long magnitude = offset < 0 ? -offset : offset;
    put4(hours, (int32_t)(offset / 3600));
    put4(minutes, (int32_t)(magnitude / 60 % 60));
    putd(seconds, (double)offset);
    feedback(fc, given(fc, 3), 0);
    return 0;
}

/* CEESCEN(century_start INT4, fc): 0-100, two-digit years lie in the 100 years starting that many years ago */
int CEESCEN(byte *start, byte *fc) {
    int32_t value = get4(start);
    int ok = value >= 0 && value <= 100;
    if (ok)
        century_start = -value;
    feedback(fc, given(fc, 1), ok ? 0 : CENTURY);
    return 0;
}

/* CEEQCEN(century_start INT4, fc) */
int CEEQCEN(byte *start, byte *fc) {
    put4(start, -century_start);
    feedback(fc, given(fc, 1), 0);
    return 0;
}

/* CEEDCOD(cond_token, c_1 INT2, c_2 INT2, case INT2, severity INT2, control INT2, facility_ID CHAR3,
 * i_s_info INT4, fc): a condition token's parts */
int CEEDCOD(byte *token, byte *c1, byte *c2, byte *kind, byte *severity, byte *control, byte *facility,
            byte *info, byte *fc) {
    put2(c1, get2(token));
    put2(c2, get2(token + 2));
    put2(kind, token[4] >> 6);
    put2(severity, token[4] >> 3 & 7);
    put2(control, token[4] & 7);
    memcpy(facility, token + 5, 3);
    memcpy(info, token + 8, 4);
    feedback(fc, given(fc, 8), 0);
    return 0;
}

/* CEENCOD(c_1, c_2, case, severity, control INT2, facility_ID CHAR3, i_s_info INT4, cond_token, fc) */
int CEENCOD(byte *c1, byte *c2, byte *kind, byte *severity, byte *control, byte *facility, byte *info,
            byte *token, byte *fc) {
    put2(token, get2(c1));
    put2(token + 2, get2(c2));
    token[4] = (byte)((get2(kind) & 3) << 6 | (get2(severity) & 7) << 3 | (get2(control) & 7));
    memcpy(token + 5, facility, 3);
    memcpy(token + 8, info, 4);
    feedback(fc, given(fc, 8), 0);
    return 0;
}

/* CEE3DMP(title CHAR80, options CHAR255, fc): no dump here; the title goes to the run unit's stderr */
int CEE3DMP(byte *title, byte *options, byte *fc) {
    (void)options;
    int len = 80;
    while (len > 0 && (title[len - 1] == ' ' || title[len - 1] == 0))
        len--;
    fprintf(stderr, "CEE3DMP: %.*s\n", len, (const char *)title);
    fflush(stderr);
    feedback(fc, given(fc, 2), 0);
    return 0;
}

/* CEE3ABD(abend_code INT4, timing INT4): the program abends with user abend code U<abend_code> */
int CEE3ABD(byte *code, byte *timing) {
    (void)timing; /* with or without clean-up: files are closed and the unit of work rolled back alike */
    fflush(stdout);
    cob_runtime_error("CEE3ABD: the program abended with user abend code U%04d", (int)get4(code));
    cob_stop_run(1);
}
