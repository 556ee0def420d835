/*
 * The C worker's service entries, SQLRT (EXEC SQL statements, service 1) and CICSRT (EXEC CICS
 * commands, service 2): a program running in this worker CALLs one, the call is asked of the server
 * mid-call as a reply of status 2 (layout in worker.h), and the CALL returns once the answer frame
 * for the running call has put its bytes in the parameters. The frames that arrive before the answer
 * (calls pipelined behind this one) stay in `in`, in order, for after the call. An SQLRT answer may
 * carry rows sent ahead (a FETCH's next answers, sqlbridge.ahead): the same statement's next CALLs
 * take them, in order, without asking; the next request of any other kind tells the server how many
 * were used (number | used << USED_SHIFT; statement 0 alone before a CICSRT). These two entries and
 * main are all the executable exports (-rdynamic): libcob's CALL finds them by name in the
 * executable, as it finds a program in a loaded module.
 *
 * A call's statements may come from several programs (subprograms it CALLs, programs it LINKs to),
 * each numbered in its own program: before a statement of another program than the last one told
 * (at first, the call's own), SQLRT tells the server whose statements follow (PROGRAM_NUMBER, the
 * PROGRAM-ID as its one parameter), read from libcob's chain of active modules.
 */
#include "worker.h"
#include "worker_sql.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <strings.h>
#include <unistd.h>

#include <libcob.h> /* the active modules (cob_get_global_ptr), cob_resolve, cob_call, cob_cancel */

uint32_t running;
size_t after_running;
static unsigned char *asked; /* a service request being written */
static size_t asked_size;
#define EIB_BYTES 85 /* DFHEIBLK: sqlbridge.cics_eib.EIB_SIZE */
#define ENDED_SHIFT 20 /* sqlbridge.cics.ENDED_SHIFT: a CICSRT number's bits for the levels ended */
static unsigned ended; /* LINKed levels returned, not told yet */
static unsigned linked; /* LINKed (or XCTLed) programs running in the call linked_call */
static uint32_t linked_call;
#define RETURN_EIBFN 0x0E08 /* precompile.cics_table: RETURN's EIBFN */
#define PROGRAM_NUMBER (-1) /* sqlbridge.session.PROGRAM_NUMBER */
#define CALLER_PREFIX "COBOL-MCP-CALLER" /* cobol.prepare.driver.DRIVER_ID: the server's own callers */
static uint32_t told_call; /* the call whose server session was last told a program (call ids start at 1) */
static char told[NAME_LENGTH]; /* and that program */
#define USED_SHIFT 20 /* sqlbridge.ahead.USED_SHIFT: an SQLRT number's bits for the rows used */
static unsigned char *ahead; /* per row: its image (SQLCA and host variables), then its keep mask */
static size_t ahead_size, ahead_rows, ahead_used, ahead_total;
static long long ahead_number;
static uint32_t ahead_call; /* the call they were sent to: another call's (it ended first) are dropped */
static unsigned char *plan_bytes; /* the plan the server's last SQLPLAN answer brought (worker_sql.c) */
static size_t plan_size, plan_room;

const unsigned char *plan_asked(size_t *n) {
    *n = plan_size;
    return plan_bytes;
}

/* Read more request bytes into in[have, ...), waiting for them; the server gone: exit. */
static void read_more(void) {
    in = grow(in, &in_size, have + READ_SIZE);
    struct pollfd wait = {REQUEST_FD, POLLIN, 0};
    for (;;) {
        ssize_t n = read(REQUEST_FD, in + have, in_size - have);
        if (n > 0) {
            have += (size_t)n;
            return;
        }
        if (n == 0)
            _exit(0);
        if (errno == EAGAIN || errno == EWOULDBLOCK)
            poll(&wait, 1, -1);
        else if (errno != EINTR)
            _exit(0);
    }
}

