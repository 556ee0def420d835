       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPADJ.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPADJ - COST-OF-LIVING ADJUSTMENT, BATCH STEP (NO LINKAGE).   *
      *   READS ONE CONTROL CARD FROM SYSIN:                           *
      *     COLS 1-3   DEPARTMENT                                      *
      *     COLS 5-9   ADJUSTMENT FACTOR   9V9(4)  (10333 = 1.0333)    *
      *     COLS 11-17 MONTHLY PAY FLOOR   9(5)V99 FOR THE LISTING     *
      *   ADJUSTS THE DEPARTMENT'S SALARIES IN ONE SEARCHED UPDATE     *
      *   (DB2 TRUNCATES THE PRODUCT TO THE COLUMN'S TWO DECIMALS),    *
      *   PRINTS THE DEPARTMENT'S TOTAL AND AVERAGE, LISTS WHO EARNS   *
      *   MORE THAN THE FLOOR A MONTH WITH THE FIRST MONTHLY REVIEW    *
      *   DATE, AND THE DATE OF THE NEXT ADJUSTMENT RUN.               *
      *================================================================*
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-CONTROL-CARD.
           05  CC-DEPT             PIC X(3).
           05  FILLER              PIC X.
           05  CC-FACTOR           PIC 9V9(4).
           05  FILLER              PIC X.
           05  CC-FLOOR            PIC 9(5)V99.
       01  WS-SWITCHES.
           05  WS-EOF-SW           PIC X        VALUE 'N'.
               88  END-OF-CURSOR                VALUE 'Y'.
       01  WS-SQLCODE-DISP         PIC -(8)9.
       01  WS-ROWS-DISP            PIC Z(6)9.
       01  WS-TOTAL-LINE.
           05  FILLER              PIC X(7)     VALUE 'TOTAL  '.
           05  TL-TOTAL            PIC Z(8)9.99.
           05  FILLER              PIC X(10)    VALUE '  AVERAGE '.
           05  TL-AVERAGE          PIC Z(8)9.9999.
           05  FILLER              PIC X(10)    VALUE '  HEADS   '.
           05  TL-COUNT            PIC Z(4)9.
       01  WS-DETAIL-LINE.
           05  DL-EMPNO            PIC Z(8)9.
           05  FILLER              PIC X        VALUE SPACE.
           05  DL-LASTNAME         PIC X(15).
           05  FILLER              PIC X        VALUE SPACE.
           05  DL-SALARY-CHAR      PIC X(11).
           05  FILLER              PIC X        VALUE SPACE.
           05  DL-MONTHLY          PIC Z(6)9.99.
           05  FILLER              PIC X        VALUE SPACE.
           05  DL-REVIEW           PIC X(10).
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-DEPT                 PIC X(3).
       01  WS-FACTOR               PIC S9V9(4)  COMP-3.
       01  WS-FLOOR                PIC S9(5)V99 COMP-3.
       01  WS-TOTAL                PIC S9(9)V99 COMP-3.
       01  WS-TOTAL-IND            PIC S9(4)    COMP.
       01  WS-AVERAGE              PIC S9(9)V9(4) COMP-3.
       01  WS-AVERAGE-IND          PIC S9(4)    COMP.
       01  WS-COUNT                PIC S9(9)    COMP.
       01  WS-MONTHLY              PIC S9(7)V99 COMP-3.
       01  WS-SALARY-CHAR          PIC X(11).
       01  WS-REVIEW-DATE          PIC X(10).
       01  WS-NEXT-RUN             PIC X(10).
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE PAYCSR CURSOR FOR
                SELECT EMPNO, LASTNAME, CHAR(SALARY), SALARY / 12,
                       HIREDATE + 1 MONTH
                  FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :WS-DEPT
                   AND SALARY / 12 > :WS-FLOOR
                 ORDER BY EMPNO
                   FOR FETCH ONLY
           END-EXEC.
       PROCEDURE DIVISION.
       0000-MAINLINE.
           PERFORM 1000-INITIALIZE
           PERFORM 2000-ADJUST-SALARIES
           PERFORM 3000-DEPARTMENT-TOTALS
           PERFORM 4000-LIST-EMPLOYEES
           PERFORM 5000-NEXT-RUN
           STOP RUN.

       1000-INITIALIZE.
           ACCEPT WS-CONTROL-CARD
           MOVE CC-DEPT   TO WS-DEPT
           MOVE CC-FACTOR TO WS-FACTOR
           MOVE CC-FLOOR  TO WS-FLOOR
           DISPLAY 'EMPADJ COST-OF-LIVING ADJUSTMENT, DEPARTMENT '
                   WS-DEPT.

       2000-ADJUST-SALARIES.
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY     = SALARY * :WS-FACTOR,
                      UPDATED_TS = CURRENT TIMESTAMP
                WHERE WORKDEPT = :WS-DEPT
                  AND SALARY IS NOT NULL
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   MOVE SQLERRD(3) TO WS-ROWS-DISP
                   DISPLAY 'ADJUSTED ' WS-ROWS-DISP
               WHEN +100
                   DISPLAY 'ADJUSTED       0'
               WHEN OTHER
                   PERFORM 9999-SQL-ERROR
           END-EVALUATE.

       3000-DEPARTMENT-TOTALS.
           EXEC SQL
               SELECT SUM(SALARY), AVG(SALARY), COUNT(*)
                 INTO :WS-TOTAL :WS-TOTAL-IND,
                      :WS-AVERAGE :WS-AVERAGE-IND,
                      :WS-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT = :WS-DEPT
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           IF WS-TOTAL-IND < 0
               MOVE ZERO TO WS-TOTAL WS-AVERAGE
           END-IF
           MOVE WS-TOTAL   TO TL-TOTAL
           MOVE WS-AVERAGE TO TL-AVERAGE
           MOVE WS-COUNT   TO TL-COUNT
           DISPLAY WS-TOTAL-LINE.

       4000-LIST-EMPLOYEES.
           EXEC SQL OPEN PAYCSR END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           PERFORM 4100-FETCH-EMPLOYEE UNTIL END-OF-CURSOR
           EXEC SQL CLOSE PAYCSR END-EXEC.

       4100-FETCH-EMPLOYEE.
           EXEC SQL
               FETCH PAYCSR
                INTO :EMPNO, :LASTNAME, :WS-SALARY-CHAR,
                     :WS-MONTHLY, :WS-REVIEW-DATE
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   MOVE EMPNO          TO DL-EMPNO
                   MOVE LASTNAME       TO DL-LASTNAME
                   MOVE WS-SALARY-CHAR TO DL-SALARY-CHAR
                   MOVE WS-MONTHLY     TO DL-MONTHLY
                   MOVE WS-REVIEW-DATE TO DL-REVIEW
                   DISPLAY WS-DETAIL-LINE
               WHEN +100
                   SET END-OF-CURSOR TO TRUE
               WHEN OTHER
                   PERFORM 9999-SQL-ERROR
           END-EVALUATE.

       5000-NEXT-RUN.
           EXEC SQL
               SELECT CURRENT DATE + 30 DAYS
                 INTO :WS-NEXT-RUN
                 FROM SYSIBM.SYSDUMMY1
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           DISPLAY 'NEXT RUN ' WS-NEXT-RUN.

       9999-SQL-ERROR.
           MOVE SQLCODE TO WS-SQLCODE-DISP
           DISPLAY 'EMPADJ: SQL ERROR ' WS-SQLCODE-DISP ' ' SQLSTATE
           EXEC SQL ROLLBACK END-EXEC
           MOVE 16 TO RETURN-CODE
           STOP RUN.
