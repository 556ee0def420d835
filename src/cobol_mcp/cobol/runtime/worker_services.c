/*
 * The C worker's service entries, SQLRT (EXEC SQL statements, service 1) and CICSRT (EXEC CICS
 * commands, service 2): a program running in this worker CALLs one, the call is asked of the server
 * mid-call as a reply of status 2 (layout in worker.h), and the CALL returns once the answer frame
 * for the running call has put its bytes in the parameters. The frames that arrive before the answer
 * (calls pipelined behind this one) stay in `in`, in order, for after the call. These two entries and
 * main are all the executable exports (-rdynamic): libcob's CALL finds them by name in the
 * executable, as it finds a program in a loaded module.
 */
#include "worker.h"

#include <errno.h>
#include <poll.h>
#include <stdio.h>
#include <string.h>
#include <unistd.h>

uint32_t running;
size_t after_running;
static unsigned char *asked; /* a service request being written */
static size_t asked_size;

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
 * the parameters. The frames before it (calls pipelined behind this one) stay in `in` for later. */
static int ask(unsigned service) {
    int count = cob_get_num_params();
    if (count < 1 || count > MAX_ARGS) {
        fprintf(stderr, "cobol-mcp worker: CALL of a service with %d parameters\n", count);
        _exit(70);
    }
    long long number = cob_get_s64_param(1);
    size_t total = 0, head = REPLY_HEAD + 3 + 4 * (size_t)(count - 1);
    for (int i = 2; i <= count; i++)
        total += (size_t)cob_get_param_size(i);
    asked = grow(asked, &asked_size, head + total);
    asked[REPLY_HEAD] = (unsigned char)service;
    asked[REPLY_HEAD + 1] = (unsigned char)(count - 1);
    asked[REPLY_HEAD + 2] = (unsigned char)((count - 1) >> 8);
    unsigned char *o = asked + head;
    for (int i = 2; i <= count; i++) {
        size_t size = (size_t)cob_get_param_size(i);
        put32(asked + REPLY_HEAD + 3 + 4 * (size_t)(i - 2), (uint32_t)size);
        memcpy(o, cob_get_param_data(i), size);
        o += size;
    }
    put32(asked, running);
    asked[4] = 2;
    put32(asked + 5, (uint32_t)(int32_t)number);
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
            if (length != total) {
                fprintf(stderr, "cobol-mcp worker: an answer of %zu bytes to a request of %zu\n", (size_t)length, total);
                _exit(70);
            }
            if (have - at < whole)
                break;
            const unsigned char *body = frame + REQUEST_HEAD;
            for (int i = 2; i <= count; i++) {
                size_t size = (size_t)cob_get_param_size(i);
                memcpy(cob_get_param_data(i), body, size);
                body += size;
            }
            memmove(in + at, in + at + whole, have - at - whole); /* the frames after it stay in order */
            have -= whole;
            return 0;
        }
        read_more();
    }
}

/* The entries COBOL programs CALL: EXEC SQL statements (SQLRT) and EXEC CICS commands (CICSRT). */
int SQLRT(void) { return ask(1); }
int CICSRT(void) { return ask(2); }
