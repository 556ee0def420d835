/*
 * Picture strings: their terms, an instant written in them (CEEDATE, CEEDATM), and a date or timestamp
 * read with them (CEEDAYS, CEESECS, CEECBLDY).
 */
#include "le.h"

#include <stdio.h>

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
    le_from_lilian(s.day, &y, &m, &d);
    int hour = (int)(s.ms / 3600000), minute = (int)(s.ms / 60000 % 60), second = (int)(s.ms / 1000 % 60);
    int millis = (int)(s.ms % 1000);
    for (int i = 0; i < count; i++)
        ampm |= t[i].kind == AMPM;
    for (int i = 0; i < count; i++) {
        const struct term *x = &t[i];
        switch (x->kind) {
        case LITERAL: at = put_text(out, at, &x->literal, 1); break;
        case BLANKS:
            for (int k = 0; k < x->width; k++)
                at = put_text(out, at, " ", 1);
            break;
        case YEAR: at = put_number(out, at, y, x->width, 0); break;
        case MONTH: at = put_number(out, at, m, 2, x->suppress); break;
        case MONTH_NAME: at = put_name(out, at, MONTHS[m - 1], x, pic); break;
        case ROMAN: {
            struct term r = *x;
            at = put_name(out, at, ROMANS[m - 1], &r, pic);
            break;
        }
        case DAY: at = put_number(out, at, d, 2, x->suppress); break;
        case YEAR_DAY: at = put_number(out, at, (long)(s.day - le_lilian(y, 1, 1) + 1), 3, 0); break;
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
int le_format(const byte *picture, const char *fallback, struct stamp s, byte *output, int truncated) {
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

static int upper(int c) { return c >= 'a' && c <= 'z' ? c - 'a' + 'A' : c; }
static int is_digit(int c) { return c >= '0' && c <= '9'; }
static int is_alpha(int c) { return (c >= 'A' && c <= 'Z') || (c >= 'a' && c <= 'z'); }

/* Reads a date or timestamp (`times`: CEESECS; else CEEDAYS, which stops once the date is read). 0, or
 * the condition. */
int le_read_stamp(const byte *input, const byte *picture, int times, struct reading *r) {
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
            case YEAR: r->year = width == 2 ? le_two_digit_year(value) : value, seen_year = 1; break;
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
        if (r->month < 1 || r->month > 12 || r->day < 1 || r->day > le_month_days(r->year, r->month))
            return DATE_VALUE;
    } else {
        if (r->yday < 1 || r->yday > (le_leap(r->year) ? 366 : 365))
            return DATE_VALUE;
        int64_t l = le_lilian(r->year, 1, 1) + r->yday - 1;
        le_from_lilian(l, &r->year, &r->month, &r->day);
    }
    if (le_lilian(r->year, r->month, r->day) < 1)
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

