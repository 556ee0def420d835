       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPCHK.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPCHK - ONLINE HIRE CHECK (A CALLABLE PROGRAM WITHOUT SQL OF  *
      *   ITS OWN): CHECKS THE REQUEST, CALLS EMPENROL FOR THE ROW AND *
      *   ANSWERS ITS SQLCODE AND COUNT. CK-ABEND 'A' ABENDS AFTER THE *
      *   ENROLMENT (RERUN TEST).                                      *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ENROL-PGM                PIC X(8)  VALUE 'EMPENROL'.
       01  WS-ABEND-PGM                PIC X(8)  VALUE 'EMPABND '.
           COPY EMPREQ.
       LINKAGE SECTION.
       01  HIRE-CHECK.
           05  CK-LASTNAME             PIC X(15).
           05  CK-DEPT                 PIC X(3).
           05  CK-ABEND                PIC X.
           05  CK-RESULT               PIC X(8).
           05  CK-SQLCODE              PIC S9(9).
           05  CK-DEPT-COUNT           PIC 9(9).
       PROCEDURE DIVISION USING HIRE-CHECK.
       0000-MAIN.
           IF CK-LASTNAME = SPACES OR CK-DEPT = SPACES
               MOVE 'REJECTED' TO CK-RESULT
               GOBACK
           END-IF
           MOVE CK-LASTNAME TO ER-LASTNAME
           MOVE CK-DEPT TO ER-DEPT
           CALL WS-ENROL-PGM USING EMP-ENROL-REQUEST
           MOVE ER-SQLCODE TO CK-SQLCODE
           MOVE ER-DEPT-COUNT TO CK-DEPT-COUNT
           IF CK-ABEND = 'A'
               CALL WS-ABEND-PGM
           END-IF
           MOVE 'ENROLLED' TO CK-RESULT
           GOBACK.
