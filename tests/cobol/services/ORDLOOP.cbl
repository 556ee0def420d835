      *****************************************************************
      * ORDLOOP - ASKS THE SERVER ABOUT EACH ORDER LINE IN TURN,      *
      *           THROUGH THE SQL RUNTIME ENTRY (SQLRT), AS A         *
      *           PRECOMPILED EXEC SQL SELECT WOULD.                   *
      *           LK-COUNTER IS BUMPED BY THE SERVER ON EVERY CALL;   *
      *           LK-TRACE GETS ONE LETTER PER LINE: K FOUND,         *
      *           N NOT FOUND, ? ANYTHING ELSE.                       *
      *****************************************************************
       IDENTIFICATION DIVISION.
       PROGRAM-ID. ORDLOOP.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-STMT-NO                  PIC S9(09)    COMP-5 VALUE 0.
       01  WS-LINE                     PIC 9(02)     COMP-5 VALUE 0.
       LINKAGE SECTION.
       01  LK-CONTROL.
           05  LK-LINES                PIC 9(02).
           05  LK-COUNTER              PIC S9(07)    COMP-3.
           05  LK-TRACE                PIC X(20).
       COPY ORDREQ.
       PROCEDURE DIVISION USING LK-CONTROL ORD-REQUEST.
       0000-MAIN.
           MOVE SPACES TO LK-TRACE
           IF LK-LINES > 20
               MOVE 20 TO LK-LINES
           END-IF
           PERFORM 1000-ASK-LINE
               VARYING WS-LINE FROM 1 BY 1
               UNTIL WS-LINE > LK-LINES
           GOBACK.
       1000-ASK-LINE.
           ADD 100 WS-LINE GIVING WS-STMT-NO
           MOVE WS-LINE TO ORD-QTY
           CALL 'SQLRT' USING BY VALUE WS-STMT-NO
                              BY REFERENCE ORD-REQUEST
                                           LK-COUNTER
           EVALUATE TRUE
               WHEN ORD-FOUND
                   MOVE 'K' TO LK-TRACE(WS-LINE:1)
               WHEN ORD-NOT-FOUND
                   MOVE 'N' TO LK-TRACE(WS-LINE:1)
               WHEN OTHER
                   MOVE '?' TO LK-TRACE(WS-LINE:1)
           END-EVALUATE.