/* The running call asks the server (status 2), then waits for the answer and puts its bytes in
 * the parameters data[2..count] (sizes[2..count]). The frames before it (calls pipelined behind
 * this one) stay in `in` for later. */
int ask_with(unsigned service, long long number, int count, void **data, const size_t *sizes) {
    size_t total = 0, head = REPLY_HEAD + 3 + 4 * (size_t)(count - 1);
    for (int i = 2; i <= count; i++)
        total += sizes[i];
    asked = grow(asked, &asked_size, head + total);
    asked[REPLY_HEAD] = (unsigned char)service;
    asked[REPLY_HEAD + 1] = (unsigned char)(count - 1);
    asked[REPLY_HEAD + 2] = (unsigned char)((count - 1) >> 8);
    unsigned char *o = asked + head;
    for (int i = 2; i <= count; i++) {
        size_t size = sizes[i];
        put32(asked + REPLY_HEAD + 3 + 4 * (size_t)(i - 2), (uint32_t)size);
        memcpy(o, data[i], size);
        o += size;
    }
    put32(asked, running);
    asked[4] = 2;
    put32(asked + 5, (uint32_t)(int32_t)number);
    if (service == 1 && ahead_rows) { /* the rows sent ahead: how many were used, the rest go back */
        put32(asked + 5, (uint32_t)(int32_t)number | ((uint32_t)ahead_used << USED_SHIFT));
        ahead_rows = 0;
    }
    if (service == 2 && ended) { /* LINKed levels that have returned since the last exchange */
        put32(asked + 5, (uint32_t)(int32_t)number | ((uint32_t)ended << ENDED_SHIFT));
        ended = 0;
    }
    put32(asked + 9, (uint32_t)(head - REPLY_HEAD + total));
    put32(asked + 13, 0);
    send_all(asked, head + total);
    size_t at = after_running; /* frames from here on are looked through, kept, until the answer */
    for (;;) {
        while (have - at >= REQUEST_HEAD) {
            const unsigned char *frame = in + at;
            size_t length = get32(frame + 5), whole = REQUEST_HEAD + length;
            if (frame[0] != 3 || get32(frame + 1) != running) {
                if (have - at < whole)
                    break;
                at += whole;
                continue;
            }
            if (length < total || (length > total && service == 1 && length < total + 4)) {
                fprintf(stderr, "cobol-mcp worker: an answer of %zu bytes to a request of %zu\n", (size_t)length, total);
                _exit(70);
            }
            if (have - at < whole)
                break;
            const unsigned char *body = frame + REQUEST_HEAD;
            for (int i = 2; i <= count; i++) { /* a widened FROM: its item's own bytes back (widen_from) */
                size_t size = sizes[i];
                memcpy(data[i], body, service == 2 && i == wide_param && wide_item < size ? wide_item : size);
                body += size;
            }
            if (service == 3) { /* SQLPLAN: the plan's bytes (none for the other requests) */
                plan_bytes = grow(plan_bytes, &plan_room, length - total + 1);
                memcpy(plan_bytes, body, length - total);
                plan_size = length - total;
            } else if (length > total && service == 2) { /* a SET command's data: worker_storage.c keeps it */
                given_area(body, length - total);
            } else if (length > total) { /* rows sent ahead: u32 count, then per row image and keep mask */
                size_t rows = get32(body), row = 2 * total;
                if (total == 0 || length - total - 4 != rows * row) {
                    fprintf(stderr, "cobol-mcp worker: %zu rows ahead in %zu bytes\n", rows, (size_t)length - total - 4);
                    _exit(70);
                }
                ahead = grow(ahead, &ahead_size, rows * row);
                memcpy(ahead, body + 4, rows * row);
                ahead_rows = rows, ahead_used = 0, ahead_total = total, ahead_number = number, ahead_call = running;
            }
            memmove(in + at, in + at + whole, have - at - whole); /* the frames after it stay in order */
            have -= whole;
            return 0;
        }
        read_more();
    }
}

