       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPONLN.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPONLN - ONLINE HIRE (A CALLABLE PROGRAM): THE SAME WORK AS   *
      *   THE EMPHIRE BATCH STEP, ITS ANSWER IN ITS LINKAGE RECORD.    *
      *   HO-ABEND 'A' ABENDS AFTER THE ENROLMENT (RERUN TEST).        *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ABEND-PGM                PIC X(8)  VALUE 'EMPABND '.
           COPY EMPREQ.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'TRAINEE'.
       01  WS-DEPT                     PIC X(3).
       01  WS-COUNT                    PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
       LINKAGE SECTION.
       01  HIRE-ONLINE.
           05  HO-LASTNAME             PIC X(15).
           05  HO-DEPT                 PIC X(3).
           05  HO-ABEND                PIC X.
           05  HO-ENROL-SQLCODE        PIC S9(9).
           05  HO-DEPT-COUNT           PIC 9(9).
           05  HO-NAMED-COUNT          PIC 9(9).
       PROCEDURE DIVISION USING HIRE-ONLINE.
       0000-MAIN.
           MOVE HO-LASTNAME TO WS-LASTNAME ER-LASTNAME
           MOVE HO-DEPT TO WS-DEPT ER-DEPT
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       CURRENT DATE)
           END-EXEC
           CALL 'EMPENROL' USING EMP-ENROL-REQUEST
           MOVE ER-SQLCODE TO HO-ENROL-SQLCODE
           MOVE ER-DEPT-COUNT TO HO-DEPT-COUNT
           IF HO-ABEND = 'A'
               CALL WS-ABEND-PGM
           END-IF
           EXEC SQL
               SELECT COUNT(*) INTO :WS-COUNT FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :WS-LASTNAME
           END-EXEC
           MOVE WS-COUNT TO HO-NAMED-COUNT
           GOBACK.
