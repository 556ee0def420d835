       IDENTIFICATION DIVISION.
       PROGRAM-ID. DEPTSUM.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * DEPTSUM - A DEPARTMENT'S HEAD COUNT AND SALARY BILL, WITH THE  *
      *   EMPLOYEE NUMBERS OF ITS FIRST FIVE (BY NUMBER).              *
      *   THE SQLDA IS INCLUDED FOR THE DYNAMIC REPORT WRITER THAT     *
      *   SHARES THIS SOURCE; NO STATEMENT HERE USES IT.               *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE SQLDA END-EXEC.
       01  WS-EMPNO                PIC S9(9)    COMP.
       01  WS-HEADS                PIC S9(9)    COMP.
       01  WS-BILL                 PIC S9(9)V99 COMP-3.
       01  WS-FIRST-FIVE.
           05  WS-LIST-CTL.
               10  WS-USED         PIC S9(4)    COMP VALUE 0.
           05  WS-LIST-ENTRY       OCCURS 0 TO 5 TIMES
                                   DEPENDING ON WS-USED IN WS-LIST-CTL.
               10  WS-LIST-EMPNO   PIC S9(9)    COMP.
           EXEC SQL
               DECLARE DEPTCSR CURSOR FOR
                SELECT EMPNO FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :LS-DEPT
                 ORDER BY EMPNO
           END-EXEC.
       LINKAGE SECTION.
       01  LS-DEPT-SUMMARY.
           05  LS-DEPT             PIC X(3).
           05  LS-HEADS            PIC 9(5).
           05  LS-BILL             PIC 9(9)V99.
           05  LS-FIRST            PIC 9(9) OCCURS 5 TIMES.
           05  LS-LISTED           PIC 9.
           05  LS-SQLCODE          PIC S9(9).
       PROCEDURE DIVISION USING LS-DEPT-SUMMARY.
       0000-MAINLINE.
           EXEC SQL
               SELECT COUNT(*), VALUE(SUM(SALARY), 0)
                 INTO :WS-HEADS, :WS-BILL
                 FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT = :LS-DEPT
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           MOVE WS-HEADS TO LS-HEADS
           MOVE WS-BILL TO LS-BILL
           PERFORM 1000-FIRST-FIVE
           GOBACK.
       1000-FIRST-FIVE.
           MOVE 0 TO WS-USED
           EXEC SQL OPEN DEPTCSR END-EXEC
           PERFORM UNTIL SQLCODE NOT = 0 OR WS-USED = 5
               EXEC SQL FETCH DEPTCSR INTO :WS-EMPNO END-EXEC
               IF SQLCODE = 0
                   ADD 1 TO WS-USED
                   MOVE WS-EMPNO TO WS-LIST-EMPNO (WS-USED)
               END-IF
           END-PERFORM
           EXEC SQL CLOSE DEPTCSR END-EXEC
           MOVE ZERO TO LS-FIRST (1) LS-FIRST (2) LS-FIRST (3)
                        LS-FIRST (4) LS-FIRST (5)
           MOVE WS-USED TO LS-LISTED
           PERFORM VARYING WS-EMPNO FROM 1 BY 1 UNTIL WS-EMPNO > WS-USED
               MOVE WS-LIST-EMPNO (WS-EMPNO) TO LS-FIRST (WS-EMPNO)
           END-PERFORM.
