IDENTIFICATION DIVISION.
PROGRAM-ID. subscript.
*> Uses n as a subscript of a table of three.
DATA DIVISION.
COPY fault-records.
PROCEDURE DIVISION USING FAULT-IN FAULT-OUT.
    MOVE N TO COPIED
    IF N > 0
        MOVE "x" TO WS-ITEM(N)
    END-IF
    GOBACK.
