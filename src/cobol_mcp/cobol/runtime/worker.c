/*
 * The COBOL worker in C: the process that loads libcob and runs COBOL code, as worker.py does, on
 * the same pipes and frames (see worker.py's docstring and frames.py), at a fraction of the memory
 * and start time of a Python interpreter. Built once into the build cache (prepare/native_worker.py);
 * where it cannot be built, the runtime runs worker.py instead.
 *
 *   fd 3 requests in, fd 4 replies out, fd 0 /dev/null, fd 1 the DISPLAY memory file (collected and
 *   cleared after each call), fd 2 libcob's messages (read by the server if this process dies).
 *   argv[1]: seconds to poll for the next request after a reply before sleeping (0: sleep at once).
 *
 * Its files: worker.h (the frames' layout and what the files share), this one (the main loop, each
 * request frame handled, a call run: the per-call path, kept in one file so that the compiler
 * inlines it as one), worker_frames.c (the buffers and writing replies), worker_load.c (a load
 * frame made into a program), worker_services.c (the service entries SQLRT and CICSRT: a request
 * asked of the server mid-call, and the frames read until its answer comes), worker_storage.c
 * (EXEC CICS GETMAIN and FREEMAIN: areas of this process, freed at the end of the call); for a call
 * whose database work runs here (a frame of kind 4), worker_sql.h says which files run EXEC SQL,
 * worker_cicsfile.c runs EXEC CICS file control, and worker_unit.c owns the call's unit of work.
 *
 * No input can make it write out of bounds: a frame is only taken in whole when its length is the
 * one its program's records need (a load frame: at most LOAD_LIMIT bytes); any other frame gets an
 * error reply and its body is read past without being kept.
 */
#include "worker.h"
#include "worker_sql.h"

#include <errno.h>
#include <fcntl.h>
#include <poll.h>
#include <sched.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/resource.h>
#include <time.h>
#include <unistd.h>

#define FILE_SIZE_LIMIT ((rlim_t)64 << 20) /* a DISPLAY flood is stopped here (SIGXFSZ) */

static uint64_t skipping; /* body bytes of a refused frame still to be read past */

/* ---------------------------------------------------------------------------------- calling */
#define T4 void *, void *, void *, void *
#define T16 T4, T4, T4, T4
#define T64 T16, T16, T16, T16
#define A4(i) a[i], a[i + 1], a[i + 2], a[i + 3]
#define A16(i) A4(i), A4(i + 4), A4(i + 8), A4(i + 12)
#define A64(i) A16(i), A16(i + 16), A16(i + 32), A16(i + 48)

/* Call with the program's arguments and NULL after them up to a fixed count, as libcob's cob_call
 * does: a COBOL entry (and the caller) reads only the parameters it has. */
static int call_with(function f, void **a, int n) {
    if (n <= 16)
        return ((int (*)(T16))f)(A16(0));
    if (n <= 68)
        return ((int (*)(T64, T4))f)(A64(0), A4(64));
    return ((int (*)(T64, T64, T64, T4))f)(A64(0), A64(64), A64(128), A4(192));
}

static void run(uint32_t call_id, struct program *p, const unsigned char *body) {
    unsigned char *record = p->records;
    for (uint32_t i = 0; i < p->count; i++) {
        memcpy(record, body, p->sizes[i]);
        body += p->sizes[i];
        record += aligned(p->sizes[i]);
    }
    int code = call_with(p->call, p->args, p->nargs);
    release_storage(); /* what the call GETMAINed and did not FREEMAIN */
    const char *unsaved = sql_call == call_id ? sql_end() : NULL; /* its statements ran here: commit */
    if (unsaved) {
        fflush(NULL);
        if (ftruncate(1, 0) == 0)
            lseek(1, 0, SEEK_SET);
        failure(call_id, "%s", unsaved);
        return;
    }
    out = grow(out, &out_size, REPLY_HEAD + p->total + DISPLAY_KEPT + 64);
    unsigned char *o = out + REPLY_HEAD;
    record = p->records;
    for (uint32_t i = 0; i < p->count; i++) {
        memcpy(o, record, p->sizes[i]);
        o += p->sizes[i];
        record += aligned(p->sizes[i]);
    }
    fflush(NULL);
    off_t shown = lseek(1, 0, SEEK_CUR);
    size_t text = 0;
    if (shown > 0) {
        ssize_t got = pread(1, o, DISPLAY_KEPT, 0);
        text = got > 0 ? (size_t)got : 0;
        if (shown > DISPLAY_KEPT)
            text += (size_t)sprintf((char *)o + text, "\n[%lld more bytes of DISPLAY output not kept]",
                                    (long long)shown - DISPLAY_KEPT);
        if (ftruncate(1, 0) == 0)
            lseek(1, 0, SEEK_SET);
    }
    reply(call_id, 0, code, (uint32_t)p->total, (uint32_t)text);
}

