/*
 * SQLRT for a run unit: the entry a console program's EXEC SQL statements CALL, linked into its
 * executable (cobc -x ... rununit_sql.c -Q -rdynamic, so libcob's CALL 'SQLRT' finds it by name).
 * Each CALL sends the statement's number and its parameters' bytes (the SQLCA, then each host
 * variable) to the server on the request pipe and waits for the answer on the answer pipe: the same
 * parameters' new bytes, which it puts back. The pipes' descriptors come in COBOL_MCP_SQL_FDS
 * ("answers,requests"); standard input, output and error stay the program's own.
 *
 * Request: u32 statement number, u32 parameter count, a u32 size per parameter, then the bytes.
 * Answer: u32 status (0: served; else the server failed the call and ends the run unit), then the
 * bytes. All numbers little-endian. The server gone, or any pipe error: the run unit ends (exit 70).
 *
 * Statements of a subprogram the run unit CALLs are numbered in that program: before a statement of
 * another program than the last one told (at first, the main program), a request of statement number
 * -1 whose one parameter is the PROGRAM-ID tells the server whose statements follow (answered alike).
 */
#include <errno.h>
#include <stddef.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#include <libcob.h> /* the CALL's parameters, and the active modules (cob_get_global_ptr) */

#define MAX_PARAMS 252
#define PROGRAM_NUMBER (-1) /* sqlbridge.session.PROGRAM_NUMBER */
#define NAME_LENGTH 64

static int answers_fd = -1, requests_fd = -1;
static unsigned char *buffer;
static size_t buffer_size;

static void put32(unsigned char *p, uint32_t v) {
    p[0] = (unsigned char)v;
    p[1] = (unsigned char)(v >> 8);
    p[2] = (unsigned char)(v >> 16);
    p[3] = (unsigned char)(v >> 24);
}

static uint32_t get32(const unsigned char *p) {
    return (uint32_t)p[0] | (uint32_t)p[1] << 8 | (uint32_t)p[2] << 16 | (uint32_t)p[3] << 24;
}

static void fail(const char *what) {
    fprintf(stderr, "cobol-mcp SQLRT: %s\n", what);
    fflush(stderr);
    _exit(70);
}

static void write_all(const unsigned char *data, size_t length) {
    while (length > 0) {
        ssize_t n = write(requests_fd, data, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail("the server is gone");
        data += n;
        length -= (size_t)n;
    }
}

static void read_all(unsigned char *data, size_t length) {
    while (length > 0) {
        ssize_t n = read(answers_fd, data, length);
        if (n < 0 && errno == EINTR)
            continue;
        if (n <= 0)
            fail("the server is gone");
        data += n;
        length -= (size_t)n;
    }
}

static char told[NAME_LENGTH]; /* the program whose statements the server was last told of */

/* The PROGRAM-ID of the COBOL program that CALLed SQLRT; `outermost`: of the run unit's main program. */
static const char *caller_program(int outermost) {
    const char *name = "";
    for (cob_module *m = cob_get_global_ptr()->cob_current_module; m; m = m->next) {
        if (m->module_name) {
            name = m->module_name;
            if (!outermost)
                break;
        }
    }
    return name;
}

/* Before a statement: the server told whose it is, when not the program it was last told of. */
static void tell_program(void) {
    const char *name = caller_program(0);
    if (strcmp(told, name) == 0)
        return;
    snprintf(told, sizeof told, "%s", name);
    size_t size = strlen(told);
    unsigned char request[12 + NAME_LENGTH], status[4];
    put32(request, (uint32_t)(int32_t)PROGRAM_NUMBER);
    put32(request + 4, 1);
    put32(request + 8, (uint32_t)size);
    memcpy(request + 12, told, size);
    write_all(request, 12 + size);
    read_all(status, 4);
    if (get32(status) != 0)
        fail("the server could not serve the statement");
    read_all(request, size);
}

int SQLRT(void) {
    if (answers_fd < 0) {
        const char *fds = getenv("COBOL_MCP_SQL_FDS");
        if (fds == NULL || sscanf(fds, "%d,%d", &answers_fd, &requests_fd) != 2)
            fail("EXEC SQL outside the server (no COBOL_MCP_SQL_FDS)");
        snprintf(told, sizeof told, "%s", caller_program(1)); /* the server's session starts with it */
    }
    tell_program();
    int count = cob_get_num_params();
    if (count < 2 || count > MAX_PARAMS)
        fail("a CALL with a wrong number of parameters");
    size_t head = 8 + 4 * (size_t)(count - 1), total = 0;
    for (int i = 2; i <= count; i++)
        total += (size_t)cob_get_param_size(i);
    if (buffer_size < head + total) {
        buffer = realloc(buffer, head + total);
        if (buffer == NULL)
            fail("out of memory");
        buffer_size = head + total;
    }
    put32(buffer, (uint32_t)(int32_t)cob_get_s64_param(1));
    put32(buffer + 4, (uint32_t)(count - 1));
    unsigned char *o = buffer + head;
    for (int i = 2; i <= count; i++) {
        size_t size = (size_t)cob_get_param_size(i);
        put32(buffer + 8 + 4 * (size_t)(i - 2), (uint32_t)size);
        memcpy(o, cob_get_param_data(i), size);
        o += size;
    }
    write_all(buffer, head + total);
    unsigned char status[4];
    read_all(status, 4);
    if (get32(status) != 0)
        fail("the server could not serve the statement");
    read_all(buffer, total);
    const unsigned char *body = buffer;
    for (int i = 2; i <= count; i++) {
        size_t size = (size_t)cob_get_param_size(i);
        memcpy(cob_get_param_data(i), body, size);
        body += size;
    }
    return 0;
}
