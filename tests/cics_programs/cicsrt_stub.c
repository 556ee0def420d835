/* A stand-in for the runtime's CICSRT entry, for tests of the EXEC CICS translator's CALLs.

   It reads each command's descriptor ("line;COMMAND;OPT();FLAG;COND(i)...") as the runtime will,
   finds the parameter of each OPT() in order, and appends "n descriptor" to the file named by
   CICSRT_LOG (and "TS queue|data" for WRITEQ TS). It keeps HANDLE CONDITION labels per LINK level,
   raises NOTFND on the commands named in CICSRT_NOTFND (e.g. "READ"), ENDFILE on READNEXT after
   CICSRT_BROWSE records, NOTFND on GET COUNTER until DEFINE COUNTER, and answers as the convention
   says: EIBRESP (big-endian), the RESP item (8 bytes, native), DFHEIGDI = handler index or -1 to end
   the program (an abend). LINK and XCTL call their program here, with an EIB of their level. */
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

extern int cob_get_num_params(void);
extern int cob_get_param_size(int num_param);
extern void *cob_get_param_data(int num_param);
extern long long cob_get_s64_param(int num_param);
extern void *cob_resolve_cobol(const char *name, const int fold_case, const int errind);
extern int cob_call(const char *name, const int argc, void **argv);

enum { GDI = 20, CALEN = 24, RESP = 76, LEVELS = 16, CONDITIONS = 128, OPTIONS = 40 };

static int handlers[LEVELS][CONDITIONS];
static int level, counter_defined, browsed, abending;

static void put16(unsigned char *p, int v) { p[0] = (unsigned char)(v >> 8); p[1] = (unsigned char)v; }
static int get16(const unsigned char *p) { return (short)(p[0] << 8 | p[1]); }
static void put32(unsigned char *p, int v) {
    for (int i = 0; i < 4; i++) p[i] = (unsigned char)(v >> (24 - 8 * i));
}

static int condition(const char *name) {
    static const struct { const char *name; int code; } known[] = {
        {"ERROR", 1}, {"NOTFND", 13}, {"DUPREC", 14}, {"INVREQ", 16}, {"ENDFILE", 20},
        {"LENGERR", 22}, {"PGMIDERR", 27}};
    for (size_t i = 0; i < sizeof known / sizeof known[0]; i++)
        if (strcmp(name, known[i].name) == 0) return known[i].code;
    return 0;
}

static void logline(const char *text) {
    const char *log = getenv("CICSRT_LOG");
    FILE *f = log ? fopen(log, "a") : NULL;
    if (f) { fprintf(f, "%s\n", text); fclose(f); }
}

