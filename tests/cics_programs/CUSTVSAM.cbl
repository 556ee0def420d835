       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTVSAM.
      *================================================================*
      * CUSTVSAM - VSAM BACK END OF THE CUSTOMER SERVICE               *
      *   INQUIRE, ADD, UPDATE, DELETE AND BROWSE ON THE KSDS CUSTFILE *
      *   (KEY: CUSTOMER NUMBER). INQUIRE AND ADD RELY ON HANDLE       *
      *   CONDITION; UPDATE, DELETE AND BROWSE TEST RESP THEMSELVES.   *
      *   RETURN CODE: 0 OK, 4 NOT FOUND, 8 DUPLICATE, 16 FAILED.      *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-FILE                     PIC X(8)   VALUE 'CUSTFILE'.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-KEY                      PIC 9(8).
       01  WS-IX                       PIC S9(4)  COMP.
       01  WS-REC-LEN                  PIC S9(4)  COMP.
           COPY CUSTREC.
       LINKAGE SECTION.
           COPY CUSTCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS HANDLE CONDITION NOTFND(8100-NOT-FOUND)
                                      DUPREC(8200-DUPLICATE)
                                      ERROR(8900-FAILED)
           END-EXEC
           IF EIBCALEN < LENGTH OF DFHCOMMAREA
               EXEC CICS ABEND ABCODE('CVSL') END-EXEC
           END-IF
           MOVE 0 TO CA-RETURN-CODE CA-RESP
           EVALUATE TRUE
               WHEN CA-REQ-INQUIRE
                   PERFORM 1000-INQUIRE
               WHEN CA-REQ-ADD
                   PERFORM 2000-ADD
               WHEN CA-REQ-UPDATE
                   PERFORM 3000-UPDATE
               WHEN CA-REQ-DELETE
                   PERFORM 4000-DELETE
               WHEN CA-REQ-BROWSE
                   PERFORM 5000-BROWSE
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-INQUIRE.
           MOVE CA-CUST-ID TO WS-KEY
           EXEC CICS READ FILE(WS-FILE)
                     INTO(CUSTOMER-RECORD)
                     RIDFLD(WS-KEY)
           END-EXEC
           PERFORM 7000-RECORD-TO-COMMAREA.

       2000-ADD.
           INITIALIZE CUSTOMER-RECORD
           MOVE CA-CUST-ID TO CR-CUST-ID
           MOVE CA-CUST-NAME TO CR-CUST-NAME
           MOVE CA-CUST-CITY TO CR-CUST-CITY
           MOVE CA-CUST-BALANCE TO CR-CUST-BALANCE
           EXEC CICS WRITE DATASET('CUSTFILE')
                     FROM(CUSTOMER-RECORD)
                     RIDFLD(CR-CUST-ID)
                     LENGTH(LENGTH OF CUSTOMER-RECORD)
           END-EXEC.

       3000-UPDATE.
           MOVE CA-CUST-ID TO WS-KEY
           EXEC CICS READ FILE(WS-FILE) INTO(CUSTOMER-RECORD)
                     RIDFLD(WS-KEY) UPDATE
                     RESP(WS-RESP)
           END-EXEC
           EVALUATE WS-RESP
               WHEN DFHRESP(NORMAL)
                   MOVE CA-CUST-NAME TO CR-CUST-NAME
                   MOVE CA-CUST-CITY TO CR-CUST-CITY
                   MOVE CA-CUST-BALANCE TO CR-CUST-BALANCE
                   EXEC CICS REWRITE FILE(WS-FILE)
                             FROM(CUSTOMER-RECORD) RESP(WS-RESP)
                   END-EXEC
                   IF WS-RESP NOT = DFHRESP(NORMAL)
                       MOVE 16 TO CA-RETURN-CODE
                   END-IF
               WHEN DFHRESP(NOTFND)
                   MOVE 4 TO CA-RETURN-CODE
                   MOVE 'CUSTOMER NOT FOUND FOR UPDATE' TO CA-MESSAGE
               WHEN OTHER
                   MOVE 16 TO CA-RETURN-CODE
           END-EVALUATE
           MOVE WS-RESP TO CA-RESP.

       4000-DELETE.
           MOVE CA-CUST-ID TO WS-KEY
           EXEC CICS DELETE FILE(WS-FILE) RIDFLD(WS-KEY)
                     RESP(WS-RESP)
           END-EXEC
           EVALUATE WS-RESP
               WHEN DFHRESP(NORMAL)
                   CONTINUE
               WHEN DFHRESP(NOTFND)
                   MOVE 4 TO CA-RETURN-CODE
               WHEN OTHER
                   MOVE 16 TO CA-RETURN-CODE
           END-EVALUATE
           MOVE WS-RESP TO CA-RESP.

       5000-BROWSE.
           MOVE CA-BRW-START-ID TO WS-KEY
           MOVE 0 TO WS-IX
           EXEC CICS STARTBR FILE(WS-FILE) RIDFLD(WS-KEY) GTEQ
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               PERFORM UNTIL WS-RESP NOT = DFHRESP(NORMAL)
                          OR WS-IX >= CA-BRW-COUNT
                   MOVE LENGTH OF CUSTOMER-RECORD TO WS-REC-LEN
                   EXEC CICS READNEXT FILE(WS-FILE)
                             INTO(CUSTOMER-RECORD)
                             LENGTH(WS-REC-LEN)
                             RIDFLD(WS-KEY)
                             RESP(WS-RESP)
                   END-EXEC
                   IF WS-RESP = DFHRESP(NORMAL)
                       ADD 1 TO WS-IX
                       MOVE CR-CUST-ID TO CA-BRW-IDS (WS-IX)
                   END-IF
               END-PERFORM
               EXEC CICS ENDBR FILE(WS-FILE) END-EXEC
           END-IF
           IF WS-IX = 0
               MOVE 4 TO CA-RETURN-CODE
           END-IF
           MOVE WS-IX TO CA-BRW-COUNT.

       7000-RECORD-TO-COMMAREA.
           MOVE CR-CUST-ID TO CA-CUST-ID
           MOVE CR-CUST-NAME TO CA-CUST-NAME
           MOVE CR-CUST-CITY TO CA-CUST-CITY
           MOVE CR-CUST-BALANCE TO CA-CUST-BALANCE.

       8100-NOT-FOUND.
           MOVE 4 TO CA-RETURN-CODE
           MOVE EIBRESP TO CA-RESP
           MOVE 'CUSTOMER NOT FOUND' TO CA-MESSAGE
           EXEC CICS RETURN END-EXEC.

       8200-DUPLICATE.
           MOVE 8 TO CA-RETURN-CODE
           MOVE EIBRESP TO CA-RESP
           MOVE 'CUSTOMER ALREADY EXISTS' TO CA-MESSAGE
           EXEC CICS RETURN END-EXEC.

       8900-FAILED.
           MOVE 16 TO CA-RETURN-CODE
           MOVE EIBRESP TO CA-RESP
           MOVE 'FILE ERROR' TO CA-MESSAGE
           EXEC CICS RETURN END-EXEC.
