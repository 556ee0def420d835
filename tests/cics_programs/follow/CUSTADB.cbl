       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTADB.
      * Adds the customer of the COMMAREA to CUSTFILE under the next
      * number, which it gives back with the time of the change.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                       PIC S9(8) COMP.
       01  WS-NEXT                       PIC 9(10) VALUE 1000.
       01  WS-CUSTOMER-REC.
           05  WS-CUST-KEY               PIC 9(10).
           05  WS-CUST-FIRST             PIC X(10).
           05  WS-CUST-LAST              PIC X(20).
           05  WS-CUST-BALANCE           PIC S9(7)V99 COMP-3.
           05  WS-CUST-CHANGED           PIC X(26).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CUSTAREA.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE WS-NEXT TO CA-CUSTOMER-NUM
           MOVE FUNCTION CURRENT-DATE TO CA-LASTCHANGED
           MOVE CA-CUSTOMER-NUM TO WS-CUST-KEY
           MOVE CA-FIRST-NAME TO WS-CUST-FIRST
           MOVE CA-LAST-NAME TO WS-CUST-LAST
           MOVE CA-BALANCE TO WS-CUST-BALANCE
           MOVE CA-LASTCHANGED TO WS-CUST-CHANGED
           EXEC CICS WRITE FILE('CUSTFILE') FROM(WS-CUSTOMER-REC)
                RIDFLD(WS-CUST-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE '90' TO CA-RETURN-CODE
           END-IF
           EXEC CICS RETURN END-EXEC.
