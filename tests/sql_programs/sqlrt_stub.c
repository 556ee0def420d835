/* A stand-in for the runtime's SQLRT entry, for tests of the precompiler's CALLs: it appends the
   statement number to the file named by SQLRT_LOG (BADSQLCA when the SQLCA is not DB2's 136-byte
   layout) and answers SQLCODE +100, SQLSTATE 02000, so that every cursor loop ends at once. */
#include <stdarg.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

int SQLRT(int stmt, unsigned char *sqlca, ...) {
    int length, code = 100;
    const char *log = getenv("SQLRT_LOG");
    memcpy(&length, sqlca + 8, 4);
    if (log) {
        FILE *f = fopen(log, "a");
        if (f) {
            if (length == 136 && memcmp(sqlca, "SQLCA   ", 8) == 0) fprintf(f, "%d\n", stmt);
            else fprintf(f, "BADSQLCA\n");
            fclose(f);
        }
    }
    memcpy(sqlca + 12, &code, 4);
    memcpy(sqlca + 131, "02000", 5);
    return 0;
}
