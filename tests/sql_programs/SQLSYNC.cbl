       IDENTIFICATION DIVISION.
       PROGRAM-ID. SQLSYNC.
      *================================================================*
      * SQLSYNC - TWO CALLS KEPT IN STEP BY SIGNAL FILES, TO SHOW THAT  *
      *   ONE CALL'S UNCOMMITTED ROW IS NOT SEEN BY ANOTHER.            *
      *   ROLE 'W': INSERTS A 'PENDING' EMPLOYEE, WRITES LS-DIR/INSERTED*
      *             AND WAITS FOR LS-DIR/CHECKED BEFORE IT ENDS (ITS    *
      *             UNIT OF WORK IS COMMITTED THEN).                    *
      *   ROLE 'R': WAITS FOR LS-DIR/INSERTED, COUNTS THE 'PENDING'     *
      *             ROWS INTO LS-COUNT, WRITES LS-DIR/CHECKED.          *
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
       01  SIGNAL-REC              PIC X(8).
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  WS-SIGNAL-PATH          PIC X(200).
       01  WS-SIGNAL-NAME          PIC X(8).
       01  WS-FS                   PIC XX.
       01  WS-NAME                 PIC X(15).
       01  WS-COUNT                PIC S9(9) COMP.
       LINKAGE SECTION.
       01  LS-ROLE                 PIC X.
       01  LS-DIR                  PIC X(150).
       01  LS-COUNT                PIC S9(9).
       01  LS-SQLCODE              PIC S9(9).
       PROCEDURE DIVISION USING LS-ROLE LS-DIR LS-COUNT LS-SQLCODE.
       0000-MAIN.
           MOVE ZERO TO LS-COUNT
           IF LS-ROLE = 'W'
               PERFORM 1000-WRITER
           ELSE
               PERFORM 2000-READER
           END-IF
           GOBACK.

       1000-WRITER.
           MOVE 'PENDING' TO WS-NAME
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-NAME, 'A00', '2024-01-01')
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           MOVE 'INSERTED' TO WS-SIGNAL-NAME
           PERFORM 8000-SIGNAL
           MOVE 'CHECKED' TO WS-SIGNAL-NAME
           PERFORM 9000-WAIT.

       2000-READER.
           MOVE 'INSERTED' TO WS-SIGNAL-NAME
           PERFORM 9000-WAIT
           EXEC SQL
               SELECT COUNT(*) INTO :WS-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'PENDING'
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           MOVE WS-COUNT TO LS-COUNT
           MOVE 'CHECKED' TO WS-SIGNAL-NAME
           PERFORM 8000-SIGNAL.

       7000-PATH.
           MOVE SPACES TO WS-SIGNAL-PATH
           STRING LS-DIR DELIMITED BY SPACE
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
