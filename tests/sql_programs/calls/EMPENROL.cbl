       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPENROL.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPENROL - ENROLMENT SUBPROGRAM, CALLED BY BATCH AND ONLINE    *
      *   PROGRAMS: INSERTS AN EMPLOYEE OF THE NAME AND DEPARTMENT IT  *
      *   IS GIVEN AND RETURNS THE SQLCODE AND THE DEPARTMENT'S COUNT  *
      *   OF EMPLOYEES. NO COMMIT: THE CALLER'S UNIT OF WORK.          *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'ENROLLED'.
       01  WS-DEPT                     PIC X(3).
       01  WS-COUNT                    PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
       LINKAGE SECTION.
           COPY EMPREQ.
       PROCEDURE DIVISION USING EMP-ENROL-REQUEST.
       0000-MAIN.
           MOVE ER-LASTNAME TO WS-LASTNAME
           MOVE ER-DEPT TO WS-DEPT
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       CURRENT DATE)
           END-EXEC
           MOVE SQLCODE TO ER-SQLCODE
           IF SQLCODE = 0
               EXEC SQL
                   SELECT COUNT(*) INTO :WS-COUNT
                     FROM PAYROLL.EMPLOYEE
                    WHERE WORKDEPT = :WS-DEPT
               END-EXEC
               MOVE WS-COUNT TO ER-DEPT-COUNT
           END-IF
           GOBACK.
