/*
 * EXEC CICS GETMAIN and FREEMAIN: main storage in this worker, which the program addresses (SET
 * ADDRESS OF, a POINTER), asked of the server as any other command so that it checks the length
 * and routes the conditions (LENGERR, NOSTG, INVREQ) to RESP or HANDLE CONDITION.
 *
 * GETMAIN: the area is obtained first (16-byte aligned, its length rounded up to 16 bytes, as CICS
 * does; filled with INITIMG's byte, else zeros, so that no byte of an earlier call shows through),
 * and the server told in EIB bytes 20-21 whether it could be (1) or not (0: NOSTG), and in bytes
 * 22-23 how many areas are live in this worker before it (EIBCPOSN is given back as it was). When
 * the answer is NORMAL the area is the program's: its address goes into SET's pointer; else it is
 * given back. FREEMAIN DATA(x) (x's address; x's bytes are not sent, as the area may be shorter
 * than x) or DATAPOINTER(p) (p's value): bytes 20-21 say whether it is an area this call got (1)
 * or not (0: INVREQ), and a NORMAL answer frees it.
 *
 * Every area a call got and did not free is freed when the call ends (release_storage, from the
 * call's end in worker.c): a worker runs call after call, and none of them leaves storage behind.
 *
 * SET on a command that gives data (READ, READNEXT, READPREV, READQ TS/TD, GET CONTAINER): the data
 * is in storage CICS owns, not in the program's. The server's answer brings it after the parameters'
 * bytes, headed by a slot number (u32, big-endian) that says what it belongs to (a file, a browse, a
 * queue, a container: sqlbridge.cics); the worker copies it into an area of its own (16-byte aligned,
 * zeros after the data) and sets SET's pointer to it. The area stays until the next data for the same
 * slot (which frees it, as the next READ of the file ends the last one's validity on CICS) or the
 * call's end. The request tells the server in EIB bytes 22-23 how many such areas are kept (EIBCPOSN
 * is given back as it was). FREEMAIN does not take them: they are not GETMAIN's.
 */
#include "worker.h"

#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <unistd.h>

#define EIB_BYTES 85
#define AREA_LIMIT ((long long)256 << 20) /* a larger area is refused as NOSTG */

static void **areas; /* the live areas, in the order they were got */
static size_t live, room;
struct kept {
    uint32_t slot;
    void *area;
};
static struct kept *kept; /* the areas of SET commands, one per slot */
static size_t kept_live, kept_room;
static void *given;        /* the area the last answer brought */
static int set_param;      /* the SET pointer's parameter of the command being asked */
static unsigned char set_position[2];

/* The parameter (index into data) of option `option` ("SET()") in the descriptor, or 0. */
static int parameter(const char *desc, size_t n, const char *option) {
    size_t want = strlen(option);
    int param = 4;
    for (size_t i = 0, start = 0; i <= n; i++) {
        if (i == n || desc[i] == ';') {
            size_t len = i - start;
            if (len > 2 && desc[i - 1] == ')' && desc[i - 2] == '(') {
                if (len == want && memcmp(desc + start, option, want) == 0)
                    return param;
                param++;
            }
            start = i + 1;
        }
    }
    return 0;
}

static long long number(void **data, int param) {
    long long value = 0;
    if (param)
        memcpy(&value, data[param], sizeof value); /* S9(18) COMP-5: this machine's order */
    return value;
}

static int resp_normal(const unsigned char *eib) { return !(eib[76] | eib[77] | eib[78] | eib[79]); }

static void *get_area(long long length, int fill) {
    if (length <= 0 || length > AREA_LIMIT)
        return NULL;
    size_t size = ((size_t)length + 15) / 16 * 16;
    void *at = NULL;
    if (posix_memalign(&at, 16, size) != 0)
        return NULL;
    memset(at, fill, size);
    return at;
}

static int known(void *at, size_t *index) {
    for (size_t i = live; i-- > 0;)
        if (areas[i] == at) {
            *index = i;
            return 1;
        }
    return 0;
}

