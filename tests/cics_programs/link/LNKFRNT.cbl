       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKFRNT.
      *================================================================*
      * LNKFRNT - FRONT END OF THE LINK TESTS, BY REQUEST TYPE:        *
      *   EIBL  LINK TO LNKECHO WITH A SHORTER LENGTH                  *
      *   NOPG  LINK TO A PROGRAM THAT IS NOT THERE (RESP)             *
      *   EMPL  INSERT A ROW, LINK TO LNKECHO, COUNT THE ROWS          *
      *   XCTL  XCTL TO LNKECHO: THIS PROGRAM DOES NOT RESUME          *
      *   HABN  HANDLE ABEND, THEN LINK TO LNKECHO, WHICH ABENDS       *
      *   NEST  HANDLE ABEND, THEN LINK TO LNKMID, WHICH LINKS TO      *
      *         LNKECHO, WHICH ABENDS                                  *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-CALEN                    PIC S9(4) COMP.
       01  WS-ECHO                     PIC X(8)  VALUE 'LNKECHO'.
       01  WS-MISSING                  PIC X(8)  VALUE 'NOSUCHPG'.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-COUNT                    PIC S9(9) COMP.
       01  WS-FIRSTNAME                PIC X(12) VALUE 'FRONTEND'.
       01  WS-DEPT                     PIC X(3)  VALUE 'A00'.
       01  WS-HIREDATE                 PIC X(10) VALUE '2024-05-01'.
           EXEC SQL INCLUDE SQLCA END-EXEC.
       LINKAGE SECTION.
           COPY LNKCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EVALUATE TRUE
               WHEN LF-REQ-CALEN
                   EXEC CICS LINK PROGRAM(WS-ECHO)
                             COMMAREA(DFHCOMMAREA) LENGTH(14)
                   END-EXEC
               WHEN LF-REQ-NOPGM
                   EXEC CICS LINK PROGRAM(WS-MISSING)
                             COMMAREA(DFHCOMMAREA)
                             RESP(WS-RESP)
                   END-EXEC
                   MOVE WS-RESP TO LF-RESP
               WHEN LF-REQ-EMPLOYEE
                   PERFORM 1000-ENROL
               WHEN LF-REQ-XCTL
                   EXEC CICS XCTL PROGRAM(WS-ECHO)
                             COMMAREA(DFHCOMMAREA)
                   END-EXEC
                   MOVE 'RESUMED' TO LF-MESSAGE
               WHEN LF-REQ-ABEND
                   EXEC CICS HANDLE ABEND LABEL(9000-ABENDED) END-EXEC
                   EXEC CICS LINK PROGRAM(WS-ECHO)
                             COMMAREA(DFHCOMMAREA)
                   END-EXEC
                   MOVE 'NOT ABENDED' TO LF-MESSAGE
               WHEN LF-REQ-NESTED
                   EXEC CICS HANDLE ABEND LABEL(9000-ABENDED) END-EXEC
                   EXEC CICS LINK PROGRAM('LNKMID')
                             COMMAREA(DFHCOMMAREA)
                   END-EXEC
                   MOVE 'NOT ABENDED' TO LF-MESSAGE
           END-EVALUATE
           MOVE EIBCALEN TO WS-CALEN
           MOVE WS-CALEN TO LF-FRONT-CALEN
           EXEC CICS RETURN END-EXEC.

       1000-ENROL.
           MOVE LF-NAME TO WS-LASTNAME
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       :WS-HIREDATE)
           END-EXEC
           EXEC CICS LINK PROGRAM('LNKECHO')
                     COMMAREA(DFHCOMMAREA)
           END-EXEC
           EXEC SQL
               SELECT COUNT(*) INTO :WS-COUNT FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :WS-LASTNAME
           END-EXEC
           MOVE WS-COUNT TO LF-RESP
           MOVE 'ENROLLED' TO LF-MESSAGE.

       9000-ABENDED.
           EXEC CICS ASSIGN ABCODE(LF-ABCODE) END-EXEC
           MOVE 'CAUGHT' TO LF-MESSAGE
           EXEC CICS RETURN END-EXEC.
