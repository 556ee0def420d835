       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTVAR.
      * Hands the COMMAREA to the program WS-PROGRAM names: CUSTDB,
      * or CUSTODB for an old request.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-NAMES.
           05  WS-PROGRAM                PIC X(8) VALUE 'CUSTDB'.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CUSTAREA.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE '00' TO CA-RETURN-CODE
           IF CA-REQUEST-ID = 'OLDINQ'
               MOVE 'CUSTODB' TO WS-PROGRAM
           END-IF
           EXEC CICS LINK PROGRAM(WS-PROGRAM)
                COMMAREA(DFHCOMMAREA)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
