IDENTIFICATION DIVISION.
PROGRAM-ID. HOLD.
*> Test fixture: a call that is provably running, and that ends only
*> when the test lets it. It creates the file named ENTERED-MARKER, then
*> waits, looking every 10 ms for at most WAIT-SECONDS, until the file
*> named RELEASE-MARKER exists. Tests use it for rendezvous: a test
*> that sees N entered markers knows N calls are inside at once.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 NANOSECONDS PIC 9(18) COMP-5 VALUE 10000000.
01 TRIES PIC 9(9) COMP-5.
01 MAX-TRIES PIC 9(9) COMP-5.
01 ACCESS-MODE PIC X COMP-X VALUE 2.
01 DENY-MODE PIC X COMP-X VALUE 0.
01 DEVICE PIC X COMP-X VALUE 0.
01 FILE-HANDLE PIC X(4).
01 FILE-DETAILS PIC X(16).
LINKAGE SECTION.
01 HOLD-IN.
   *> The file this call creates once it runs.
   05 ENTERED-MARKER PIC X(200).
   *> The file whose existence ends the call.
   05 RELEASE-MARKER PIC X(200).
   *> How long to wait for it at most, in seconds.
   05 WAIT-SECONDS PIC 9(4).
01 HOLD-OUT.
   *> 1 when the release file was seen, 0 when the wait ran out.
   05 RELEASED PIC 9.
PROCEDURE DIVISION USING HOLD-IN HOLD-OUT.
    CALL "CBL_CREATE_FILE" USING ENTERED-MARKER ACCESS-MODE DENY-MODE
        DEVICE FILE-HANDLE
    IF RETURN-CODE = 0
        CALL "CBL_CLOSE_FILE" USING FILE-HANDLE
    END-IF
    MOVE 0 TO RELEASED
    COMPUTE MAX-TRIES = WAIT-SECONDS * 100
    PERFORM VARYING TRIES FROM 1 BY 1
            UNTIL TRIES > MAX-TRIES OR RELEASED = 1
        CALL "CBL_CHECK_FILE_EXIST" USING RELEASE-MARKER FILE-DETAILS
        IF RETURN-CODE = 0
            MOVE 1 TO RELEASED
        ELSE
            CALL "CBL_GC_NANOSLEEP" USING NANOSECONDS
        END-IF
    END-PERFORM
    MOVE 0 TO RETURN-CODE
    GOBACK.
