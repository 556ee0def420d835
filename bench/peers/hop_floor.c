/* The child of bench/peers/hop_floor.py: every byte it reads goes back unchanged. The least a process that
   runs the tool's code (a COBOL worker) can do, so the parent's round trip through it is the cost of
   keeping that code out of the server's process and nothing more. */
#include <unistd.h>

int main(void) {
    static char buf[1 << 16];
    for (;;) {
        ssize_t got = read(0, buf, sizeof buf);
        if (got <= 0) return 0;
        for (ssize_t at = 0; at < got;) {
            ssize_t put = write(1, buf + at, (size_t)(got - at));
            if (put <= 0) return 1;
            at += put;
        }
    }
}
