       IDENTIFICATION DIVISION.
       PROGRAM-ID. TASKGATE.
      *================================================================*
      * TASKGATE - A TASK THAT HOLDS ITS DATABASE UNTIL TOLD           *
      *   HLD: WRITEQ TS ON GATEQ (THE TASK'S UNIT OF WORK NOW HOLDS   *
      *        THE DATABASE'S WRITE LOCK), WRITE GT-DIR/HELD, THEN     *
      *        WAIT FOR GT-DIR/RELEASE BEFORE IT RETURNS (AND ITS      *
      *        UNIT OF WORK IS COMMITTED)                              *
      *   NUM: NO RESOURCE AT ALL                                      *
      *   PUT: WRITEQ TS ON GATEQ AND RETURN (COMMITTED AT ITS END)    *
      *   EVERY REQUEST GIVES BACK ITS TASK NUMBER (EIBTASKN)          *
      *================================================================*
       ENVIRONMENT DIVISION.
       INPUT-OUTPUT SECTION.
       FILE-CONTROL.
           SELECT SIGNAL-FILE ASSIGN TO WS-SIGNAL-PATH
               ORGANIZATION IS LINE SEQUENTIAL
               FILE STATUS IS WS-FS.
       DATA DIVISION.
       FILE SECTION.
       FD  SIGNAL-FILE.
       01  SIGNAL-REC                  PIC X(8).
       WORKING-STORAGE SECTION.
       01  WS-SIGNAL-PATH              PIC X(200).
       01  WS-SIGNAL-NAME              PIC X(8).
       01  WS-FS                       PIC XX.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-ITEM                     PIC S9(4)  COMP.
       01  WS-QDATA                    PIC X(8)   VALUE 'HELD'.
       LINKAGE SECTION.
           COPY GATECOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE EIBTASKN TO GT-TASKN
           MOVE 0 TO GT-RESP
           EVALUATE TRUE
               WHEN GT-REQ-HOLD
                   PERFORM 1000-HOLD
               WHEN GT-REQ-PUT
                   PERFORM 2000-PUT
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-HOLD.
           PERFORM 2000-PUT
           MOVE 'HELD' TO WS-SIGNAL-NAME
           PERFORM 8000-SIGNAL
           MOVE 'RELEASE' TO WS-SIGNAL-NAME
           PERFORM 9000-WAIT.

       2000-PUT.
           EXEC CICS WRITEQ TS QUEUE('GATEQ') FROM(WS-QDATA)
                     LENGTH(LENGTH OF WS-QDATA) ITEM(WS-ITEM)
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO GT-RESP.

       7000-PATH.
           MOVE SPACES TO WS-SIGNAL-PATH
           STRING GT-DIR DELIMITED BY SPACE
                  '/' DELIMITED BY SIZE
                  WS-SIGNAL-NAME DELIMITED BY SPACE
                  INTO WS-SIGNAL-PATH.

       8000-SIGNAL.
           PERFORM 7000-PATH
           OPEN OUTPUT SIGNAL-FILE
           MOVE WS-SIGNAL-NAME TO SIGNAL-REC
           WRITE SIGNAL-REC
           CLOSE SIGNAL-FILE.

       9000-WAIT.
           PERFORM 7000-PATH
           MOVE '35' TO WS-FS
           PERFORM UNTIL WS-FS = '00'
               OPEN INPUT SIGNAL-FILE
               IF WS-FS = '00'
                   CLOSE SIGNAL-FILE
               END-IF
           END-PERFORM.
