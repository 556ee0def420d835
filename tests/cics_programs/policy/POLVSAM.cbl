       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLVSAM.
      *================================================================*
      * POLVSAM - VSAM BACK END OF THE POLICY SERVICE (LINKED BY       *
      *   POLFRNT WITH THE POLCOMM COMMAREA): FILE CONTROL ON THE      *
      *   POLICY FILE POLFILE BY REQUEST TYPE.                         *
      *     ADDPOL  WRITE         DUPREC  -> RETURN CODE 8             *
      *     INQPOL  READ          NOTFND  -> RETURN CODE 4             *
      *     UPDPOL  READ UPDATE, REWRITE                               *
      *     DELPOL  DELETE BY KEY                                      *
      *   ANY OTHER CONDITION IS UNEXPECTED: ABEND PVSM.               *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-FILE                     PIC X(8)  VALUE 'POLFILE'.
       01  WS-KEY                      PIC 9(8).
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-RESP2                    PIC S9(8) COMP.
           COPY POLREC.
       LINKAGE SECTION.
           COPY POLCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EVALUATE TRUE
               WHEN PC-REQ-ADD
                   PERFORM 1000-WRITE-POLICY
               WHEN PC-REQ-INQUIRE
                   PERFORM 2000-READ-POLICY THRU 2999-READ-EXIT
               WHEN PC-REQ-UPDATE
                   PERFORM 3000-REWRITE-POLICY
               WHEN PC-REQ-DELETE
                   PERFORM 4000-DELETE-POLICY
               WHEN OTHER
                   EXEC CICS ABEND ABCODE('PVRQ') END-EXEC
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-WRITE-POLICY.
           INITIALIZE POLICY-RECORD
           MOVE PC-POLICY-NO TO PR-POLICY-NO
           MOVE PC-HOLDER-NAME TO PR-HOLDER-NAME
           MOVE PC-PRODUCT TO PR-PRODUCT
           SET PR-ACTIVE TO TRUE
           MOVE EIBTASKN TO PR-LAST-TASK
           EXEC CICS WRITE FILE(WS-FILE)
                     FROM(POLICY-RECORD)
                     RIDFLD(PR-POLICY-NO)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           EVALUATE WS-RESP
               WHEN DFHRESP(NORMAL)
                   CONTINUE
               WHEN DFHRESP(DUPREC)
                   MOVE 8 TO PC-RETURN-CODE
                   MOVE WS-RESP TO PC-RESP
                   MOVE 'POLICY ALREADY EXISTS' TO PC-MESSAGE
               WHEN OTHER
                   PERFORM 9000-UNEXPECTED
           END-EVALUATE.

       2000-READ-POLICY.
           EXEC CICS HANDLE CONDITION NOTFND(2900-NOT-FOUND)
           END-EXEC
           MOVE PC-POLICY-NO TO WS-KEY
           EXEC CICS READ FILE(WS-FILE)
                     INTO(POLICY-RECORD)
                     RIDFLD(WS-KEY)
           END-EXEC
           MOVE PR-HOLDER-NAME TO PC-HOLDER-NAME
           MOVE PR-PRODUCT TO PC-PRODUCT
           GO TO 2999-READ-EXIT.

       2900-NOT-FOUND.
           MOVE 4 TO PC-RETURN-CODE
           MOVE EIBRESP TO PC-RESP
           MOVE 'POLICY NOT FOUND' TO PC-MESSAGE.

       2999-READ-EXIT.
           EXIT.

       3000-REWRITE-POLICY.
           MOVE PC-CHG-POLICY-NO TO WS-KEY
           EXEC CICS READ FILE(WS-FILE) UPDATE
                     INTO(POLICY-RECORD)
                     RIDFLD(WS-KEY)
                     RESP(WS-RESP)
           END-EXEC
           EVALUATE WS-RESP
               WHEN DFHRESP(NORMAL)
                   IF PC-CHG-HOLDER-NAME NOT = SPACES
                       MOVE PC-CHG-HOLDER-NAME TO PR-HOLDER-NAME
                   END-IF
                   MOVE EIBTASKN TO PR-LAST-TASK
                   EXEC CICS REWRITE FILE(WS-FILE)
                             FROM(POLICY-RECORD)
                             RESP(WS-RESP)
                   END-EXEC
                   IF WS-RESP NOT = DFHRESP(NORMAL)
                       PERFORM 9000-UNEXPECTED
                   END-IF
               WHEN DFHRESP(NOTFND)
                   PERFORM 8000-NOT-FOUND
               WHEN OTHER
                   PERFORM 9000-UNEXPECTED
           END-EVALUATE.

       4000-DELETE-POLICY.
           MOVE PC-KEY-POLICY-NO TO WS-KEY
           EXEC CICS DELETE FILE(WS-FILE)
                     RIDFLD(WS-KEY)
                     RESP(WS-RESP)
           END-EXEC
           EVALUATE WS-RESP
               WHEN DFHRESP(NORMAL)
                   CONTINUE
               WHEN DFHRESP(NOTFND)
                   PERFORM 8000-NOT-FOUND
               WHEN OTHER
                   PERFORM 9000-UNEXPECTED
           END-EVALUATE.

       8000-NOT-FOUND.
           MOVE 4 TO PC-RETURN-CODE
           MOVE WS-RESP TO PC-RESP
           MOVE 'POLICY NOT FOUND' TO PC-MESSAGE.

       9000-UNEXPECTED.
           EXEC CICS ABEND ABCODE('PVSM') END-EXEC.
