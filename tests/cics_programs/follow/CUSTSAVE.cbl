       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTSAVE.
      * Writes the COMMAREA it is given to CUSTFILE as it stands: it
      * knows only the key; the rest of the record is FILLER to it.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-KEY                        PIC 9(10).
       01  WS-CUSTOMER-REC               PIC X(90).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  FILLER                    PIC X(8).
           05  SV-KEY                    PIC 9(10).
           05  FILLER                    PIC X(72).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE SV-KEY TO WS-KEY
           MOVE DFHCOMMAREA TO WS-CUSTOMER-REC
           EXEC CICS WRITE FILE('CUSTFILE') FROM(WS-CUSTOMER-REC)
                RIDFLD(WS-KEY)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
