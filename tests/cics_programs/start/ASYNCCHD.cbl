       IDENTIFICATION DIVISION.
       PROGRAM-ID. ASYNCCHD.
      *================================================================*
      * ASYNCCHD - TRANSACTION ACHD, A CHILD: NOTES ITS KEY ON TS      *
      *   QUEUE CHILDQ AND REPLIES IN CONTAINER REPLY; KEY 999 ABENDS  *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-KEY                      PIC 9(4).
       01  WS-REPLY.
           05  FILLER                  PIC X(9)   VALUE 'DONE FOR '.
           05  WS-REPLY-KEY            PIC 9(4).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS GET CONTAINER('REQUEST') INTO(WS-KEY) END-EXEC
           EXEC CICS WRITEQ TS QUEUE('CHILDQ') FROM(WS-KEY) END-EXEC
           IF WS-KEY = 999
               EXEC CICS ABEND ABCODE('ACHX') END-EXEC
           END-IF
           MOVE WS-KEY TO WS-REPLY-KEY
           EXEC CICS PUT CONTAINER('REPLY') FROM(WS-REPLY) END-EXEC
           EXEC CICS RETURN END-EXEC.
