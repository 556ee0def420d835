       IDENTIFICATION DIVISION.
       PROGRAM-ID. TERMINQ.
      *================================================================*
      * TERMINQ - A CUSTOMER'S NAME, FOR A PROGRAM THAT LINKS (ITS     *
      *   COMMAREA) OR FOR A TERMINAL USER, WHO KEYS 'TINQ NNNNNN' AND *
      *   GETS THE NAME BACK AS TEXT. STARTCODE D OR A LINKER: THE     *
      *   COMMAREA; ELSE THE TERMINAL (RECEIVE, SEND TEXT).            *
      *   RCV: A RECEIVE ON THE COMMAREA PATH, WITH RESP               *
      *   SND: A SEND TEXT ON THE COMMAREA PATH (NO TERMINAL: ABM3)    *
      *   HND: A RECEIVE UNDER HANDLE CONDITION NOTALLOC               *
      *   LOG: LINK TO TERMLOG, WHICH SEES WHO LINKED (INVOKINGPROG)   *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-STARTCODE                PIC X(2).
       01  WS-INVOKER                  PIC X(8).
       01  WS-FLAG                     PIC X      VALUE 'C'.
       01  WS-RECV.
           05  WS-RECV-TRAN            PIC X(5).
           05  WS-RECV-CUSTOMER        PIC 9(6).
       01  WS-RECV-LEN                 PIC S9(4)  COMP VALUE 11.
       01  WS-CUSTOMER                 PIC 9(6).
       01  WS-NAME                     PIC X(20).
       01  WS-TEXT.
           05  FILLER                  PIC X(10)  VALUE 'CUSTOMER: '.
           05  WS-TEXT-NAME            PIC X(20).
       01  WS-LOG.
           05  WS-LOG-MESSAGE          PIC X(20).
           05  WS-LOG-INVOKER          PIC X(8).
       01  WS-NAMES.
           05  FILLER                  PIC X(20)  VALUE 'ADA LOVELACE'.
           05  FILLER                  PIC X(20)  VALUE 'GRACE HOPPER'.
           05  FILLER                  PIC X(20)  VALUE 'JEAN SAMMET'.
       01  FILLER REDEFINES WS-NAMES.
           05  WS-NAME-OF              PIC X(20)  OCCURS 3 TIMES.
       LINKAGE SECTION.
           COPY TERMCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASSIGN STARTCODE(WS-STARTCODE) RESP(WS-RESP)
           END-EXEC
           EXEC CICS ASSIGN INVOKINGPROG(WS-INVOKER) RESP(WS-RESP)
           END-EXEC
           IF WS-STARTCODE(1:1) = 'D' OR WS-INVOKER NOT = SPACES
               MOVE 'C' TO WS-FLAG
               MOVE TC-CUSTOMER TO WS-CUSTOMER
           ELSE
               EXEC CICS RECEIVE INTO(WS-RECV) LENGTH(WS-RECV-LEN)
                    RESP(WS-RESP)
               END-EXEC
               MOVE 'R' TO WS-FLAG
               MOVE WS-RECV-CUSTOMER TO WS-CUSTOMER
           END-IF
           PERFORM 1000-LOOK-UP
           IF WS-FLAG = 'R'
               MOVE WS-NAME TO WS-TEXT-NAME
               EXEC CICS SEND TEXT FROM(WS-TEXT) LENGTH(30)
                    ERASE FREEKB
               END-EXEC
           ELSE
               MOVE WS-NAME TO TC-NAME
               EVALUATE TRUE
                   WHEN TC-REQ-RECEIVE
                       PERFORM 2000-RECEIVE
                   WHEN TC-REQ-SEND
                       EXEC CICS SEND TEXT FROM(WS-TEXT) LENGTH(30)
                            RESP(WS-RESP)
                       END-EXEC
                   WHEN TC-REQ-HANDLED
                       EXEC CICS HANDLE CONDITION NOTALLOC(3000-NO-TERM)
                       END-EXEC
                       EXEC CICS RECEIVE INTO(WS-RECV)
                            LENGTH(WS-RECV-LEN)
                       END-EXEC
                       MOVE 'RECEIVED' TO TC-NAME
                   WHEN TC-REQ-LOG
                       MOVE WS-NAME TO WS-LOG-MESSAGE
                       MOVE SPACES TO WS-LOG-INVOKER
                       EXEC CICS LINK PROGRAM('TERMLOG')
                            COMMAREA(WS-LOG)
                       END-EXEC
                       MOVE WS-LOG-INVOKER TO TC-NAME
               END-EVALUATE
           END-IF
           EXEC CICS RETURN END-EXEC.

       1000-LOOK-UP.
           IF WS-CUSTOMER > 0 AND WS-CUSTOMER < 4
               MOVE WS-NAME-OF (WS-CUSTOMER) TO WS-NAME
           ELSE
               MOVE 'UNKNOWN CUSTOMER' TO WS-NAME
           END-IF.

       2000-RECEIVE.
           MOVE 11 TO WS-RECV-LEN
           EXEC CICS RECEIVE INTO(WS-RECV) LENGTH(WS-RECV-LEN)
                RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO TC-RESP
           MOVE WS-RECV-LEN TO TC-LENGTH.

       3000-NO-TERM.
           MOVE 'NO TERMINAL' TO TC-NAME
           EXEC CICS RETURN END-EXEC.