int storage_command(int freemain, int count, void **data, size_t *sizes) {
    const char *desc = data[3];
    size_t n = sizes[3];
    while (n && (desc[n - 1] == ' ' || desc[n - 1] == 0))
        n--;
    unsigned char *eib = data[2];
    unsigned char position[2] = {eib[22], eib[23]};
    void *at = NULL;
    size_t index = 0;
    int have = 0;
    if (!freemain) {
        int flength = parameter(desc, n, "FLENGTH()"), length = parameter(desc, n, "LENGTH()");
        int initimg = parameter(desc, n, "INITIMG()");
        at = get_area(number(data, flength ? flength : length), initimg ? *(unsigned char *)data[initimg] : 0);
        have = at != NULL;
        size_t shown = live < 0xFFFF ? live : 0xFFFF;
        eib[22] = (unsigned char)(shown >> 8), eib[23] = (unsigned char)shown;
    } else {
        int area = parameter(desc, n, "DATA()"), pointer = parameter(desc, n, "DATAPOINTER()");
        if (area) {
            at = data[area];
            sizes[area] = 0; /* its address is what counts: its bytes (maybe fewer than x's size) stay here */
        } else if (pointer) {
            memcpy(&at, data[pointer], sizeof at);
        }
        have = at != NULL && known(at, &index);
    }
    eib[20] = 0, eib[21] = (unsigned char)have;
    ask_with(2, cob_get_s64_param(1), count, data, sizes);
    eib[22] = position[0], eib[23] = position[1];
    if (!freemain) {
        int set = parameter(desc, n, "SET()");
        if (at && resp_normal(eib) && set) {
            if (live == room) {
                size_t more = room ? 2 * room : 16;
                void **grown = realloc(areas, more * sizeof *areas);
                if (!grown) {
                    free(at);
                    return 0;
                }
                areas = grown, room = more;
            }
            areas[live++] = at;
            memcpy(data[set], &at, sizeof at);
        } else {
            free(at);
        }
    } else if (have && resp_normal(eib)) {
        free(areas[index]);
        memmove(areas + index, areas + index + 1, (live - index - 1) * sizeof *areas);
        live--;
    }
    return 0;
}

void release_storage(void) {
    while (live)
        free(areas[--live]);
    while (kept_live)
        free(kept[--kept_live].area);
}

int set_command(int count) {
    const char *desc = cob_get_param_data(3);
    size_t n = (size_t)cob_get_param_size(3);
    while (n && (desc[n - 1] == ' ' || desc[n - 1] == 0))
        n--;
    given = NULL;
    set_param = parameter(desc, n, "SET()");
    if (!set_param || set_param > count)
        return set_param = 0;
    unsigned char *eib = cob_get_param_data(2);
    size_t shown = kept_live < 0xFFFF ? kept_live : 0xFFFF;
    set_position[0] = eib[22], set_position[1] = eib[23];
    eib[22] = (unsigned char)(shown >> 8), eib[23] = (unsigned char)shown;
    return 1;
}

void given_area(const unsigned char *bytes, size_t n) {
    if (n < 4 || !set_param) {
        fprintf(stderr, "cobol-mcp worker: %zu bytes of data for a command without SET\n", n);
        _exit(70);
    }
    uint32_t slot = (uint32_t)bytes[0] << 24 | (uint32_t)bytes[1] << 16 | (uint32_t)bytes[2] << 8 | bytes[3];
    size_t length = n - 4;
    void *at = get_area(length ? (long long)length : 1, 0);
    size_t i = 0;
    while (i < kept_live && kept[i].slot != slot)
        i++;
    if (i == kept_live && kept_live == kept_room) {
        size_t more = kept_room ? 2 * kept_room : 16;
        struct kept *grown = realloc(kept, more * sizeof *kept);
        if (!grown)
            free(at), at = NULL;
        else
            kept = grown, kept_room = more;
    }
    if (!at) {
        fprintf(stderr, "cobol-mcp worker: no storage for %zu bytes of a SET command's data\n", length);
        _exit(70);
    }
    memcpy(at, bytes + 4, length);
    if (i < kept_live) {
        free(kept[i].area); /* the slot's last data: no longer valid */
    } else {
        kept[i].slot = slot;
        kept_live++;
    }
    kept[i].area = at;
    given = at;
}

void set_pointer(void **data) {
    unsigned char *eib = data[2];
    eib[22] = set_position[0], eib[23] = set_position[1];
    if (given)
        memcpy(data[set_param], &given, sizeof given);
    given = NULL;
}