/* ---------------------------------------------------------------------------------- requests */
/* Handle the whole frames in in[pos, have); returns when the next one is not all here. */
static void handle(void) {
    for (;;) {
        if (skipping) {
            size_t n = have - pos < skipping ? have - pos : (size_t)skipping;
            pos += n;
            skipping -= n;
            if (skipping)
                return;
        }
        if (have - pos < REQUEST_HEAD)
            return;
        const unsigned char *head = in + pos;
        unsigned kind = head[0];
        uint32_t call_id = get32(head + 1), length = get32(head + 5);
        if (kind == 2 || kind == 4) { /* 4: a call whose EXEC SQL statements run here (worker_sql.c) */
            uint32_t extra = kind == 4 ? 2 : 0; /* kind 4: its folder's token */
            if (length < 2 + extra) {
                failure(call_id, "a call frame of %u bytes names no program", length);
            } else if (have - pos < REQUEST_HEAD + 2 + extra) {
                return;
            } else {
                uint16_t index = get16(head + REQUEST_HEAD);
                struct program *p = programs[index];
                if (p && p->error) {
                    failure(call_id, "%s", p->error);
                } else if (!p || length - 2 - extra != p->total) {
                    failure(call_id, "no program %u with records of %u bytes", index, length - 2 - extra);
                } else {
                    if (have - pos < REQUEST_HEAD + (size_t)length) {
                        if (REQUEST_HEAD + (size_t)length > in_size) { /* keep room for the whole frame */
                            memmove(in, in + pos, have - pos);
                            have -= pos;
                            pos = 0;
                            in = grow(in, &in_size, REQUEST_HEAD + (size_t)length + READ_SIZE);
                        }
                        return;
                    }
                    running = call_id;
                    sql_call = kind == 4 ? call_id : 0, sql_folder = extra ? get16(head + REQUEST_HEAD + 2) : 0;
                    after_running = pos + REQUEST_HEAD + (size_t)length;
                    run(call_id, p, head + REQUEST_HEAD + 2 + extra); /* `in` may have moved: head is not used after */
                    pos += REQUEST_HEAD + (size_t)length;
                    continue;
                }
            }
        } else if (kind == 1 && length <= LOAD_LIMIT) {
            if (have - pos < REQUEST_HEAD + (size_t)length) {
                if (REQUEST_HEAD + (size_t)length > in_size) {
                    memmove(in, in + pos, have - pos);
                    have -= pos;
                    pos = 0;
                    in = grow(in, &in_size, REQUEST_HEAD + (size_t)length + READ_SIZE);
                }
                return;
            }
            load(call_id, head + REQUEST_HEAD, length);
            pos += REQUEST_HEAD + (size_t)length;
            continue;
        } else if (kind == 1) {
            failure(call_id, "cannot load the COBOL module: a load frame of %u bytes", length);
        } else if (kind == 3) {
            /* an answer to no request of a running call (none can be: its call waited for it) */
        } else {
            failure(call_id, "unknown request kind %u", kind);
        }
        pos += REQUEST_HEAD; /* refused: its body is read past, never kept */
        skipping = length;
    }
}

static double now(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return (double)t.tv_sec + (double)t.tv_nsec / 1e9;
}

int main(int argc, char **argv) {
    prctl(PR_SET_PDEATHSIG, SIGKILL); /* never outlive the server, even inside an endless COBOL loop */
    /* The server gone before that took effect: the parent is no longer the server named in argv[2]
       (spawn_worker always names it; not "the parent is pid 1": a server in a container may be pid 1). */
    if (argc > 2 && getppid() != (pid_t)strtol(argv[2], NULL, 10))
        return 0;
    struct rlimit limit = {FILE_SIZE_LIMIT, FILE_SIZE_LIMIT};
    setrlimit(RLIMIT_FSIZE, &limit);
    signal(SIGPIPE, SIG_IGN); /* a write to a server that is gone ends the worker quietly */
    double spin = argc > 1 ? strtod(argv[1], NULL) : 0.0;
    if (!(spin > 0.0 && spin < 3600.0))
        spin = 0.0;
    cob_init(0, NULL);
    in = grow(NULL, &in_size, 2 * READ_SIZE);
    out = grow(NULL, &out_size, REPLY_HEAD + DISPLAY_KEPT + 4096);
    fcntl(REQUEST_FD, F_SETFL, fcntl(REQUEST_FD, F_GETFL) | O_NONBLOCK);
    struct pollfd wait = {REQUEST_FD, POLLIN, 0};
    for (;;) {
        if (pos) {
            memmove(in, in + pos, have - pos);
            have -= pos;
            pos = 0;
        }
        in = grow(in, &in_size, have + READ_SIZE);
        double spin_until = -1.0;
        ssize_t n;
        while ((n = read(REQUEST_FD, in + have, in_size - have)) < 0) {
            if (errno == EINTR)
                continue;
            if (errno != EAGAIN && errno != EWOULDBLOCK)
                return 0;
            if (spin_until < 0.0)
                spin_until = now() + spin;
            if (spin == 0.0 || now() > spin_until)
                poll(&wait, 1, -1);
            else
                sched_yield(); /* a waiting client must not queue behind a poller */
        }
        if (n == 0)
            return 0;
        have += (size_t)n;
        handle();
    }
}
