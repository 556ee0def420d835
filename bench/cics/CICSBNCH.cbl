       IDENTIFICATION DIVISION.
       PROGRAM-ID. CICSBNCH.
      *================================================================*
      * CICSBNCH - DRIVER OF THE CICS COST BENCHMARK (BENCH/CICS_COST) *
      *   BN-MODE L: BN-COUNT TIMES EXEC CICS LINK TO CICSBCAL         *
      *           C: BN-COUNT TIMES A PLAIN CALL OF CICSBCAL           *
      *           P: BN-COUNT TIMES A PLAIN CALL OF CICSBNUL (CICSBCAL *
      *              ENDING IN GOBACK, NOT EXEC CICS RETURN)           *
      *           R: BN-COUNT READS BY KEY ON THE KSDS BENCHF, THE     *
      *              KEYS 1 TO BN-ROWS IN TURN                         *
      *           I: BN-COUNT IGNORE CONDITIONS (ONE BARE EXCHANGE     *
      *              WITH THE SERVER EACH)                             *
      *   BN-DONE: THE LINKS, CALLS, READS OR COMMANDS THAT WORKED.    *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CALLEE                   PIC X(8)  VALUE 'CICSBCAL'.
       01  WS-PLAIN                    PIC X(8)  VALUE 'CICSBNUL'.
       01  WS-AREA.
           05  WS-HITS                 PIC 9(8)  COMP VALUE 0.
           05  WS-DATA                 PIC X(96) VALUE SPACES.
       01  WS-KEY                      PIC 9(8).
       01  WS-RECORD                   PIC X(100).
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-I                        PIC 9(8)  COMP.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  BN-MODE                 PIC X.
               88  BN-LINK                       VALUE 'L'.
               88  BN-CALL                       VALUE 'C'.
               88  BN-PLAIN                      VALUE 'P'.
               88  BN-READ                       VALUE 'R'.
               88  BN-IGNORE                     VALUE 'I'.
           05  BN-COUNT                PIC 9(8)  COMP.
           05  BN-ROWS                 PIC 9(8)  COMP.
           05  BN-DONE                 PIC 9(8)  COMP.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO BN-DONE WS-HITS
           EVALUATE TRUE
               WHEN BN-LINK
                   PERFORM BN-COUNT TIMES
                       EXEC CICS LINK PROGRAM(WS-CALLEE)
                                 COMMAREA(WS-AREA)
                       END-EXEC
                   END-PERFORM
                   MOVE WS-HITS TO BN-DONE
               WHEN BN-CALL
                   PERFORM BN-COUNT TIMES
                       CALL WS-CALLEE USING DFHEIBLK WS-AREA
                   END-PERFORM
                   MOVE WS-HITS TO BN-DONE
               WHEN BN-PLAIN
                   PERFORM BN-COUNT TIMES
                       CALL WS-PLAIN USING WS-AREA
                   END-PERFORM
                   MOVE WS-HITS TO BN-DONE
               WHEN BN-READ
                   PERFORM 1000-READ
                       VARYING WS-I FROM 1 BY 1 UNTIL WS-I > BN-COUNT
               WHEN BN-IGNORE
                   PERFORM BN-COUNT TIMES
                       EXEC CICS IGNORE CONDITION ERROR END-EXEC
                       ADD 1 TO BN-DONE
                   END-PERFORM
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-READ.
           COMPUTE WS-KEY = FUNCTION MOD(WS-I - 1, BN-ROWS) + 1
           EXEC CICS READ FILE('BENCHF') INTO(WS-RECORD)
                     RIDFLD(WS-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               ADD 1 TO BN-DONE
           END-IF.
