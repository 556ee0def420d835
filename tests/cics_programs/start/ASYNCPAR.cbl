       IDENTIFICATION DIVISION.
       PROGRAM-ID. ASYNCPAR.
      *================================================================*
      * ASYNCPAR - RUNS TRANSACTION ACHD AS A CHILD WITH ITS KEY IN    *
      *   CONTAINER REQUEST, AND FETCHES ITS REPLY                     *
      *   RUN: RUN, FETCH CHILD, GET REPLY; FETCH AGAIN (INVREQ 51)    *
      *   ABD: THE CHILD ABENDS: FETCH ANY SAYS SO                     *
      *   PAB: RUN, FETCH, THEN ABEND PARX (THE CHILD'S WORK STAYS)    *
      *   ERR: FETCH ANY WITHOUT CHILDREN, RUN AN UNKNOWN TRANSACTION, *
      *        FREE A CHILD TWICE                                      *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-CHILD                    PIC X(16).
       01  WS-FETCHED                  PIC X(16).
       01  WS-CHAN                     PIC X(16).
       01  WS-STAT                     PIC S9(8)  COMP.
       01  WS-ABCODE                   PIC X(4).
       01  WS-KEY                      PIC 9(4).
       01  WS-REPLY                    PIC X(16).
       LINKAGE SECTION.
           COPY ASYNCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO AP-RESP AP-RESP2 AP-AGAIN AP-AGAIN2
           MOVE SPACES TO AP-ABCODE AP-REPLY
           MOVE AP-KEY TO WS-KEY
           EVALUATE TRUE
               WHEN AP-REQ-RUN
                   PERFORM 1000-RUN-CHILD
                   EXEC CICS FETCH CHILD(WS-CHILD) CHANNEL(WS-CHAN)
                        COMPSTATUS(WS-STAT) ABCODE(WS-ABCODE)
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
                   PERFORM 2000-NOTE-END
                   EXEC CICS GET CONTAINER('REPLY') CHANNEL(WS-CHAN)
                        INTO(WS-REPLY) RESP(WS-RESP)
                   END-EXEC
                   MOVE WS-REPLY TO AP-REPLY
                   EXEC CICS FETCH CHILD(WS-CHILD) RESP(WS-RESP)
                        RESP2(WS-RESP2)
                   END-EXEC
                   MOVE WS-RESP TO AP-AGAIN
                   MOVE WS-RESP2 TO AP-AGAIN2
               WHEN AP-REQ-RUN-ABEND
                   PERFORM 1000-RUN-CHILD
                   EXEC CICS FETCH ANY(WS-FETCHED) CHANNEL(WS-CHAN)
                        COMPSTATUS(WS-STAT) ABCODE(WS-ABCODE)
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
                   PERFORM 2000-NOTE-END
                   IF WS-FETCHED = WS-CHILD
                       MOVE 'SAME CHILD' TO AP-REPLY
                   END-IF
               WHEN AP-REQ-PARENT-ABEND
                   PERFORM 1000-RUN-CHILD
                   EXEC CICS FETCH CHILD(WS-CHILD) END-EXEC
                   EXEC CICS ABEND ABCODE('PARX') END-EXEC
               WHEN AP-REQ-ERRORS
                   EXEC CICS FETCH ANY(WS-FETCHED) RESP(WS-RESP)
                        RESP2(WS-RESP2)
                   END-EXEC
                   MOVE WS-RESP TO AP-RESP
                   MOVE WS-RESP2 TO AP-RESP2
                   EXEC CICS RUN TRANSID('NONE') CHILD(WS-CHILD)
                        RESP(WS-RESP)
                   END-EXEC
                   MOVE WS-RESP TO AP-AGAIN
                   PERFORM 1000-RUN-CHILD
                   EXEC CICS FREE CHILD(WS-CHILD) END-EXEC
                   EXEC CICS FREE CHILD(WS-CHILD) RESP(WS-RESP)
                        RESP2(WS-RESP2)
                   END-EXEC
                   MOVE WS-RESP2 TO AP-AGAIN2
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-RUN-CHILD.
           EXEC CICS PUT CONTAINER('REQUEST') CHANNEL('ASYNCREQ')
                FROM(WS-KEY)
           END-EXEC
           EXEC CICS RUN TRANSID('ACHD') CHANNEL('ASYNCREQ')
                CHILD(WS-CHILD)
           END-EXEC.

       2000-NOTE-END.
           MOVE WS-RESP TO AP-RESP
           MOVE WS-RESP2 TO AP-RESP2
           MOVE WS-ABCODE TO AP-ABCODE
           EVALUATE WS-STAT
               WHEN DFHVALUE(NORMAL)
                   MOVE 'N' TO AP-STATUS
               WHEN DFHVALUE(ABEND)
                   MOVE 'A' TO AP-STATUS
               WHEN OTHER
                   MOVE '?' TO AP-STATUS
           END-EVALUATE.
