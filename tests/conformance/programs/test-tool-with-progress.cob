IDENTIFICATION DIVISION.
PROGRAM-ID. TEST-TOOL-WITH-PROGRESS.
*> Conformance fixture: takes no arguments and runs for about 4 seconds.
*> A caller that sends a progress token gets the server's progress
*> notifications while it runs (one per second).
DATA DIVISION.
WORKING-STORAGE SECTION.
01 NANOSECONDS PIC 9(18) COMP-5 VALUE 3900000000.
LINKAGE SECTION.
01 PROGRESS-OUT.
   *> What the program did.
   05 TEXT-VALUE PIC X(60).
PROCEDURE DIVISION USING PROGRESS-OUT.
    CALL "CBL_GC_NANOSLEEP" USING NANOSECONDS
    MOVE "Finished after 3.9 seconds of work." TO TEXT-VALUE
    GOBACK.
