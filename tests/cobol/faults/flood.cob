IDENTIFICATION DIVISION.
PROGRAM-ID. flood.
*> DISPLAYs without end when n > 0.
DATA DIVISION.
COPY fault-records.
PROCEDURE DIVISION USING FAULT-IN FAULT-OUT.
    MOVE N TO COPIED
    PERFORM UNTIL N = 0
        DISPLAY "flooding the output with one more line of text, again and again and again"
    END-PERFORM
    GOBACK.
