IDENTIFICATION DIVISION.
PROGRAM-ID. stop-run.
*> Ends the run unit instead of returning.
DATA DIVISION.
COPY fault-records.
PROCEDURE DIVISION USING FAULT-IN FAULT-OUT.
    MOVE N TO COPIED
    IF N > 0
        STOP RUN
    END-IF
    GOBACK.
