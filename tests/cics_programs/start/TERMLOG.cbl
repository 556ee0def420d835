       IDENTIFICATION DIVISION.
       PROGRAM-ID. TERMLOG.
      *================================================================*
      * TERMLOG - NOTES A MESSAGE FOR A PROGRAM THAT LINKS TO IT, OR   *
      *   FOR A TERMINAL USER WHO KEYS IT (RECEIVE, SEND TEXT): WHICH  *
      *   ONE, ASSIGN INVOKINGPROG SAYS                                *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-INVOKER                  PIC X(8).
       01  WS-RECV                     PIC X(30).
       01  WS-RECV-LEN                 PIC S9(4)  COMP VALUE 30.
       01  WS-DONE                     PIC X(12)  VALUE 'MESSAGE KEPT'.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  LG-MESSAGE              PIC X(20).
           05  LG-INVOKER              PIC X(8).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASSIGN INVOKINGPROG(WS-INVOKER) RESP(WS-RESP)
           END-EXEC
           IF WS-INVOKER NOT = SPACES
               MOVE WS-INVOKER TO LG-INVOKER
               EXEC CICS WRITEQ TS QUEUE('TERMLOG') FROM(LG-MESSAGE)
               END-EXEC
           ELSE
               EXEC CICS RECEIVE INTO(WS-RECV) LENGTH(WS-RECV-LEN)
                    RESP(WS-RESP)
               END-EXEC
               EXEC CICS WRITEQ TS QUEUE('TERMLOG') FROM(WS-RECV)
               END-EXEC
               EXEC CICS SEND TEXT FROM(WS-DONE) LENGTH(12) ERASE
               END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
