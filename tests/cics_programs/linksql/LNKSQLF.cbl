       IDENTIFICATION DIVISION.
       PROGRAM-ID. LNKSQLF.
      *================================================================*
      * LNKSQLF - FRONT END OF THE LINK-WITH-SQL TESTS, BY REQUEST:    *
      *   INSR  LINK TO LNKSQLB, WHICH INSERTS AN EMPLOYEE; COUNT THE  *
      *         ROWS OF THAT NAME HERE (THE SAME UNIT OF WORK)         *
      *   ABAF  LINK TO LNKSQLB, WHICH INSERTS; THEN ABEND FRAB        *
      *   DUPR  INSERT AN EMPLOYEE HERE, LINK TO LNKSQLB, WHICH        *
      *         INSERTS ONE TOO AND WRITES A CUSTOMER (DUPREC: AEIN)   *
      *   CNT2  LINK TWICE TO LNKCOUNT, WHICH COUNTS ITS LINKS IN      *
      *         WORKING-STORAGE                                        *
      *   CURS  OPEN CURSOR EMPCSR, FETCH ONE ROW, LINK TO LNKSQLB     *
      *         (ITS OWN EMPCSR), THEN FETCH THE REST HERE             *
      *   FALT  LINK TO LNKSQLB, WHICH FAILS AT RUN TIME               *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-BACK-END                 PIC X(8)  VALUE 'LNKSQLB'.
       01  WS-COUNTER-PGM              PIC X(8)  VALUE 'LNKCOUNT'.
       01  WS-FETCHED                  PIC S9(4) COMP VALUE ZERO.
       01  WS-EOF-SW                   PIC X     VALUE 'N'.
           88  END-OF-CURSOR                     VALUE 'Y'.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-LASTNAME                 PIC X(15).
       01  WS-FIRSTNAME                PIC X(12) VALUE 'FRONTEND'.
       01  WS-DEPT                     PIC X(3)  VALUE 'A00'.
       01  WS-HIREDATE                 PIC X(10) VALUE '2024-06-03'.
       01  WS-COUNT                    PIC S9(9) COMP.
       01  WS-EMPNO                    PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE EMPCSR CURSOR FOR
                SELECT EMPNO FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = :WS-DEPT
                 ORDER BY EMPNO
           END-EXEC.
       LINKAGE SECTION.
           COPY LNKSQLC.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE LS-NAME TO WS-LASTNAME
           EVALUATE TRUE
               WHEN LS-REQ-INSERT
                   PERFORM 1000-LINK-BACK-END
                   PERFORM 8000-COUNT-NAMED
               WHEN LS-REQ-ABEND-AFTER
                   PERFORM 1000-LINK-BACK-END
                   EXEC CICS ABEND ABCODE('FRAB') END-EXEC
               WHEN LS-REQ-DUPREC
                   PERFORM 2000-INSERT-HERE
                   PERFORM 1000-LINK-BACK-END
                   PERFORM 8000-COUNT-NAMED
               WHEN LS-REQ-COUNT-TWICE
                   MOVE ZERO TO LS-FIRST-COUNT LS-SECOND-COUNT
                   EXEC CICS LINK PROGRAM(WS-COUNTER-PGM)
                             COMMAREA(DFHCOMMAREA)
                   END-EXEC
                   EXEC CICS LINK PROGRAM(WS-COUNTER-PGM)
                             COMMAREA(DFHCOMMAREA)
                   END-EXEC
               WHEN LS-REQ-CURSORS
                   PERFORM 3000-CURSORS
               WHEN LS-REQ-FAULT
                   PERFORM 1000-LINK-BACK-END
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-LINK-BACK-END.
           EXEC CICS LINK PROGRAM(WS-BACK-END)
                     COMMAREA(DFHCOMMAREA)
           END-EXEC.

       2000-INSERT-HERE.
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, HIREDATE)
               VALUES (:WS-LASTNAME, :WS-FIRSTNAME, :WS-DEPT,
                       :WS-HIREDATE)
           END-EXEC.

       3000-CURSORS.
           EXEC SQL OPEN EMPCSR END-EXEC
           PERFORM 3100-FETCH
           PERFORM 1000-LINK-BACK-END
           PERFORM 3100-FETCH UNTIL END-OF-CURSOR
           EXEC SQL CLOSE EMPCSR END-EXEC
           MOVE WS-FETCHED TO LS-FIRST-COUNT.

       3100-FETCH.
           EXEC SQL FETCH EMPCSR INTO :WS-EMPNO END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   ADD 1 TO WS-FETCHED
               WHEN 100
                   SET END-OF-CURSOR TO TRUE
               WHEN OTHER
                   MOVE SQLCODE TO LS-SQLCODE
                   SET END-OF-CURSOR TO TRUE
           END-EVALUATE.

       8000-COUNT-NAMED.
           EXEC SQL
               SELECT COUNT(*) INTO :WS-COUNT FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :WS-LASTNAME
           END-EXEC
           MOVE WS-COUNT TO LS-FIRST-COUNT.
