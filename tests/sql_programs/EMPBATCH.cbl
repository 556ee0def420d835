       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPBATCH.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPBATCH - SALARY REVIEW, BATCH STEP (NO LINKAGE).             *
      *   READS ONE CONTROL CARD FROM SYSIN:                           *
      *     COLS 1-3  DEPARTMENT                                       *
      *     COLS 5-7  RAISE PERCENT                                    *
      *     COL  9    'A' TO ABEND AFTER THE FIRST UPDATE (RERUN TEST) *
      *   RAISES EVERY SALARY OF THE DEPARTMENT THROUGH A HELD CURSOR, *
      *   COMMITS EVERY WS-COMMIT-FREQ ROWS AND PRINTS A REPORT LINE   *
      *   PER EMPLOYEE. A NULL SALARY IS LISTED, NOT RAISED.           *
      *================================================================*
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-CONTROL-CARD.
           05  CC-DEPT             PIC X(3).
           05  FILLER              PIC X.
           05  CC-RAISE-PCT        PIC 9(3).
           05  FILLER              PIC X.
           05  CC-ABEND-SW         PIC X.
               88  CC-ABEND                     VALUE 'A'.
       01  WS-COUNTERS.
           05  WS-COMMIT-FREQ      PIC S9(4)    COMP VALUE +2.
           05  WS-SINCE-COMMIT     PIC S9(4)    COMP VALUE ZERO.
           05  WS-ROWS-READ        PIC S9(7)    COMP-3 VALUE ZERO.
           05  WS-ROWS-RAISED      PIC S9(7)    COMP-3 VALUE ZERO.
       01  WS-SWITCHES.
           05  WS-EOF-SW           PIC X        VALUE 'N'.
               88  END-OF-CURSOR                VALUE 'Y'.
       01  WS-ABEND-PGM            PIC X(8)     VALUE 'EMPABND '.
       01  WS-SQLCODE-DISP         PIC -(8)9.
       01  WS-REPORT-LINE.
           05  RL-EMPNO            PIC Z(8)9.
           05  FILLER              PIC X        VALUE SPACE.
           05  RL-LASTNAME         PIC X(15).
           05  FILLER              PIC X        VALUE SPACE.
           05  RL-FIRSTNAME        PIC X(12).
           05  FILLER              PIC X        VALUE SPACE.
           05  RL-OLD-SALARY       PIC Z(6)9.99.
           05  FILLER              PIC X(4)     VALUE ' -> '.
           05  RL-NEW-SALARY       PIC Z(6)9.99.
       01  WS-TOTAL-LINE.
           05  FILLER              PIC X(13)    VALUE 'EMPLOYEES:   '.
           05  TL-READ             PIC Z(6)9.
           05  FILLER              PIC X(11)    VALUE '  RAISED:  '.
           05  TL-RAISED           PIC Z(6)9.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-DEPT                 PIC X(3).
       01  WS-RAISE-PCT            PIC S9(3)    COMP-3.
       01  WS-NEW-SALARY           PIC S9(7)V99 COMP-3.
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE EMPCSR CURSOR WITH HOLD FOR
                SELECT EMPNO, LASTNAME, FIRSTNAME, SALARY
                  FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :WS-DEPT
                 ORDER BY EMPNO
                   FOR UPDATE OF SALARY
           END-EXEC.
       PROCEDURE DIVISION.
       0000-MAINLINE.
           PERFORM 1000-INITIALIZE
           PERFORM 2000-PROCESS-EMPLOYEE UNTIL END-OF-CURSOR
           PERFORM 3000-FINISH
           STOP RUN.

       1000-INITIALIZE.
           ACCEPT WS-CONTROL-CARD
           MOVE CC-DEPT TO WS-DEPT
           MOVE CC-RAISE-PCT TO WS-RAISE-PCT
           DISPLAY 'EMPBATCH SALARY REVIEW, DEPARTMENT ' WS-DEPT
                   ', RAISE ' CC-RAISE-PCT ' PCT'
           EXEC SQL OPEN EMPCSR END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF.

       2000-PROCESS-EMPLOYEE.
           EXEC SQL
               FETCH EMPCSR
                INTO :DCLEMPLOYEE.EMPNO,
                     :DCLEMPLOYEE.LASTNAME,
                     :FIRSTNAME,
                     :SALARY :IEMP-SALARY
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   ADD 1 TO WS-ROWS-READ
                   PERFORM 2100-REPORT-EMPLOYEE
               WHEN +100
                   SET END-OF-CURSOR TO TRUE
               WHEN OTHER
                   PERFORM 9999-SQL-ERROR
           END-EVALUATE.

       2100-REPORT-EMPLOYEE.
           MOVE EMPNO TO RL-EMPNO
           MOVE LASTNAME TO RL-LASTNAME
           MOVE SPACES TO RL-FIRSTNAME
           MOVE FIRSTNAME-TEXT(1:FIRSTNAME-LEN) TO RL-FIRSTNAME
           IF IEMP-SALARY < 0
               MOVE ZERO TO RL-OLD-SALARY RL-NEW-SALARY
               DISPLAY WS-REPORT-LINE ' (NO SALARY)'
           ELSE
               PERFORM 2200-RAISE-SALARY
               DISPLAY WS-REPORT-LINE
           END-IF.

       2200-RAISE-SALARY.
           COMPUTE WS-NEW-SALARY ROUNDED =
               SALARY + SALARY * WS-RAISE-PCT / 100
           MOVE SALARY TO RL-OLD-SALARY
           MOVE WS-NEW-SALARY TO RL-NEW-SALARY
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY     = :WS-NEW-SALARY,
                      UPDATED_TS = CURRENT TIMESTAMP
                WHERE CURRENT OF EMPCSR
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           IF CC-ABEND
               CALL WS-ABEND-PGM
           END-IF
           ADD 1 TO WS-ROWS-RAISED WS-SINCE-COMMIT
           IF WS-SINCE-COMMIT NOT < WS-COMMIT-FREQ
               EXEC SQL COMMIT END-EXEC
               MOVE ZERO TO WS-SINCE-COMMIT
           END-IF.

       3000-FINISH.
           EXEC SQL CLOSE EMPCSR END-EXEC
           MOVE WS-ROWS-READ TO TL-READ
           MOVE WS-ROWS-RAISED TO TL-RAISED
           DISPLAY WS-TOTAL-LINE.

       9999-SQL-ERROR.
           MOVE SQLCODE TO WS-SQLCODE-DISP
           DISPLAY 'EMPBATCH: SQL ERROR ' WS-SQLCODE-DISP ' ' SQLSTATE
           EXEC SQL ROLLBACK END-EXEC
           MOVE 16 TO RETURN-CODE
           STOP RUN.
