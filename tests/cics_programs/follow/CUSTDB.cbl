       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTDB.
      * The customer data program: reads the customer the COMMAREA
      * names from CUSTFILE into the COMMAREA.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                       PIC S9(8) COMP.
       01  WS-KEY                        PIC 9(10).
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
           MOVE '00' TO CA-RETURN-CODE
           INITIALIZE CA-CUSTOMER
           MOVE CA-CUSTOMER-NUM TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(WS-CUSTOMER-REC)
                RIDFLD(WS-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               MOVE WS-CUST-FIRST TO CA-FIRST-NAME
               MOVE WS-CUST-LAST TO CA-LAST-NAME
               MOVE WS-CUST-BALANCE TO CA-BALANCE
               MOVE WS-CUST-CHANGED TO CA-LASTCHANGED
           ELSE
               MOVE '01' TO CA-RETURN-CODE
           END-IF
           EXEC CICS RETURN END-EXEC.
