       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTINQ.
      * Inquire on a customer: checks the request, then hands the
      * COMMAREA to the data program CUSTDB, named by a constant.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       77  CUSTDB                        PIC X(8) VALUE 'CUSTDB'.
       01  WS-CALEN                      PIC S9(4) COMP.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY CUSTAREA.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE EIBCALEN TO WS-CALEN
           IF WS-CALEN < 18
               EXEC CICS ABEND ABCODE('LGCA') NODUMP END-EXEC
           END-IF
           MOVE '00' TO CA-RETURN-CODE
           IF CA-CUSTOMER-NUM = ZERO
               MOVE '98' TO CA-RETURN-CODE
               EXEC CICS RETURN END-EXEC
           END-IF
           PERFORM 1000-GET-CUSTOMER
           EXEC CICS RETURN END-EXEC.
       1000-GET-CUSTOMER.
           EXEC CICS LINK PROGRAM(CUSTDB)
                COMMAREA(DFHCOMMAREA)
                LENGTH(32500)
           END-EXEC.