/* The next row sent ahead for statement `number`, if there is one for these parameters: stored as
 * the statement would store it (the bytes its keep mask marks stay as the program left them). */
static int from_ahead(long long number, int count, void **data, const size_t *sizes) {
    size_t total = 0;
    for (int i = 2; i <= count; i++)
        total += sizes[i];
    if (number != ahead_number || ahead_used >= ahead_rows || total != ahead_total)
        return 0;
    const unsigned char *image = ahead + ahead_used * 2 * total, *keep = image + total;
    for (int i = 2; i <= count; i++) {
        unsigned char *o = data[i];
        for (size_t j = 0; j < sizes[i]; j++)
            o[j] = (unsigned char)((o[j] & keep[j]) | image[j]);
        image += sizes[i], keep += sizes[i];
    }
    ahead_used++;
    return 1;
}

/* Before a request of another service: the rows sent ahead that were used told alone (statement 0). */
static void tell_ahead(void) {
    if (ahead_rows && ahead_call != running)
        ahead_rows = 0;
    if (ahead_rows) {
        void *data[2] = {NULL, NULL};
        size_t sizes[2] = {0, 0};
        ask_with(1, 0, 1, data, sizes);
    }
}

/* The COBOL CALL's own parameters asked of the server. */
static int ask(unsigned service, int count, void **data, size_t *sizes) {
    if (count < 1 || count > MAX_ARGS) {
        fprintf(stderr, "cobol-mcp worker: CALL of a service with %d parameters\n", count);
        _exit(70);
    }
    for (int i = 2; i <= count; i++) {
        data[i] = cob_get_param_data(i);
        sizes[i] = service == 2 ? cics_param_size(i) : (size_t)cob_get_param_size(i);
    }
    long long number = cob_get_s64_param(1);
    if (ahead_rows && ahead_call != running)
        ahead_rows = 0; /* a call that ended with rows sent ahead: its session has ended too */
    if (service == 1 && ahead_rows && from_ahead(number, count, data, sizes))
        return 0;
    return ask_with(service, number, count, data, sizes);
}

/* The PROGRAM-ID of the COBOL program that CALLed the entry running; `outermost`: of the first program
 * the call ran instead (the tool's, under the server's caller). */
const char *caller_program(int outermost) {
    const char *name = "";
    for (cob_module *m = cob_get_global_ptr()->cob_current_module; m; m = m->next) {
        if (m->module_name && strncmp(m->module_name, CALLER_PREFIX, sizeof CALLER_PREFIX - 1) != 0) {
            name = m->module_name;
            if (!outermost)
                break;
        }
    }
    return name;
}

/* Whether a program of that name is active (LINKed and not returned, or the tool's own). */
static int active(const char *name) {
    for (cob_module *m = cob_get_global_ptr()->cob_current_module; m; m = m->next)
        if (m->module_name && strcasecmp(m->module_name, name) == 0)
            return 1;
    return 0;
}

/* Before a statement: the server told whose it is, when not the program it was last told of. */
static void tell_program(void) {
    const char *name = caller_program(0);
    if (told_call != running) { /* the call's session starts with the call's own program */
        told_call = running;
        snprintf(told, sizeof told, "%s", caller_program(1));
    }
    if (strcmp(told, name) == 0)
        return;
    tell_ahead(); /* rows sent ahead belong to the last program's statement: their use told, the rest go back */
    snprintf(told, sizeof told, "%s", name);
    char text[NAME_LENGTH];
    snprintf(text, sizeof text, "%s", name);
    void *data[3] = {NULL, NULL, text};
    size_t sizes[3] = {0, 0, strlen(text)};
    ask_with(1, PROGRAM_NUMBER, 2, data, sizes);
}

