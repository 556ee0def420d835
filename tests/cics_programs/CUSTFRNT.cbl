       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTFRNT.
      *================================================================*
      * CUSTFRNT - FRONT END OF THE CUSTOMER SERVICE                   *
      *   CHECKS THE COMMAREA BY REQUEST TYPE, TAKES A NEW CUSTOMER    *
      *   NUMBER FROM THE NAMED COUNTER CUSTNO FOR AN ADD (DEFINING    *
      *   IT THE FIRST TIME), AND LINKS TO THE VSAM BACK END CUSTVSAM. *
      *   A REQUEST THAT FAILS IS LOGGED THROUGH ERRLOG.               *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-PROGRAMS.
           05  WS-BACKEND              PIC X(8)  VALUE 'CUSTVSAM'.
           05  WS-LOGGER               PIC X(8)  VALUE 'ERRLOG'.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-RESP2                    PIC S9(8) COMP.
       01  WS-NEXT-ID                  PIC S9(8) COMP.
       01  WS-ERR-AREA.
           COPY ERRLOGCA.
       LINKAGE SECTION.
           COPY CUSTCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF EIBCALEN = 0
               EXEC CICS ABEND ABCODE('CFNC') NODUMP END-EXEC
           END-IF
           MOVE 0 TO CA-RETURN-CODE CA-RESP
           MOVE SPACES TO CA-MESSAGE
           EVALUATE TRUE
               WHEN CA-REQ-INQUIRE
               WHEN CA-REQ-DELETE
                   PERFORM 1000-CHECK-ID
               WHEN CA-REQ-ADD
                   PERFORM 2000-CHECK-CUSTOMER
                   IF CA-OK
                       PERFORM 2100-NEW-NUMBER
                   END-IF
               WHEN CA-REQ-UPDATE
                   PERFORM 1000-CHECK-ID
                   IF CA-OK
                       PERFORM 2000-CHECK-CUSTOMER
                   END-IF
               WHEN CA-REQ-BROWSE
                   IF CA-BRW-COUNT = 0 OR CA-BRW-COUNT > 10
                       MOVE 12 TO CA-RETURN-CODE
                       MOVE 'BROWSE COUNT MUST BE 1 TO 10' TO CA-MESSAGE
                   END-IF
               WHEN OTHER
                   MOVE 12 TO CA-RETURN-CODE
                   MOVE 'UNKNOWN REQUEST TYPE' TO CA-MESSAGE
           END-EVALUATE
           IF CA-OK
               EXEC CICS LINK PROGRAM(WS-BACKEND)
                         COMMAREA(DFHCOMMAREA)
                         LENGTH(LENGTH OF DFHCOMMAREA)
                         RESP(WS-RESP) RESP2(WS-RESP2)
               END-EXEC
               IF WS-RESP NOT = DFHRESP(NORMAL)
                   MOVE 16 TO CA-RETURN-CODE
                   MOVE WS-RESP TO CA-RESP
                   MOVE 'BACK END NOT AVAILABLE' TO CA-MESSAGE
               END-IF
           END-IF
           IF NOT CA-OK AND NOT CA-NOT-FOUND
               PERFORM 9000-LOG-ERROR
           END-IF
           EXEC CICS RETURN END-EXEC.

       1000-CHECK-ID.
           IF CA-CUST-ID NOT NUMERIC OR CA-CUST-ID = 0
               MOVE 12 TO CA-RETURN-CODE
               MOVE 'CUSTOMER NUMBER MISSING' TO CA-MESSAGE
           END-IF.

       2000-CHECK-CUSTOMER.
           IF CA-CUST-NAME = SPACES OR CA-CUST-CITY = SPACES
               MOVE 12 TO CA-RETURN-CODE
               MOVE 'NAME AND CITY ARE REQUIRED' TO CA-MESSAGE
           END-IF.

       2100-NEW-NUMBER.
           EXEC CICS GET COUNTER('CUSTNO') POOL('CUSTPOOL')
                     VALUE(WS-NEXT-ID)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NOTFND) OR DFHRESP(INVREQ)
               EXEC CICS DEFINE COUNTER('CUSTNO') POOL('CUSTPOOL')
                         VALUE(1000) MINIMUM(1000) MAXIMUM(99999999)
                         RESP(WS-RESP)
               END-EXEC
               EXEC CICS GET COUNTER('CUSTNO') POOL('CUSTPOOL')
                         VALUE(WS-NEXT-ID) RESP(WS-RESP)
               END-EXEC
           END-IF
           IF WS-RESP = DFHRESP(NORMAL)
               MOVE WS-NEXT-ID TO CA-CUST-ID
           ELSE
               MOVE 16 TO CA-RETURN-CODE
               MOVE WS-RESP TO CA-RESP
               MOVE 'NO CUSTOMER NUMBER' TO CA-MESSAGE
           END-IF.

       9000-LOG-ERROR.
           MOVE 'CUSTFRNT' TO EL-PROGRAM
           MOVE CA-RETURN-CODE TO EL-CODE
           MOVE CA-MESSAGE TO EL-TEXT
           EXEC CICS LINK PROGRAM(WS-LOGGER)
                     COMMAREA(WS-ERR-AREA)
                     NOHANDLE
           END-EXEC.
