       IDENTIFICATION DIVISION.
       PROGRAM-ID. SQLBENCH.
      *================================================================*
      * SQLBENCH - ONE KIND OF STATEMENT, LS-COUNT TIMES, FOR           *
      *   BENCH/SQL_COST.PY:  'S' SELECT INTO BY KEY (KEYS 1..N),       *
      *   'I' INSERT, 'F' A CURSOR FETCH LOOP OVER THE WHOLE TABLE.     *
      *   LS-DONE: THE STATEMENTS THAT ANSWERED SQLCODE 0.              *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       01  WS-EMPNO                PIC S9(9) COMP.
       01  WS-LASTNAME             PIC X(15) VALUE 'BENCHMARK'.
       01  WS-SALARY               PIC S9(7)V99 COMP-3 VALUE 1234.56.
       01  WS-SAL-IND              PIC S9(4) COMP.
           EXEC SQL DECLARE BCSR CURSOR FOR
               SELECT EMPNO, LASTNAME, SALARY
                 FROM BENCH.EMP
                ORDER BY EMPNO
           END-EXEC.
       LINKAGE SECTION.
       01  LS-KIND                 PIC X.
       01  LS-COUNT                PIC S9(9) COMP.
       01  LS-DONE                 PIC S9(9) COMP.
       PROCEDURE DIVISION USING LS-KIND LS-COUNT LS-DONE.
       0000-MAIN.
           MOVE ZERO TO LS-DONE
           EVALUATE LS-KIND
               WHEN 'S'
                   PERFORM 1000-SELECT VARYING WS-EMPNO FROM 1 BY 1
                           UNTIL WS-EMPNO > LS-COUNT
               WHEN 'I'
                   PERFORM 2000-INSERT LS-COUNT TIMES
               WHEN 'F'
                   PERFORM 3000-FETCH-ALL
           END-EVALUATE
           GOBACK.

       1000-SELECT.
           EXEC SQL
               SELECT LASTNAME, SALARY
                 INTO :WS-LASTNAME, :WS-SALARY:WS-SAL-IND
                 FROM BENCH.EMP
                WHERE EMPNO = :WS-EMPNO
           END-EXEC
           IF SQLCODE = 0
               ADD 1 TO LS-DONE
           END-IF.

       2000-INSERT.
           EXEC SQL
               INSERT INTO BENCH.EMP (LASTNAME, SALARY)
                      VALUES (:WS-LASTNAME, :WS-SALARY)
           END-EXEC
           IF SQLCODE = 0
               ADD 1 TO LS-DONE
           END-IF.

       3000-FETCH-ALL.
           EXEC SQL OPEN BCSR END-EXEC
           PERFORM UNTIL SQLCODE NOT = 0
               EXEC SQL
                   FETCH BCSR
                    INTO :WS-EMPNO, :WS-LASTNAME, :WS-SALARY:WS-SAL-IND
               END-EXEC
               IF SQLCODE = 0
                   ADD 1 TO LS-DONE
               END-IF
           END-PERFORM
           EXEC SQL CLOSE BCSR END-EXEC.
