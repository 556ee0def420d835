/*
 * The C worker's pipes: the buffer of request bytes read (`in`) and the reply being written (`out`),
 * growing them, and writing a reply frame (or an error reply) whole. The frames' layout is in
 * worker.h; reading is done by the main loop (worker.c) and, while a service request waits for its
 * answer, by worker_services.c.
 */
#include "worker.h"

#include <errno.h>
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

unsigned char *in;
size_t in_size, pos, have;
unsigned char *out;
size_t out_size;

void *grow(void *buffer, size_t *size, size_t needed) {
    if (needed <= *size)
        return buffer;
    size_t wanted = *size ? *size : READ_SIZE;
    while (wanted < needed)
        wanted *= 2;
    void *bigger = realloc(buffer, wanted);
    if (!bigger) {
        fputs("cobol-mcp worker: out of memory\n", stderr);
        _exit(70);
    }
    *size = wanted;
    return bigger;
}

void send_all(const unsigned char *data, size_t length) {
    while (length) {
        ssize_t n = write(REPLY_FD, data, length);
        if (n < 0) {
            if (errno == EINTR)
                continue;
            _exit(0); /* the server is gone */
        }
        data += n;
        length -= (size_t)n;
    }
}

void reply(uint32_t call_id, int status, int32_t code, uint32_t records, uint32_t text) {
    put32(out, call_id);
    out[4] = (unsigned char)status;
    put32(out + 5, (uint32_t)code);
    put32(out + 9, records);
    put32(out + 13, text);
    send_all(out, REPLY_HEAD + (size_t)records + text);
}

void failure(uint32_t call_id, const char *format, ...) {
    char text[4096];
    va_list ap;
    va_start(ap, format);
    int n = vsnprintf(text, sizeof text, format, ap);
    va_end(ap);
    size_t length = n < 0 ? 0 : (size_t)n < sizeof text ? (size_t)n : sizeof text - 1;
    memcpy(out + REPLY_HEAD, text, length);
    reply(call_id, 1, 0, 0, (uint32_t)length);
}