/* A runtime exchange of its own (a LINK level starting or ending): its text and the EIB. */
static void ask_level(const char *text, unsigned char *eib) {
    tell_ahead();
    char desc[32];
    snprintf(desc, sizeof desc, "%s", text);
    void *data[4] = {NULL, NULL, eib, desc};
    size_t sizes[4] = {0, 0, EIB_BYTES, strlen(desc)};
    ask_with(2, 0, 3, data, sizes);
}

/* LINK or XCTL (the descriptor's command): the program is resolved by name (libcob's cob_resolve,
 * on COB_LIBRARY_PATH: the folder's modules), the server told whether it was (EIB bytes 20-21: 1
 * resolved, 0 not: PGMIDERR), and if the server says go on (EIBRESP 0: it has started the new
 * level and answered with its EIB), the program is called with an EIB of its own, a copy of that
 * answer, and the COMMAREA (or one byte); the server is told when it has returned (LINK END) and
 * answers the caller's EIB. */
static int link_program(int count, void **data, size_t *sizes) {
    const char *desc = data[3];
    size_t n = sizes[3];
    while (n && (desc[n - 1] == ' ' || desc[n - 1] == 0))
        n--;
    char name[9] = {0};
    size_t name_size = sizes[4] < 8 ? sizes[4] : 8;
    memcpy(name, data[4], name_size);
    for (int i = (int)name_size - 1; i >= 0 && (name[i] == ' ' || name[i] == 0); i--)
        name[i] = 0;
    /* the COMMAREA's parameter: the options with a parameter ("OPT()") counted in order */
    void *commarea = NULL;
    int param = 4;
    for (size_t i = 0, start = 0; i <= n; i++) {
        if (i == n || desc[i] == ';') {
            size_t len = i - start;
            if (len > 2 && desc[i - 1] == ')' && desc[i - 2] == '(') {
                if (len == 10 && memcmp(desc + start, "COMMAREA()", 10) == 0 && param <= count)
                    commarea = data[param];
                param++;
            }
            start = i + 1;
        }
    }
    unsigned char *eib = data[2];
    unsigned char saved[EIB_BYTES];
    memcpy(saved, eib, EIB_BYTES);
    const char *semi = memchr(desc, ';', n);
    void *entry = name[0] ? cob_resolve(name) : NULL;
    eib[20] = 0, eib[21] = entry ? 1 : 0;
    ask_with(2, cob_get_s64_param(1), count, data, sizes);
    if (!entry || eib[76] || eib[77] || eib[78] || eib[79] || eib[20] || eib[21])
        return 0; /* PGMIDERR (RESP, a HANDLE label, IGNORE) or another answer: not called */
    unsigned char own[EIB_BYTES + 1]; /* the answer is the new level's EIB; ours is kept here */
    unsigned char one = ' ';
    memcpy(own, eib, EIB_BYTES);
    memcpy(eib, saved, EIB_BYTES);
    void *args[2] = {own, commarea ? commarea : &one};
    if (!active(name)) /* each LINK a new instance: the callee's WORKING-STORAGE as its VALUEs set it */
        cob_cancel(name);
    if (linked_call != running)
        linked_call = running, linked = 0;
    linked++;
    cob_call(name, 2, args);
    linked--;
    if (own[20] == 0xFF && own[21] == 0xFF) { /* an abend going down to a HANDLE ABEND: the server says where */
        ask_level("0;=LINK END", eib);
        return 0;
    }
    ended++; /* the server is told with the next exchange; the caller's EIB as a LINK leaves it */
    eib[20] = eib[21] = 0;
    memset(eib + 76, 0, 8);
    eib[27] = 0x0E, eib[28] = memcmp(semi + 1, "XCTL", 4) == 0 ? 0x04 : 0x02;
    return 0;
}

