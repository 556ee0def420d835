       IDENTIFICATION DIVISION.
       PROGRAM-ID. FROMLEN.
      *================================================================*
      * FROMLEN - A CUSTOMER RECORD WRITTEN FROM ITS FIRST FIELD.      *
      *   AS MANY CICS PROGRAMS DO, THE WRITE AND THE REWRITE NAME     *
      *   THE RECORD'S KEY FIELD AS FROM AND THE WHOLE RECORD'S SIZE   *
      *   AS LENGTH; THE WRITEQ TS NAMES THE NAME FIELD AS FROM AND    *
      *   THE NAME AND CITY'S SIZE AS LENGTH.  EACH IS READ BACK.      *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-RECORD-SIZE              PIC S9(4)  COMP VALUE 40.
       01  WS-NAME-CITY-SIZE           PIC S9(4)  COMP VALUE 34.
       01  WS-LEN                      PIC S9(4)  COMP.
       01  WS-ITEM                     PIC S9(4)  COMP.
       01  WS-QUEUE                    PIC X(8)   VALUE 'FLTSQ1'.
       01  WS-RECORD                   PIC X(40).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY FLCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF FL-CUST-CITY = SPACES
               MOVE 'UNKNOWN' TO FL-CUST-CITY
           END-IF
           EXEC CICS WRITE FILE('FLCUST') FROM(FL-CUST-ID)
                LENGTH(WS-RECORD-SIZE) RIDFLD(FL-CUST-ID)
                KEYLENGTH(6) RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO FL-WRITE-RESP
           MOVE WS-RESP2 TO FL-WRITE-RESP2
           PERFORM 1000-READ-BACK
           MOVE WS-RECORD TO FL-READ-DATA

           EXEC CICS READ FILE('FLCUST') INTO(WS-RECORD)
                RIDFLD(FL-CUST-ID) UPDATE RESP(WS-RESP)
           END-EXEC
           MOVE 'REWRITTEN' TO FL-CUST-CITY
           EXEC CICS REWRITE FILE('FLCUST') FROM(FL-CUST-ID)
                LENGTH(WS-RECORD-SIZE) RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO FL-REWRITE-RESP
           MOVE WS-RESP2 TO FL-REWRITE-RESP2
           PERFORM 1000-READ-BACK
           MOVE WS-RECORD TO FL-REREAD-DATA

           EXEC CICS WRITEQ TS QUEUE(WS-QUEUE) FROM(FL-CUST-NAME)
                LENGTH(WS-NAME-CITY-SIZE) RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO FL-TS-RESP
           MOVE 1 TO WS-ITEM
           MOVE 40 TO WS-LEN
           MOVE SPACES TO WS-RECORD
           EXEC CICS READQ TS QUEUE(WS-QUEUE) INTO(WS-RECORD)
                LENGTH(WS-LEN) ITEM(WS-ITEM) RESP(WS-RESP)
           END-EXEC
           MOVE WS-LEN TO FL-TS-LEN
           MOVE WS-RECORD TO FL-TS-DATA
           EXEC CICS DELETEQ TS QUEUE(WS-QUEUE) RESP(WS-RESP)
           END-EXEC
           EXEC CICS RETURN END-EXEC.

       1000-READ-BACK.
           MOVE SPACES TO WS-RECORD
           EXEC CICS READ FILE('FLCUST') INTO(WS-RECORD)
                RIDFLD(FL-CUST-ID) RESP(WS-RESP)
           END-EXEC.