int CICSRT(void) {
    long long n = cob_get_s64_param(1);
    unsigned char *eib = cob_get_param_data(2);
    char desc[512], line[700], *names[OPTIONS];
    int params[OPTIONS], count = 0, resp = 0, size = cob_get_param_size(3);
    if (size > 511) size = 511;
    memcpy(desc, cob_get_param_data(3), (size_t)size);
    desc[size] = 0;
    while (size > 0 && desc[size - 1] == ' ') desc[--size] = 0;
    snprintf(line, sizeof line, "%lld %s", n, desc);
    logline(line);

    char *save = NULL, *lineno = strtok_r(desc, ";", &save), *command = strtok_r(NULL, ";", &save);
    int next = 4;
    for (char *tok; count < OPTIONS && (tok = strtok_r(NULL, ";", &save)) != NULL; count++) {
        names[count] = tok;
        params[count] = 0;
        size_t len = strlen(tok);
        if (len > 2 && strcmp(tok + len - 2, "()") == 0) { tok[len - 2] = 0; params[count] = next++; }
    }
    (void)lineno;
    int resp_at = 0, nohandle = 0;
    for (int i = 0; i < count; i++) {
        if (strcmp(names[i], "RESP") == 0) resp_at = params[i];
        if (strcmp(names[i], "NOHANDLE") == 0) nohandle = 1;
    }
#define PARAM(name) ({ int at_ = 0; for (int i_ = 0; i_ < count; i_++) if (strcmp(names[i_], name) == 0) at_ = params[i_]; at_; })

    int gdi = 0;
    void *resp_item = resp_at ? cob_get_param_data(resp_at) : NULL; /* before a LINK calls anything */
    if (strcmp(command, "HANDLE CONDITION") == 0) {
        for (int i = 0; i < count; i++) {
            char *paren = strchr(names[i], '(');
            int index = paren ? atoi(paren + 1) : 0;
            if (paren) *paren = 0;
            handlers[level][condition(names[i])] = index;
        }
    } else if (strcmp(command, "LINK") == 0 || strcmp(command, "XCTL") == 0) {
        static unsigned char eibs[LEVELS][85], none[1];
        char program[9];
        int at = PARAM("PROGRAM"), area = PARAM("COMMAREA"), length = PARAM("LENGTH");
        long long calen = area ? cob_get_param_size(area) : 0;
        if (length) memcpy(&calen, cob_get_param_data(length), 8);
        memcpy(program, cob_get_param_data(at), 8);
        program[8] = 0;
        for (int i = 7; i >= 0 && program[i] == ' '; i--) program[i] = 0;
        void *args[2] = {eibs[level + 1], area ? cob_get_param_data(area) : none};
        if (level + 1 >= LEVELS || cob_resolve_cobol(program, 0, 0) == NULL) {
            resp = condition("PGMIDERR");
        } else {
            memset(eibs[level + 1], 0, 85);
            put16(eibs[level + 1] + CALEN, (int)calen);
            level++;
            memset(handlers[level], 0, sizeof handlers[level]);
            cob_call(program, 2, args);
            level--;
            snprintf(line, sizeof line, "%lld returned from %s", n, program);
            logline(line);
            if (abending) { put16(eib + GDI, -1); return 0; }
        }
    } else if (strcmp(command, "READNEXT") == 0) {
        char *limit = getenv("CICSRT_BROWSE");
        if (browsed >= (limit ? atoi(limit) : 0)) resp = condition("ENDFILE");
        else {
            char key[9];
            snprintf(key, sizeof key, "%08d", 101 + browsed++);
            memcpy(cob_get_param_data(PARAM("INTO")), key, 8);
        }
    } else if (strcmp(command, "GET COUNTER") == 0) {
        if (!counter_defined) resp = condition("NOTFND");
        else { long long v = 1000; memcpy(cob_get_param_data(PARAM("VALUE")), &v, 8); }
    } else if (strcmp(command, "DEFINE COUNTER") == 0) {
        counter_defined = 1;
    } else if (strcmp(command, "WRITEQ TS") == 0) {
        int q = PARAM("QNAME") ? PARAM("QNAME") : PARAM("QUEUE"), from = PARAM("FROM");
        snprintf(line, sizeof line, "TS %.*s|%.*s", cob_get_param_size(q), (char *)cob_get_param_data(q),
                 cob_get_param_size(from), (char *)cob_get_param_data(from));
        logline(line);
    } else if (strcmp(command, "ABEND") == 0) {
        abending = 1;
        gdi = -1;
    } else {
        const char *raise = getenv("CICSRT_NOTFND");
        if (raise && strcmp(raise, command) == 0) resp = condition("NOTFND");
    }
    put32(eib + RESP, resp);
    if (resp_item) { long long v = resp; memcpy(resp_item, &v, 8); }
    else if (resp && !nohandle) {
        gdi = handlers[level][resp] ? handlers[level][resp] : handlers[level][1];
        if (!gdi) { abending = 1; gdi = -1; snprintf(line, sizeof line, "ABEND RESP %d", resp); logline(line); }
    }
    put16(eib + GDI, gdi);
    return 0;
}
