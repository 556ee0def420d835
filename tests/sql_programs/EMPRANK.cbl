       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPRANK.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPRANK - SALARY RANKING, BATCH STEP (NO LINKAGE).             *
      *   ONE INSENSITIVE SCROLL CURSOR OVER THE PAID EMPLOYEES, BY    *
      *   SALARY DESCENDING: THE TOP TWO (FIRST, NEXT), THE BOTTOM TWO *
      *   (LAST, PRIOR), THE MEDIAN (ABSOLUTE :N) AND A STEP OF        *
      *   WS-STEP ROWS PAST IT (RELATIVE :N, +100 AT THE END).         *
      *================================================================*
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-LABEL                PIC X(10).
       01  WS-SQLCODE-DISP         PIC -(8)9.
       01  WS-STEP-DISP            PIC -(4)9.
       01  WS-RANK-LINE.
           05  RK-LABEL            PIC X(10).
           05  FILLER              PIC X        VALUE SPACE.
           05  RK-EMPNO            PIC Z(8)9.
           05  FILLER              PIC X        VALUE SPACE.
           05  RK-LASTNAME         PIC X(15).
           05  FILLER              PIC X        VALUE SPACE.
           05  RK-SALARY           PIC Z(6)9.99.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-COUNT                PIC S9(9)    COMP.
       01  WS-MIDDLE               PIC S9(9)    COMP.
       01  WS-STEP                 PIC S9(4)    COMP VALUE +10.
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE RANKCSR INSENSITIVE SCROLL CURSOR FOR
                SELECT EMPNO, LASTNAME, SALARY
                  FROM PAYROLL.EMPLOYEE
                 WHERE SALARY IS NOT NULL
                 ORDER BY SALARY DESC, EMPNO
           END-EXEC.
       PROCEDURE DIVISION.
       0000-MAINLINE.
           PERFORM 1000-OPEN-RANKING
           PERFORM 2000-TOP-TWO
           PERFORM 3000-BOTTOM-TWO
           PERFORM 4000-MEDIAN
           PERFORM 5000-STEP-DOWN
           EXEC SQL CLOSE RANKCSR END-EXEC
           STOP RUN.

       1000-OPEN-RANKING.
           EXEC SQL
               SELECT COUNT(*)
                 INTO :WS-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE SALARY IS NOT NULL
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           EXEC SQL OPEN RANKCSR END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF.

       2000-TOP-TWO.
           MOVE 'TOP 1' TO WS-LABEL
           EXEC SQL
               FETCH FIRST FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW
           MOVE 'TOP 2' TO WS-LABEL
           EXEC SQL
               FETCH NEXT FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW.

       3000-BOTTOM-TWO.
           MOVE 'BOTTOM 1' TO WS-LABEL
           EXEC SQL
               FETCH LAST FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW
           MOVE 'BOTTOM 2' TO WS-LABEL
           EXEC SQL
               FETCH PRIOR FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW.

       4000-MEDIAN.
           COMPUTE WS-MIDDLE = (WS-COUNT + 1) / 2
           MOVE 'MEDIAN' TO WS-LABEL
           EXEC SQL
               FETCH ABSOLUTE :WS-MIDDLE FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW.

       5000-STEP-DOWN.
           MOVE 'STEP DOWN' TO WS-LABEL
           EXEC SQL
               FETCH RELATIVE :WS-STEP FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW
           MOVE 'BACK UP' TO WS-LABEL
           EXEC SQL
               FETCH PRIOR FROM RANKCSR
                INTO :EMPNO, :LASTNAME, :SALARY
           END-EXEC
           PERFORM 8000-SHOW-ROW.

       8000-SHOW-ROW.
           EVALUATE SQLCODE
               WHEN 0
                   MOVE WS-LABEL TO RK-LABEL
                   MOVE EMPNO    TO RK-EMPNO
                   MOVE LASTNAME TO RK-LASTNAME
                   MOVE SALARY   TO RK-SALARY
                   DISPLAY WS-RANK-LINE
               WHEN +100
                   MOVE WS-STEP TO WS-STEP-DISP
                   DISPLAY WS-LABEL ' NO ROW (+100), STEP '
                           WS-STEP-DISP
               WHEN OTHER
                   PERFORM 9999-SQL-ERROR
           END-EVALUATE.

       9999-SQL-ERROR.
           MOVE SQLCODE TO WS-SQLCODE-DISP
           DISPLAY 'EMPRANK: SQL ERROR ' WS-SQLCODE-DISP ' ' SQLSTATE
           EXEC SQL ROLLBACK END-EXEC
           MOVE 16 TO RETURN-CODE
           STOP RUN.
