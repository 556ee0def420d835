      ******************************************************************
      * DCLGEN TABLE(PAYROLL.EMPLOYEE)                                 *
      *        LANGUAGE(COBOL) APOST                                   *
      ******************************************************************
           EXEC SQL DECLARE PAYROLL.EMPLOYEE TABLE
           ( EMPNO                          INTEGER NOT NULL,
             LASTNAME                       CHAR(15) NOT NULL,
             SALARY                         DECIMAL(9, 2)
           ) END-EXEC.
       01  DCLEMPLOYEE.
           10 EMPNO                PIC S9(9) USAGE COMP.
           10 LASTNAME             PIC X(15).
           10 SALARY               PIC S9(7)V9(2) USAGE COMP-3.
