/*
 * The calendar (Lilian days from 15 October 1582, the proleptic Gregorian calendar), instants, and the
 * date and time services: CEEDAYS, CEECBLDY, CEESECS, CEEDATE, CEEDATM, CEEDYWK, CEEISEC, CEESECI,
 * CEEGMT, CEEUTC, CEELOCT, CEEGMTO, CEESCEN and CEEQCEN.
 */
#include "le.h"

#include <stdio.h>
#include <sys/time.h>
#include <time.h>

/* ------------------------------------------------------------------------ the calendar */
int le_leap(int y) { return (y % 4 == 0 && y % 100 != 0) || y % 400 == 0; }
int le_month_days(int y, int m) {
    static const int days[] = {31, 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31};
    return m == 2 && le_leap(y) ? 29 : days[m - 1];
}

/* Days from 1 March of year 0 of the proleptic Gregorian calendar (Hinnant's days_from_civil) */
static int64_t civil(int y, int m, int d) {
    y -= m <= 2;
    int64_t era = y / 400, yoe = y - era * 400;
    int64_t doy = (153 * (m + (m > 2 ? -3 : 9)) + 2) / 5 + d - 1;
    return era * 146097 + yoe * 365 + yoe / 4 - yoe / 100 + doy;
}
int64_t le_lilian(int y, int m, int d) { return civil(y, m, d) - civil(1582, 10, 14); }

void le_from_lilian(int64_t lil, int *y, int *m, int *d) {
    int64_t z = lil + civil(1582, 10, 14);
    int64_t era = z / 146097, doe = z - era * 146097;
    int64_t yoe = (doe - doe / 1460 + doe / 36524 - doe / 146096) / 365;
    int64_t doy = doe - (365 * yoe + yoe / 4 - yoe / 100);
    int64_t mp = (5 * doy + 2) / 153;
    *d = (int)(doy - (153 * mp + 2) / 5 + 1);
    *m = (int)(mp < 10 ? mp + 3 : mp - 9);
    *y = (int)(yoe + era * 400 + (*m <= 2));
}


static struct stamp stamp_of_seconds(double seconds) {
    int64_t ms = (int64_t)(seconds * 1000.0 + 0.5); /* to the nearest millisecond: a double holds no more */
    struct stamp s = {ms / 86400000, ms % 86400000};
    return s;
}

static int century_start = -80; /* CEESCEN: negative, years before this one (a sliding window); else a year */

int le_two_digit_year(int yy) {
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
/* ------------------------------------------------------------------------ the services */

/* CEEDAYS(input_char_date VSTRING, picture_string VSTRING, output_Lilian_date INT4, fc) */
int CEEDAYS(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = le_read_stamp(input, picture, 0, &r);
    put4(output, failed ? 0 : (int32_t)le_lilian(r.year, r.month, r.day));
    le_feedback(fc, le_given(fc, 3), failed);
    return 0;
}

/* CEECBLDY: as CEEDAYS, the COBOL integer date (1 = 1 January 1601) */
int CEECBLDY(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = le_read_stamp(input, picture, 0, &r);
    if (!failed && r.year < 1601)
        failed = DATE_RANGE;
    put4(output, failed ? 0 : (int32_t)(le_lilian(r.year, r.month, r.day) - le_lilian(1600, 12, 31)));
    le_feedback(fc, le_given(fc, 3), failed);
    return 0;
}

/* CEESECS(input_timestamp VSTRING, picture_string VSTRING, output_seconds FLOAT8, fc) */
int CEESECS(byte *input, byte *picture, byte *output, byte *fc) {
    struct reading r;
    int failed = le_read_stamp(input, picture, 1, &r);
    double seconds = 0;
    if (!failed)
        seconds = (double)(le_lilian(r.year, r.month, r.day) * 86400 + r.hour * 3600 + r.minute * 60 + r.second)
                  + r.millis / 1000.0;
    putd(output, seconds);
    le_feedback(fc, le_given(fc, 3), failed);
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
        failed = le_format(picture, "MM/DD/YY", s, output, DATE_TRUNCATED);
    }
    le_feedback(fc, le_given(fc, 3), failed);
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
        failed = le_format(picture, "MM/DD/YY HH:MI:SS", stamp_of_seconds(seconds), output, STAMP_TRUNCATED);
    }
    le_feedback(fc, le_given(fc, 3), failed);
    return 0;
}

/* CEEDYWK(input_Lilian_date INT4, output_day_no INT4 (1 Sunday .. 7 Saturday), fc) */
int CEEDYWK(byte *input, byte *output, byte *fc) {
    int32_t day = get4(input);
    int ok = day >= 1 && day <= LILIAN_MAX;
    put4(output, ok ? (int32_t)((day + 4) % 7 + 1) : 0);
    le_feedback(fc, le_given(fc, 2), ok ? 0 : LILIAN_RANGE);
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
    else if (d < 1 || d > le_month_days(y, m))
        failed = DAY_VALUE;
    else if (le_lilian(y, m, d) < 1)
        failed = DATE_RANGE;
    else if (h < 0 || h > 23)
        failed = HOURS;
    else if (mi < 0 || mi > 59)
        failed = MINUTES;
    else if (s < 0 || s > 59)
        failed = SECONDS;
    else if (ms < 0 || ms > 999)
        failed = MILLIS;
    putd(output, failed ? 0 : (double)(le_lilian(y, m, d) * 86400 + h * 3600 + mi * 60 + s) + ms / 1000.0);
    le_feedback(fc, le_given(fc, 8), failed);
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
        le_from_lilian(s.day, &y, &m, &d);
    }
    put4(year, y), put4(month, m), put4(day, d);
    put4(hours, (int32_t)(s.ms / 3600000)), put4(minutes, (int32_t)(s.ms / 60000 % 60));
    put4(seconds, (int32_t)(s.ms / 1000 % 60)), put4(millis, (int32_t)(s.ms % 1000));
    le_feedback(fc, le_given(fc, 8), ok ? 0 : SECONDS_RANGE);
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
    struct stamp s = {le_lilian(tm.tm_year + 1900, tm.tm_mon + 1, tm.tm_mday),
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
    le_feedback(fc, le_given(fc, 2), 0);
    return 0;
}

/* CEEUTC: CEEGMT's other name */
int CEEUTC(byte *output_day, byte *output_seconds, byte *fc) {
    struct stamp s = now_stamp(0, NULL);
    put4(output_day, (int32_t)s.day);
    putd(output_seconds, seconds_of(s));
    le_feedback(fc, le_given(fc, 2), 0);
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
    le_feedback(fc, le_given(fc, 3), 0);
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
    le_feedback(fc, le_given(fc, 3), 0);
    return 0;
}

/* CEESCEN(century_start INT4, fc): 0-100, two-digit years lie in the 100 years starting that many years ago */
int CEESCEN(byte *start, byte *fc) {
    int32_t value = get4(start);
    int ok = value >= 0 && value <= 100;
    if (ok)
        century_start = -value;
    le_feedback(fc, le_given(fc, 1), ok ? 0 : CENTURY);
    return 0;
}

/* CEEQCEN(century_start INT4, fc) */
int CEEQCEN(byte *start, byte *fc) {
    put4(start, -century_start);
    le_feedback(fc, le_given(fc, 1), 0);
    return 0;
}
