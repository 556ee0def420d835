/*
 * The Language Environment services' shared parts (see __init__.py beside this file for what is served
 * and how it is reached): conditions.c (feedback codes, the condition services, CEE3ABD), calendar.c
 * (Lilian days and seconds, the date and time services) and pictures.c (picture strings).
 *
 * Parameters are as a z/OS COBOL program lays them out: INT2/INT4 are big-endian binary (COBOL BINARY,
 * COMP), FLOAT8 is a native double (COMP-2), a VSTRING is a big-endian halfword length followed by its
 * characters, a feedback code is 12 bytes (severity, message number, case/severity/control byte,
 * facility 'CEE' in EBCDIC as LE writes it, so a program's X'...C3C5C5' tokens match; then I_S_Info).
 * An omitted feedback code (OMITTED, or fewer arguments) makes a condition of severity 2 or more end the
 * run unit, as an unhandled LE condition ends the enclave.
 */
#ifndef COBOL_MCP_LE_H
#define COBOL_MCP_LE_H

#include <stddef.h>
#include <stdint.h>
#include <string.h>

#include <libcob.h>

typedef unsigned char byte;

/* The files' own functions: not exported, so only the services are names a CALL can find */
#define LE_INTERNAL __attribute__((visibility("hidden")))

#define LILIAN_MAX 3074324               /* 31 December 9999 */
#define SECONDS_MIN 86400.0              /* 00:00:00 15 October 1582 */
#define SECONDS_MAX 265621679999.999     /* 23:59:59.999 31 December 9999 */
#define VSTRING_MAX 255                  /* the longest date, timestamp or picture LE reads */
#define OUTPUT_WIDTH 80                  /* CEEDATE and CEEDATM write a fixed 80-character string */

/* ------------------------------------------------------------------------ binary fields */
static inline int32_t get4(const byte *p) {
    return (int32_t)((uint32_t)p[0] << 24 | (uint32_t)p[1] << 16 | (uint32_t)p[2] << 8 | p[3]);
}
static inline void put4(byte *p, int32_t v) {
    uint32_t u = (uint32_t)v;
    p[0] = (byte)(u >> 24), p[1] = (byte)(u >> 16), p[2] = (byte)(u >> 8), p[3] = (byte)u;
}
static inline int get2(const byte *p) { return (int16_t)((uint16_t)p[0] << 8 | p[1]); }
static inline void put2(byte *p, int v) { p[0] = (byte)((unsigned)v >> 8), p[1] = (byte)v; }
static inline double getd(const byte *p) { double d; memcpy(&d, p, sizeof d); return d; }
static inline void putd(byte *p, double d) { memcpy(p, &d, sizeof d); }

/* A VSTRING's text and length (0 for a negative length, at most VSTRING_MAX) */
static inline const char *vtext(const byte *v, int *len) {
    int n = get2(v);
    *len = n < 0 ? 0 : n > VSTRING_MAX ? VSTRING_MAX : n;
    return (const char *)v + 2;
}
/* ------------------------------------------------------------------------ conditions (conditions.c) */
enum {
    SECONDS_RANGE = 2505, INSUFFICIENT = 2507, DATE_VALUE = 2508, HOURS = 2510, DAY_VALUE = 2511,
    LILIAN_RANGE = 2512, DATE_RANGE = 2513, YEAR_RANGE = 2514, MILLIS = 2515, MINUTES = 2516, BAD_MONTH = 2517,
    PICTURE = 2518, SECONDS = 2519, DAYS_NONNUMERIC = 2520, SECS_NONNUMERIC = 2525, DATE_TRUNCATED = 2526,
    STAMP_TRUNCATED = 2527, CENTURY = 2533,
};

/* Argument `index` (0-based) given, and not OMITTED */
LE_INTERNAL int le_given(void *arg, int index);
/* Sets the feedback code (CEE000: twelve zero bytes); without one, a condition of severity 2 or more
 * ends the run unit with LE's message, as an unhandled condition does. */
LE_INTERNAL void le_feedback(byte *fc, int has_fc, int number);

/* ------------------------------------------------------------------------ the calendar (calendar.c) */
/* An instant: its Lilian day and the milliseconds into it */
struct stamp { int64_t day; int64_t ms; };
LE_INTERNAL int le_leap(int y);
LE_INTERNAL int le_month_days(int y, int m);
LE_INTERNAL int64_t le_lilian(int y, int m, int d);
LE_INTERNAL void le_from_lilian(int64_t lil, int *y, int *m, int *d);
LE_INTERNAL int le_two_digit_year(int yy);

/* ------------------------------------------------------------------------ picture strings (pictures.c) */
struct reading { int year, month, day, yday, hour, minute, second, millis, pm, has_ampm; };
/* Reads a date or timestamp (`times`: CEESECS; else CEEDAYS, which stops once the date is read). 0, or
 * the condition. */
LE_INTERNAL int le_read_stamp(const byte *input, const byte *picture, int times, struct reading *r);
/* CEEDATE and CEEDATM: `s` in the picture's form into an 80-character output; 0, or the condition */
LE_INTERNAL int le_format(const byte *picture, const char *fallback, struct stamp s, byte *output, int truncated);

#endif
