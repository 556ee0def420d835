IDENTIFICATION DIVISION.
PROGRAM-ID. SLEEP-FOR.
*> Test fixture: sleeps for the given number of milliseconds, then
*> returns that number. A long sleep stands in for a hung program.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 NANOSECONDS PIC 9(18) COMP-5.
LINKAGE SECTION.
01 SLEEP-IN.
   *> How long to sleep, in milliseconds.
   05 MILLISECONDS PIC 9(7).
01 SLEEP-OUT.
   *> The milliseconds slept.
   05 SLEPT PIC 9(7).
PROCEDURE DIVISION USING SLEEP-IN SLEEP-OUT.
    COMPUTE NANOSECONDS = MILLISECONDS * 1000000
    CALL "CBL_GC_NANOSLEEP" USING NANOSECONDS
    MOVE MILLISECONDS TO SLEPT
    GOBACK.
