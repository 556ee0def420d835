       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPHIRE.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPHIRE - HIRING BATCH STEP (NO LINKAGE). CONTROL CARD:        *
      *     COLS 1-15  LAST NAME                                       *
      *     COLS 17-19 DEPARTMENT                                      *
      *     COL  21    'A' TO ABEND AFTER THE ENROLMENT (RERUN TEST)   *
      *   RECORDS THE HIRE IN PAYROLL.EMPLOYEE (A TRAINEE ROW), CALLS  *
      *   EMPENROL FOR THE EMPLOYEE ROW, AND REPORTS THE ROWS OF THE   *
      *   NAME AS THIS STEP SEES THEM.                                 *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CONTROL-CARD.
           05  CC-LASTNAME             PIC X(15).
           05  FILLER                  PIC X.
           05  CC-DEPT                 PIC X(3).
           05  FILLER                  PIC X.
           05  CC-ABEND-SW             PIC X.
               88  CC-ABEND                      VALUE 'A'.
       01  WS-ENROL-PGM                PIC X(8)  VALUE 'EMPENROL'.
       01  WS-ABEND-PGM                PIC X(8)  VALUE 'EMPABND '.
       01  WS-SQLCODE-DISP             PIC -(8)9.
       01  WS-COUNT-DISP               PIC Z(8)9.
           COPY EMPREQ.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'TRAINEE'.
       01  WS-DEPT                     PIC X(3).
       01  WS-COUNT                    PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
       PROCEDURE DIVISION.
       0000-MAINLINE.
           ACCEPT WS-CONTROL-CARD
           MOVE CC-LASTNAME TO WS-LASTNAME ER-LASTNAME
           MOVE CC-DEPT TO WS-DEPT ER-DEPT
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       CURRENT DATE)
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9999-SQL-ERROR
           END-IF
           CALL WS-ENROL-PGM USING EMP-ENROL-REQUEST
           MOVE ER-SQLCODE TO WS-SQLCODE-DISP
           MOVE ER-DEPT-COUNT TO WS-COUNT-DISP
           DISPLAY 'EMPENROL SQLCODE ' WS-SQLCODE-DISP
                   ' DEPARTMENT COUNT ' WS-COUNT-DISP
           IF CC-ABEND
               CALL WS-ABEND-PGM
           END-IF
           EXEC SQL
               SELECT COUNT(*) INTO :WS-COUNT FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :WS-LASTNAME
           END-EXEC
           MOVE WS-COUNT TO WS-COUNT-DISP
           DISPLAY 'ROWS NAMED ' CC-LASTNAME WS-COUNT-DISP
           STOP RUN.

       9999-SQL-ERROR.
           MOVE SQLCODE TO WS-SQLCODE-DISP
           DISPLAY 'EMPHIRE SQL ERROR, SQLCODE ' WS-SQLCODE-DISP
           MOVE 16 TO RETURN-CODE
           STOP RUN.