/* The entries COBOL programs CALL: EXEC SQL statements (SQLRT) and EXEC CICS commands (CICSRT). */
int SQLRT(void) {
    if (sql_call && sql_call == running) /* a call whose statements run here (worker_sql.c) */
        return sql_statement();
    void *data[MAX_ARGS + 1];
    size_t sizes[MAX_ARGS + 1];
    if (ended) { /* the levels a LINK ended are told first */
        unsigned char eib[EIB_BYTES];
        memset(eib, 0, sizeof eib);
        ask_level("0;=LINK ENDED", eib);
    }
    tell_program();
    return ask(1, cob_get_num_params(), data, sizes);
}

static int cics_command(void);

int CICSRT(void) {
    int code = cics_command();
    wide_param = 0; /* a FROM widened for this command only */
    return code;
}

static int cics_command(void) {
    void *data[MAX_ARGS + 1];
    size_t sizes[MAX_ARGS + 1];
    int count = cob_get_num_params();
    tell_ahead(); /* every CICS command is preceded by the rows-ahead report (one exchange, when rows were sent) */
    if (count >= 3 && count <= MAX_ARGS) {
        const char *desc = cob_get_param_data(3);
        size_t n = (size_t)cob_get_param_size(3);
        const char *semi = memchr(desc, ';', n);
        size_t rest = semi ? n - (size_t)(semi + 1 - desc) : 0;
        if (count >= 4 && semi && rest >= 5 &&
            (memcmp(semi + 1, "LINK;", 5) == 0 || memcmp(semi + 1, "XCTL;", 5) == 0)) {
            for (int i = 2; i <= count; i++) {
                data[i] = cob_get_param_data(i);
                sizes[i] = (size_t)cob_get_param_size(i);
            }
            return link_program(count, data, sizes);
        }
        int freemain = semi && rest >= 9 && memcmp(semi + 1, "FREEMAIN;", 9) == 0;
        if (semi && (freemain || (rest >= 8 && memcmp(semi + 1, "GETMAIN;", 8) == 0))) {
            for (int i = 2; i <= count; i++) {
                data[i] = cob_get_param_data(i);
                sizes[i] = (size_t)cob_get_param_size(i);
            }
            return storage_command(freemain, count, data, sizes);
        }
        /* RETURN without options in a LINKed program: the server would only answer NORMAL (the level
         * ends when the program has returned, told with the next exchange), so it is answered here as
         * the server answers it: EIBFN, EIBRESP, EIBRESP2 and DFHEIGDI (carry on: to the GOBACK) */
        while (rest && (semi[rest] == ' ' || semi[rest] == 0))
            rest--;
        if (count == 3 && linked && linked_call == running && rest == 6 && memcmp(semi + 1, "RETURN", 6) == 0 &&
            cob_get_param_size(2) >= EIB_BYTES) {
            unsigned char *eib = cob_get_param_data(2);
            eib[20] = eib[21] = 0;
            eib[27] = RETURN_EIBFN >> 8, eib[28] = RETURN_EIBFN & 0xFF;
            memset(eib + 76, 0, 8);
            return 0;
        }
    }
    if (count >= 4 && count <= MAX_ARGS)
        widen_from(count);
    if (sql_call && sql_call == running && count >= 3 && count <= MAX_ARGS) { /* its database work runs here */
        if (cics_file(count) || cics_resource(count))
            return 0;
        const char *desc = cob_get_param_data(3), *semi = memchr(desc, ';', (size_t)cob_get_param_size(3));
        size_t rest = semi ? (size_t)cob_get_param_size(3) - (size_t)(semi + 1 - desc) : 0;
        if (rest >= 9 && memcmp(semi + 1, "SYNCPOINT", 9) == 0) /* committed here; the server ends the rest */
            sql_syncpoint(rest >= 18 && memcmp(semi + 10, ";ROLLBACK", 9) == 0);
    }
    int set = count >= 4 && count <= MAX_ARGS && set_command(count); /* data in storage of its own (READ SET) */
    int code = ask(2, count, data, sizes);
    if (set)
        set_pointer(data);
    return code;
}
