       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPWALK.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPWALK - DEPARTMENT WALK (A CALLABLE PROGRAM): HIRES WK-HIRES *
      *   TRAINEES INTO WK-DEPT, THEN WALKS THE DEPARTMENT WITH A      *
      *   CURSOR. AFTER THE THIRD ROW IT CALLS EMPENROL (WHICH HAS     *
      *   EXEC SQL OF ITS OWN) TO ENROL ONE MORE PERSON ELSEWHERE,     *
      *   THEN FETCHES ON TO THE END: EVERY ROW OF THE DEPARTMENT IS   *
      *   COUNTED ONCE, WHATEVER THE SUBPROGRAM DID IN BETWEEN.        *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           COPY EMPREQ.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'WALKER'.
       01  WS-DEPT                     PIC X(3).
       01  WS-EMPNO                    PIC S9(9) COMP.
       01  WS-COUNT                    PIC S9(9) COMP.
       01  WS-SUM                      PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
       01  WS-HIRED                    PIC 9(4) VALUE ZERO.
       01  WS-END-SW                   PIC X VALUE 'N'.
           88  WS-END-OF-DEPT          VALUE 'Y'.
           EXEC SQL
               DECLARE DEPTCSR CURSOR FOR
                SELECT EMPNO FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :WS-DEPT
                 ORDER BY EMPNO
           END-EXEC.
       LINKAGE SECTION.
       01  WALK-REQUEST.
           05  WK-DEPT                 PIC X(3).
           05  WK-HIRES                PIC 9(4).
           05  WK-ENROL-DEPT           PIC X(3).
           05  WK-FETCHED              PIC 9(9).
           05  WK-FETCHED-SUM          PIC 9(9).
           05  WK-TABLE-COUNT          PIC 9(9).
           05  WK-TABLE-SUM            PIC 9(9).
           05  WK-ENROL-SQLCODE        PIC S9(9).
           05  WK-END-SQLCODE          PIC S9(9).
       PROCEDURE DIVISION USING WALK-REQUEST.
       0000-MAIN.
           MOVE WK-DEPT TO WS-DEPT
           MOVE ZERO TO WK-FETCHED WK-FETCHED-SUM WK-ENROL-SQLCODE
                        WK-END-SQLCODE
           PERFORM 1000-HIRE WK-HIRES TIMES
           EXEC SQL
               SELECT COUNT(*), SUM(EMPNO) INTO :WS-COUNT, :WS-SUM
                 FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT = :WS-DEPT
           END-EXEC
           MOVE WS-COUNT TO WK-TABLE-COUNT
           MOVE WS-SUM TO WK-TABLE-SUM
           EXEC SQL OPEN DEPTCSR END-EXEC
           PERFORM 2000-FETCH UNTIL WS-END-OF-DEPT
           EXEC SQL CLOSE DEPTCSR END-EXEC
           GOBACK.
       1000-HIRE.
           ADD 1 TO WS-HIRED
           STRING 'WALK' WS-HIRED DELIMITED BY SIZE INTO WS-LASTNAME
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       CURRENT DATE)
           END-EXEC.
       2000-FETCH.
           EXEC SQL FETCH DEPTCSR INTO :WS-EMPNO END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   ADD 1 TO WK-FETCHED
                   ADD WS-EMPNO TO WK-FETCHED-SUM
                   IF WK-FETCHED = 3
                       PERFORM 3000-ENROL
                   END-IF
               WHEN OTHER
                   MOVE SQLCODE TO WK-END-SQLCODE
                   SET WS-END-OF-DEPT TO TRUE
           END-EVALUATE.
       3000-ENROL.
           MOVE 'ENROLLEDWALKER' TO ER-LASTNAME
           MOVE WK-ENROL-DEPT TO ER-DEPT
           CALL 'EMPENROL' USING EMP-ENROL-REQUEST
           MOVE ER-SQLCODE TO WK-ENROL-SQLCODE.
