       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKSQLB.
      *================================================================*
      * LNKSQLB - BACK END OF THE LINK-WITH-SQL TESTS (LINKED BY       *
      *   LNKSQLF): INSERTS AN EMPLOYEE (INSR, ABAF, DUPR) AND FOR     *
      *   DUPR WRITES A CUSTOMER TOO (A DUPLICATE KEY ABENDS THE TASK  *
      *   WITH AEIN); COUNTS DEPARTMENT A00 THROUGH ITS OWN CURSOR     *
      *   EMPCSR (CURS); OR SUBSCRIPTS OUT OF ITS TABLE (FALT).        *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-FETCHED                  PIC S9(4) COMP VALUE ZERO.
       01  WS-EOF-SW                   PIC X     VALUE 'N'.
           88  END-OF-CURSOR                     VALUE 'Y'.
       01  WS-TABLE.
           05  WS-ENTRY                PIC X(4)  OCCURS 3 TIMES.
       01  WS-IX                       PIC S9(4) COMP VALUE 7.
           COPY CUSTREC.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'BACKEND'.
       01  WS-DEPT                     PIC X(3)  VALUE 'A00'.
       01  WS-LASTNAME-OUT             PIC X(15).
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE EMPCSR CURSOR FOR
                SELECT LASTNAME FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :WS-DEPT
                 ORDER BY LASTNAME
           END-EXEC.
       LINKAGE SECTION.
           COPY LNKSQLC.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE LS-NAME TO WS-LASTNAME
           EVALUATE TRUE
               WHEN LS-REQ-CURSORS
                   PERFORM 2000-COUNT-DEPARTMENT
               WHEN LS-REQ-FAULT
                   MOVE 'OOPS' TO WS-ENTRY (WS-IX)
               WHEN OTHER
                   PERFORM 1000-ENROL
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-ENROL.
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       CURRENT DATE)
           END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           IF LS-REQ-DUPREC
               INITIALIZE CUSTOMER-RECORD
               MOVE LS-CUST-ID TO CR-CUST-ID
               MOVE LS-NAME TO CR-CUST-NAME
               EXEC CICS WRITE FILE('CUSTFILE')
                         FROM(CUSTOMER-RECORD) RIDFLD(CR-CUST-ID)
               END-EXEC
           END-IF
           MOVE 'ENROLLED' TO LS-MESSAGE.

       2000-COUNT-DEPARTMENT.
           EXEC SQL OPEN EMPCSR END-EXEC
           MOVE SQLCODE TO LS-SQLCODE
           PERFORM UNTIL END-OF-CURSOR
               EXEC SQL FETCH EMPCSR INTO :WS-LASTNAME-OUT END-EXEC
               IF SQLCODE = 0
                   ADD 1 TO WS-FETCHED
               ELSE
                   SET END-OF-CURSOR TO TRUE
               END-IF
           END-PERFORM
           EXEC SQL CLOSE EMPCSR END-EXEC
           MOVE WS-FETCHED TO LS-SECOND-COUNT.
