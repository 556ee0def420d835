       IDENTIFICATION DIVISION.
       PROGRAM-ID. ITEMWALK.
      *================================================================*
      * ITEMWALK - WALKS TWO CURSORS OVER INV.ITEM AS A BATCH REPORT   *
      *   DOES, WITH OTHER STATEMENTS, COMMIT, CLOSE AND RE-OPEN IN    *
      *   BETWEEN, AND LOGS EVERY STATEMENT TO LS-TRACE, ONE ENTRY     *
      *   EACH: STEP SQLCODE ID NAME QTY INDICATOR SQLERRD(3) ';'.     *
      *   BEFORE EACH FETCH THE QUANTITY IS SET TO 999: A NULL LEAVES  *
      *   IT SO. A SERVICE OTHER THAN SQL IS CALLED BETWEEN FETCHES    *
      *   (CICSRT: THE TEST ECHOES IT). LS-STMTS: THE STATEMENTS RUN.  *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  WS-ITEM.
           05  WS-ID               PIC S9(9) COMP.
           05  WS-NAME             PIC X(10).
           05  WS-QTY              PIC S9(7) COMP-3.
           05  WS-QTY-IND          PIC S9(4) COMP.
       01  WS-OTHER.
           05  WS-ID2              PIC S9(9) COMP.
           05  WS-NAME2            PIC X(10).
           05  WS-QTY2             PIC S9(7) COMP-3.
           05  WS-QTY-IND2         PIC S9(4) COMP.
       01  WS-COUNT                PIC S9(9) COMP.
       01  WS-STEP                 PIC X(2).
       01  WS-ENTRY.
           05  WS-E-STEP           PIC X(2).
           05  WS-E-CODE           PIC -(3)9.
           05  WS-E-ID             PIC -(4)9.
           05  FILLER              PIC X VALUE SPACE.
           05  WS-E-NAME           PIC X(10).
           05  WS-E-QTY            PIC -(4)9.
           05  WS-E-IND            PIC -(2)9.
           05  WS-E-ERRD3          PIC -(2)9.
           05  FILLER              PIC X VALUE ';'.
       01  WS-AT                   PIC S9(4) COMP VALUE 1.
       01  WS-EIB                  PIC X(85).
       01  WS-DESC                 PIC X(20) VALUE '0;=PROBE'.
           EXEC SQL DECLARE HELD CURSOR WITH HOLD FOR
               SELECT ID, NAME, QTY
                 FROM INV.ITEM
                ORDER BY ID
           END-EXEC.
           EXEC SQL DECLARE LATE CURSOR FOR
               SELECT ID, NAME, QTY
                 FROM INV.ITEM
                WHERE ID > 20
                ORDER BY ID
           END-EXEC.
       LINKAGE SECTION.
       01  LS-TRACE                PIC X(2400).
       01  LS-STMTS                PIC S9(9) COMP.
       PROCEDURE DIVISION USING LS-TRACE LS-STMTS.
       0000-MAIN.
           MOVE SPACES TO LS-TRACE
           MOVE ZERO TO LS-STMTS
           MOVE 1 TO WS-AT
           INITIALIZE WS-ITEM WS-OTHER
           EXEC SQL OPEN HELD END-EXEC
           MOVE 'OH' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 1000-FETCH-HELD 3 TIMES
           CALL 'CICSRT' USING BY VALUE 7
                               BY REFERENCE WS-EIB WS-DESC
           MOVE 'CX' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 2000-FETCH-HELD-OTHER 2 TIMES
           PERFORM 1000-FETCH-HELD
           EXEC SQL SELECT COUNT(*) INTO :WS-COUNT FROM INV.ITEM
           END-EXEC
           MOVE WS-COUNT TO WS-ID
           MOVE 'SC' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 1000-FETCH-HELD 2 TIMES
           EXEC SQL COMMIT END-EXEC
           MOVE 'CM' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 1000-FETCH-HELD 2 TIMES
           EXEC SQL OPEN LATE END-EXEC
           MOVE 'OL' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 3000-FETCH-LATE 2 TIMES
           EXEC SQL COMMIT END-EXEC
           MOVE 'CM' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 3000-FETCH-LATE
           PERFORM 1000-FETCH-HELD WITH TEST AFTER
                   UNTIL SQLCODE NOT = 0
           PERFORM 1000-FETCH-HELD
           EXEC SQL CLOSE HELD END-EXEC
           MOVE 'CH' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 1000-FETCH-HELD
           EXEC SQL OPEN HELD END-EXEC
           MOVE 'OH' TO WS-STEP
           PERFORM 9000-LOG
           PERFORM 1000-FETCH-HELD 2 TIMES
      *    HELD IS LEFT OPEN: THE END OF THE CALL CLOSES IT
           GOBACK.

       1000-FETCH-HELD.
           MOVE 999 TO WS-QTY
           EXEC SQL
               FETCH HELD INTO :WS-ID, :WS-NAME, :WS-QTY:WS-QTY-IND
           END-EXEC
           MOVE 'FH' TO WS-STEP
           PERFORM 9000-LOG.

       2000-FETCH-HELD-OTHER.
           MOVE 999 TO WS-QTY2
           EXEC SQL
               FETCH HELD INTO :WS-ID2, :WS-NAME2, :WS-QTY2:WS-QTY-IND2
           END-EXEC
           MOVE WS-OTHER TO WS-ITEM
           MOVE 'F2' TO WS-STEP
           PERFORM 9000-LOG.

       3000-FETCH-LATE.
           MOVE 999 TO WS-QTY2
           EXEC SQL
               FETCH LATE INTO :WS-ID2, :WS-NAME2, :WS-QTY2:WS-QTY-IND2
           END-EXEC
           MOVE WS-OTHER TO WS-ITEM
           MOVE 'FL' TO WS-STEP
           PERFORM 9000-LOG.

       9000-LOG.
           ADD 1 TO LS-STMTS
           MOVE WS-STEP TO WS-E-STEP
           MOVE SQLCODE TO WS-E-CODE
           MOVE WS-ID TO WS-E-ID
           MOVE WS-NAME TO WS-E-NAME
           MOVE WS-QTY TO WS-E-QTY
           MOVE WS-QTY-IND TO WS-E-IND
           MOVE SQLERRD(3) TO WS-E-ERRD3
           STRING WS-ENTRY DELIMITED BY SIZE
               INTO LS-TRACE WITH POINTER WS-AT
           END-STRING.
