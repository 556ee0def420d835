/*
 * Feedback codes: LE's condition tokens, written or, without a feedback code, signalled as an abend;
 * and the condition services CEEDCOD, CEENCOD, CEE3DMP and CEE3ABD.
 */
#include "le.h"

#include <stdio.h>

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
int le_given(void *arg, int index) { return arg != NULL && cob_get_num_params() > index; }

void le_feedback(byte *fc, int has_fc, int number) {
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
    le_feedback(fc, le_given(fc, 8), 0);
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
    le_feedback(fc, le_given(fc, 8), 0);
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
    le_feedback(fc, le_given(fc, 2), 0);
    return 0;
}

/* CEE3ABD(abend_code INT4, timing INT4): the program abends with user abend code U<abend_code> */
int CEE3ABD(byte *code, byte *timing) {
    (void)timing; /* with or without clean-up: files are closed and the unit of work rolled back alike */
    fflush(stdout);
    cob_runtime_error("CEE3ABD: the program abended with user abend code U%04d", (int)get4(code));
    cob_stop_run(1);
}
