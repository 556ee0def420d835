       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPTYPES.
      *================================================================*
      * EMPTYPES - HOST VARIABLE AND SQLCODE CHECKOUT FOR THE PAYROLL  *
      *   TABLES. EACH FUNCTION RUNS A FIXED SERIES OF STATEMENTS AND  *
      *   RETURNS, PER STATEMENT, WHAT IT LEFT: THE SQLCA FIELDS AND   *
      *   THE HOST VARIABLE AREA AS HEXADECIMAL.                       *
      *   TI  HOST VARIABLES OF EVERY USAGE AS INPUT (INSERTS)         *
      *   B8  AN S9(18) COMP HOST VARIABLE AS INPUT                    *
      *   TO  HOST VARIABLES OF EVERY USAGE AS OUTPUT, -304            *
      *   TX  CHAR AND VARCHAR: CUT, PADDED, INDICATOR LENGTHS         *
      *   NU  NULL WITH AND WITHOUT AN INDICATOR                       *
      *   SI  NO ROW, TWO ROWS, SEARCHED UPDATE COUNTS                 *
      *   ER  -803 -530 -532 -302 -311                                 *
      *   CU  CURSOR STATES, UPDATE WHERE CURRENT OF                   *
      *   HO  COMMIT WITH AND WITHOUT HOLD, ROLLBACK                   *
      *   FA  COMMIT, INSERT, THEN A RUNTIME ERROR                     *
      *   HA  INSERT, SIGNAL <LS-DIR>/INSERTED, THEN WAIT FOREVER      *
      *   HL  A WITH HOLD CURSOR LEFT OPEN ACROSS A COMMIT AT GOBACK   *
      *   AR  DECIMAL ARITHMETIC, SUM, AVG, DATES, -802, -406          *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLEMPL END-EXEC.
       01  WS-WORK.
           05  WS-I                PIC S9(4) COMP.
           05  WS-BYTE             PIC S9(4) COMP.
           05  WS-HI               PIC S9(4) COMP.
           05  WS-LO               PIC S9(4) COMP.
           05  WS-LOOPS            PIC S9(4) COMP.
           05  WS-HEX-DIGITS       PIC X(16)
                                   VALUE '0123456789ABCDEF'.
           05  WS-NEXT-STEP        PIC X(8) VALUE 'EMPNOSTP'.
           05  WS-NAP              PIC S9(18) COMP-5 VALUE 50000000.
           05  WS-PATH             PIC X(200).
           05  WS-ACCESS           PIC X COMP-X VALUE 2.
           05  WS-DENY             PIC X COMP-X VALUE 0.
           05  WS-DEVICE           PIC X COMP-X VALUE 0.
           05  WS-HANDLE           PIC X(4).
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-HOSTS.
           05  H-DISP-U            PIC 9(9).
           05  H-DISP-S            PIC S9(9).
           05  H-SIGN-L            PIC S9(7)V99 SIGN LEADING.
           05  H-SIGN-LS           PIC S9(7)V99
                                   SIGN LEADING SEPARATE.
           05  H-SIGN-TS           PIC S9(7)V99
                                   SIGN TRAILING SEPARATE.
           05  H-PACK-S            PIC S9(7)V99 COMP-3.
           05  H-PACK-U            PIC 9(7)V99 COMP-3.
           05  H-BIN-4             PIC S9(4) COMP.
           05  H-BIN-9             PIC S9(9) COMP.
           05  H-BIN-18            PIC S9(18) COMP.
           05  H-NATIVE            PIC S9(9) COMP-5.
           05  H-SAL-0             PIC S9(9) COMP-3.
           05  H-SAL-4             PIC S9(7)V9(4) COMP-3.
           05  H-SMALL             PIC S9(3) COMP-3.
           05  H-COUNT             PIC S9(9) COMP.
           05  H-NAME-5            PIC X(5).
           05  H-NAME-20           PIC X(20).
           05  H-LAST              PIC X(15).
           05  H-FIRST.
               49  H-FIRST-LEN     PIC S9(4) COMP.
               49  H-FIRST-TEXT    PIC X(12).
           05  H-DEPT              PIC X(3).
           05  H-DATE              PIC X(10).
           05  H-IND-1             PIC S9(4) COMP.
           05  H-IND-2             PIC S9(4) COMP.
       01  WS-BAD-PACKED.
           05  H-BAD-PACK          PIC S9(7)V99 COMP-3.
       01  WS-BAD-ZONED.
           05  H-BAD-DISP          PIC S9(5).
           EXEC SQL END DECLARE SECTION END-EXEC.
           EXEC SQL
               DECLARE C1 CURSOR FOR
                SELECT EMPNO, LASTNAME, SALARY
                  FROM PAYROLL.EMPLOYEE
                 WHERE WORKDEPT = 'D11'
                 ORDER BY EMPNO
                   FOR UPDATE OF SALARY
           END-EXEC.
           EXEC SQL
               DECLARE C2 CURSOR WITH HOLD FOR
                SELECT EMPNO FROM PAYROLL.EMPLOYEE
                 ORDER BY EMPNO
           END-EXEC.
           EXEC SQL
               DECLARE C3 CURSOR FOR
                SELECT EMPNO FROM PAYROLL.EMPLOYEE
                 ORDER BY EMPNO
           END-EXEC.
       LINKAGE SECTION.
       01  LS-REQUEST.
           05  LS-FUNCTION         PIC X(2).
           05  LS-DIR              PIC X(150).
       01  LS-REPLY.
           05  LS-STEPS            PIC 9(2).
           05  LS-STEP             OCCURS 24 TIMES.
               10  LS-SQLCODE      PIC S9(9).
               10  LS-SQLSTATE     PIC X(5).
               10  LS-ROWS         PIC S9(9).
               10  LS-SQLWARN      PIC X(8).
               10  LS-ERRML        PIC S9(4).
               10  LS-ERRMC        PIC X(70).
               10  LS-HOSTS        PIC X(326).
       PROCEDURE DIVISION USING LS-REQUEST LS-REPLY.
       0000-MAIN.
           INITIALIZE LS-REPLY
           INITIALIZE WS-HOSTS
           EVALUATE LS-FUNCTION
               WHEN 'TI'  PERFORM 1000-TYPES-IN
               WHEN 'B8'  PERFORM 1500-BINARY-18
               WHEN 'TO'  PERFORM 2000-TYPES-OUT
               WHEN 'TX'  PERFORM 3000-TEXT
               WHEN 'NU'  PERFORM 4000-NULLS
               WHEN 'SI'  PERFORM 5000-ROW-COUNTS
               WHEN 'ER'  PERFORM 6000-ERRORS
               WHEN 'CU'  PERFORM 7000-CURSOR
               WHEN 'HO'  PERFORM 7500-HOLD
               WHEN 'FA'  PERFORM 8000-FAIL
               WHEN 'HA'  PERFORM 8500-HANG
               WHEN 'AR'  PERFORM 8700-ARITH
               WHEN 'HL'  PERFORM 7600-HELD
               WHEN OTHER MOVE 99 TO LS-STEPS
           END-EVALUATE
           GOBACK.

      *----------------------------------------------------------------*
      * ONE ROW PER INPUT USAGE, ITS SALARY FROM THAT HOST VARIABLE.   *
      *----------------------------------------------------------------*
       1000-TYPES-IN.
           MOVE 4711         TO H-DISP-U
           MOVE -4711        TO H-DISP-S
           MOVE -1234.56     TO H-SIGN-L
           MOVE +2345.67     TO H-SIGN-LS
           MOVE -3456.78     TO H-SIGN-TS
           MOVE -4567.89     TO H-PACK-S
           MOVE 5678.91      TO H-PACK-U
           MOVE -9999        TO H-BIN-4
           MOVE 123456       TO H-BIN-9
           MOVE -1234567     TO H-BIN-18
           MOVE 7654321      TO H-NATIVE
           MOVE 1234.5678    TO H-SAL-4
           MOVE 'D11'        TO H-DEPT
           MOVE '2019-03-31' TO H-DATE
           MOVE 'TYPES IN'   TO H-FIRST-TEXT
           MOVE 8            TO H-FIRST-LEN
           MOVE 'IN-DISP-U' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-DISP-U, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-DISP-S' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-DISP-S, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-SIGN-L' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-SIGN-L, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-SIGN-LS' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-SIGN-LS, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-SIGN-TS' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-SIGN-TS, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-PACK-S' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-PACK-S, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-PACK-U' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-PACK-U, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-BIN-4' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-BIN-4, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-BIN-9' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-BIN-9, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-NATIVE' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-NATIVE, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'IN-SAL-4' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-SAL-4, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
      *    THE SAME VALUES AS SEARCH ARGUMENTS.
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE SALARY IN (:H-SIGN-L, :H-SIGN-LS, :H-SIGN-TS,
                                 :H-PACK-S, :H-PACK-U, :H-BIN-4)
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE SALARY = :H-SIGN-LS
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 1001 TO H-DISP-U H-DISP-S H-BIN-4 H-BIN-9 H-BIN-18
                        H-NATIVE
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :H-DISP-U AND EMPNO = :H-DISP-S
                  AND EMPNO = :H-BIN-4 AND EMPNO = :H-BIN-9
                  AND EMPNO = :H-BIN-18 AND EMPNO = :H-NATIVE
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'O''CONNELL' TO H-NAME-20
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :H-NAME-20
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-PACK-S
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'IN-DISP-U'
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * AN S9(18) COMP HOST VARIABLE INTO THE DECIMAL(9,2) SALARY.     *
      *----------------------------------------------------------------*
       1500-BINARY-18.
           MOVE -1234567     TO H-BIN-18
           MOVE 'D11'        TO H-DEPT
           MOVE '2019-03-31' TO H-DATE
           MOVE 'IN-BIN-18'  TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-DEPT, :H-BIN-18, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-PACK-S
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'IN-BIN-18'
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * ONE NEGATIVE ROW READ INTO EVERY NUMERIC USAGE; -304.          *
      *----------------------------------------------------------------*
       2000-TYPES-OUT.
           MOVE 'MINUS' TO H-LAST
           MOVE 'NEG' TO H-FIRST-TEXT
           MOVE 3 TO H-FIRST-LEN
           MOVE 'D11' TO H-DEPT
           MOVE '2020-02-29' TO H-DATE
           MOVE -1234.56 TO H-PACK-S
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-PACK-S, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT EMPNO, EMPNO, SALARY, SALARY, SALARY, SALARY,
                      SALARY, SALARY, SALARY, SALARY, SALARY, SALARY,
                      HIREDATE
                 INTO :H-DISP-U, :H-BIN-9, :H-DISP-S, :H-SIGN-L,
                      :H-SIGN-LS, :H-SIGN-TS, :H-PACK-S, :H-BIN-4,
                      :H-BIN-18, :H-NATIVE, :H-SAL-0, :H-SAL-4,
                      :H-DATE
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'MINUS'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-PACK-U
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'MINUS'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-DISP-U
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'MINUS'
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT SALARY, SALARY, SALARY, SALARY, SALARY, SALARY,
                      SALARY, SALARY, SALARY, SALARY
                 INTO :H-PACK-U, :H-DISP-U, :H-SIGN-L, :H-SIGN-LS,
                      :H-SIGN-TS, :H-SAL-0, :H-SAL-4, :H-BIN-18,
                      :H-NATIVE, :H-DISP-S
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 77 TO H-SMALL
           EXEC SQL
               SELECT SALARY INTO :H-SMALL
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-BIN-4
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-SAL-0
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1001
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * CHAR(15) AND VARCHAR(12) INTO SHORT, LONG AND VARCHAR HOSTS.   *
      *----------------------------------------------------------------*
       3000-TEXT.
           EXEC SQL
               SELECT LASTNAME, LASTNAME, FIRSTNAME, WORKDEPT
                 INTO :H-NAME-5:H-IND-1, :H-NAME-20, :H-FIRST,
                      :H-DEPT
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1001
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT LASTNAME INTO :H-NAME-5
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1001
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT FIRSTNAME, FIRSTNAME, LASTNAME
                 INTO :H-FIRST, :H-NAME-5:H-IND-2, :H-NAME-20:H-IND-1
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'TEXTIN' TO H-NAME-20
           MOVE 'LETTERS' TO H-FIRST-TEXT
           MOVE 4 TO H-FIRST-LEN
           MOVE 'A00' TO H-DEPT
           MOVE '2021-12-31' TO H-DATE
           MOVE 12.5 TO H-PACK-S
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-NAME-20, :H-FIRST, :H-DEPT, :H-PACK-S,
                       :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'TEXTOUT' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT, :H-PACK-S,
                       :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT LASTNAME, FIRSTNAME, HIREDATE
                 INTO :H-NAME-20:H-IND-1, :H-FIRST, :H-DATE
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'TEXTIN'
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 0 TO H-FIRST-LEN
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET FIRSTNAME = :H-FIRST
                WHERE LASTNAME = 'TEXTIN'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT FIRSTNAME INTO :H-FIRST
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'TEXTIN'
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * NULL IN AND OUT, WITH AND WITHOUT INDICATOR VARIABLES.         *
      *----------------------------------------------------------------*
       4000-NULLS.
           MOVE 'NULLS' TO H-LAST
           MOVE 'NOBODY' TO H-FIRST-TEXT
           MOVE 6 TO H-FIRST-LEN
           MOVE '2022-06-30' TO H-DATE
           MOVE -1 TO H-IND-1 H-IND-2
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, FIRSTNAME, WORKDEPT, SALARY, HIREDATE)
               VALUES (:H-LAST, :H-FIRST, :H-DEPT:H-IND-1,
                       :H-PACK-S:H-IND-2, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'XYZ' TO H-DEPT
           MOVE 999.99 TO H-PACK-S
           MOVE 7 TO H-IND-1 H-IND-2
           EXEC SQL
               SELECT WORKDEPT, SALARY
                 INTO :H-DEPT:H-IND-1, :H-PACK-S:H-IND-2
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'NULLS'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT SALARY INTO :H-PACK-S
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'NULLS'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT WORKDEPT INTO :H-DEPT
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'NULLS'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT IS NULL AND SALARY IS NULL
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 0 TO H-IND-2
           MOVE 100.01 TO H-PACK-S
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = :H-PACK-S:H-IND-2
                WHERE LASTNAME = 'NULLS'
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * NO ROW, TOO MANY ROWS, SEARCHED UPDATE ROW COUNTS.             *
      *----------------------------------------------------------------*
       5000-ROW-COUNTS.
           MOVE 4711 TO H-BIN-9
           EXEC SQL
               SELECT EMPNO INTO :H-BIN-9
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 4711
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT EMPNO INTO :H-BIN-9
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO IN (1000, 1001)
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET WORKDEPT = 'A00'
                WHERE EMPNO = 4711
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'TRIO' TO H-LAST
           MOVE 'A00' TO H-DEPT
           MOVE '2023-01-02' TO H-DATE
           PERFORM 3 TIMES
               EXEC SQL
                   INSERT INTO PAYROLL.EMPLOYEE
                          (LASTNAME, WORKDEPT, HIREDATE)
                   VALUES (:H-LAST, :H-DEPT, :H-DATE)
               END-EXEC
               PERFORM 9000-RECORD
           END-PERFORM
           MOVE 'TRIPLE' TO H-FIRST-TEXT
           MOVE 6 TO H-FIRST-LEN
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET FIRSTNAME = :H-FIRST
                WHERE LASTNAME = :H-LAST
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               DELETE FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = 'NOBODY'
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE FIRSTNAME = 'TRIPLE'
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * CONSTRAINTS AND HOST VARIABLES THAT HOLD NO VALID VALUE.       *
      *----------------------------------------------------------------*
       6000-ERRORS.
           EXEC SQL
               INSERT INTO PAYROLL.DEPT (DEPTNO, DEPTNAME)
               VALUES ('A00', 'SECOND ADMINISTRATION')
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'BADDEPT' TO H-LAST
           MOVE 'ZZZ' TO H-DEPT
           MOVE '2023-05-05' TO H-DATE
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE
                      (LASTNAME, WORKDEPT, HIREDATE)
               VALUES (:H-LAST, :H-DEPT, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               DELETE FROM PAYROLL.DEPT WHERE DEPTNO = 'A00'
           END-EXEC
           PERFORM 9000-RECORD
           MOVE HIGH-VALUES TO WS-BAD-PACKED
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE SALARY = :H-BAD-PACK
           END-EXEC
           PERFORM 9000-RECORD
           MOVE LOW-VALUES TO WS-BAD-PACKED
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = :H-BAD-PACK
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'ABCDE' TO WS-BAD-ZONED
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = :H-BAD-DISP
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 'TOO LONG' TO H-FIRST-TEXT
           MOVE 13 TO H-FIRST-LEN
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET FIRSTNAME = :H-FIRST
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           MOVE -1 TO H-FIRST-LEN
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET FIRSTNAME = :H-FIRST
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.DEPT
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * A CURSOR FOR UPDATE THROUGH ITS STATES.                        *
      *----------------------------------------------------------------*
       7000-CURSOR.
           EXEC SQL
               FETCH C1 INTO :H-BIN-9, :H-LAST, :H-PACK-S
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL OPEN C1 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL OPEN C1 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               FETCH C1 INTO :H-BIN-9, :H-LAST, :H-PACK-S
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 333.33 TO H-PACK-S
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = :H-PACK-S
                WHERE CURRENT OF C1
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 0 TO WS-LOOPS
           PERFORM UNTIL SQLCODE NOT = 0 OR WS-LOOPS > 15
               ADD 1 TO WS-LOOPS
               EXEC SQL
                   FETCH C1 INTO :H-BIN-9, :H-LAST, :H-PACK-S
               END-EXEC
               PERFORM 9000-RECORD
           END-PERFORM
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = :H-PACK-S
                WHERE CURRENT OF C1
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL CLOSE C1 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL CLOSE C1 END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * COMMIT KEEPS THE HOLD CURSOR, CLOSES THE OTHER; ROLLBACK.      *
      *----------------------------------------------------------------*
       7500-HOLD.
           EXEC SQL OPEN C2 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL OPEN C3 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C2 INTO :H-BIN-9 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C3 INTO :H-NATIVE END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL COMMIT END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C2 INTO :H-BIN-9 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C3 INTO :H-NATIVE END-EXEC
           PERFORM 9000-RECORD
           MOVE 'ROLLED' TO H-LAST
           MOVE '2024-07-01' TO H-DATE
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, HIREDATE)
               VALUES (:H-LAST, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL ROLLBACK END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C2 INTO :H-BIN-9 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE LASTNAME = :H-LAST
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * A COMMITTED ROW, THEN ONE THAT A RUNTIME ERROR MUST UNDO.      *
      *----------------------------------------------------------------*
       8000-FAIL.
           MOVE 'KEPT' TO H-LAST
           MOVE '2024-08-01' TO H-DATE
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, HIREDATE)
               VALUES (:H-LAST, :H-DATE)
           END-EXEC
           EXEC SQL COMMIT END-EXEC
           MOVE 'FAILED' TO H-LAST
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, HIREDATE)
               VALUES (:H-LAST, :H-DATE)
           END-EXEC
           PERFORM 9000-RECORD
           CALL WS-NEXT-STEP USING WS-PATH.

      *----------------------------------------------------------------*
      * A ROW, A SIGNAL FILE, AND A WAIT THAT ONLY A TIMEOUT ENDS.     *
      *----------------------------------------------------------------*
       8500-HANG.
           MOVE 'HUNG' TO H-LAST
           MOVE '2024-09-01' TO H-DATE
           EXEC SQL
               INSERT INTO PAYROLL.EMPLOYEE (LASTNAME, HIREDATE)
               VALUES (:H-LAST, :H-DATE)
           END-EXEC
           MOVE SPACES TO WS-PATH
           STRING LS-DIR DELIMITED BY SPACE
                  '/INSERTED' DELIMITED BY SIZE
                  INTO WS-PATH
           CALL 'CBL_CREATE_FILE' USING WS-PATH WS-ACCESS WS-DENY
                                        WS-DEVICE WS-HANDLE
           CALL 'CBL_CLOSE_FILE' USING WS-HANDLE
           PERFORM UNTIL LS-FUNCTION = SPACES
               CALL 'CBL_GC_NANOSLEEP' USING WS-NAP
           END-PERFORM.

      *----------------------------------------------------------------*
      * A WITH HOLD CURSOR STILL OPEN WHEN THE PROGRAM ENDS: THE CALL   *
      * ENDS IT; THE NEXT CALL OPENS IT AGAIN.                         *
      *----------------------------------------------------------------*
       7600-HELD.
           EXEC SQL OPEN C2 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL FETCH C2 INTO :H-BIN-9 END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL COMMIT END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * DB2'S DECIMAL ARITHMETIC, EXACT: PRODUCTS, QUOTIENTS, SUM,     *
      * AVG, DECIMAL(), CHAR(), LABELLED DURATIONS, AND ITS ERRORS.    *
      *----------------------------------------------------------------*
       8700-ARITH.
           EXEC SQL
               SELECT SALARY * 1.0333, SALARY / 12, SALARY + 0.005,
                      SALARY - 100000, SALARY / 7
                 INTO :H-SAL-4, :H-PACK-S, :H-SIGN-LS, :H-SIGN-TS,
                      :H-SIGN-L
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT SUM(SALARY), AVG(SALARY), COUNT(*)
                 INTO :H-PACK-S, :H-SAL-4, :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE WORKDEPT = 'A00'
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT CHAR(SALARY), HIREDATE + 1 MONTH
                 INTO :H-NAME-20, :H-DATE
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 1.0333 TO H-SAL-4
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = SALARY * :H-SAL-4
                WHERE WORKDEPT = 'A00'
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT COUNT(*) INTO :H-COUNT
                 FROM PAYROLL.EMPLOYEE
                WHERE SALARY * 2 > 50000.5
           END-EXEC
           PERFORM 9000-RECORD
           MOVE 0 TO H-SAL-0
           EXEC SQL
               SELECT SALARY / :H-SAL-0 INTO :H-PACK-S
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           EXEC SQL
               UPDATE PAYROLL.EMPLOYEE
                  SET SALARY = SALARY * 100000
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD
           INITIALIZE WS-HOSTS
           EXEC SQL
               SELECT 0 - SALARY, SALARY * 0.5, HIREDATE - 13 MONTHS
                 INTO :H-PACK-S, :H-SAL-4, :H-DATE
                 FROM PAYROLL.EMPLOYEE
                WHERE EMPNO = 1000
           END-EXEC
           PERFORM 9000-RECORD.

      *----------------------------------------------------------------*
      * WHAT THE LAST STATEMENT LEFT, AND THE HOST AREA IN HEX.        *
      *----------------------------------------------------------------*
       9000-RECORD.
           IF LS-STEPS < 24
               ADD 1 TO LS-STEPS
               MOVE SQLCODE      TO LS-SQLCODE(LS-STEPS)
               MOVE SQLSTATE     TO LS-SQLSTATE(LS-STEPS)
               MOVE SQLERRD(3)   TO LS-ROWS(LS-STEPS)
               MOVE SQLWARN      TO LS-SQLWARN(LS-STEPS)
               MOVE SQLERRML     TO LS-ERRML(LS-STEPS)
               MOVE SQLERRMC     TO LS-ERRMC(LS-STEPS)
               PERFORM VARYING WS-I FROM 1 BY 1
                       UNTIL WS-I > LENGTH OF WS-HOSTS
                   COMPUTE WS-BYTE =
                       FUNCTION ORD(WS-HOSTS(WS-I:1)) - 1
                   DIVIDE WS-BYTE BY 16 GIVING WS-HI
                          REMAINDER WS-LO
                   MOVE WS-HEX-DIGITS(WS-HI + 1:1)
                     TO LS-HOSTS(LS-STEPS)(2 * WS-I - 1:1)
                   MOVE WS-HEX-DIGITS(WS-LO + 1:1)
                     TO LS-HOSTS(LS-STEPS)(2 * WS-I:1)
               END-PERFORM
           END-IF.
