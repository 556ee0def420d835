      ******************************************************************
      * DCLGEN TABLE(PAYROLL.EMPLOYEE)                                 *
      *        LIBRARY(PAYROLL.DCLGEN(DCLEMPL))                        *
      *        LANGUAGE(COBOL)                                         *
      *        QUOTE                                                   *
      * ... IS THE DCLGEN COMMAND THAT MADE THE FOLLOWING STATEMENTS   *
      ******************************************************************
           EXEC SQL DECLARE PAYROLL.EMPLOYEE TABLE
           ( EMPNO                          INTEGER NOT NULL,
             LASTNAME                       CHAR(15) NOT NULL,
             FIRSTNAME                      VARCHAR(12) NOT NULL,
             WORKDEPT                       CHAR(3),
             SALARY                         DECIMAL(9, 2),
             HIREDATE                       DATE NOT NULL,
             UPDATED_TS                     TIMESTAMP NOT NULL
           ) END-EXEC.
      ******************************************************************
      * COBOL DECLARATION FOR TABLE PAYROLL.EMPLOYEE                   *
      ******************************************************************
       01  DCLEMPLOYEE.
           10 EMPNO                PIC S9(9) USAGE COMP.
           10 LASTNAME             PIC X(15).
           10 FIRSTNAME.
              49 FIRSTNAME-LEN     PIC S9(4) USAGE COMP.
              49 FIRSTNAME-TEXT    PIC X(12).
           10 WORKDEPT             PIC X(3).
           10 SALARY               PIC S9(7)V9(2) USAGE COMP-3.
           10 HIREDATE             PIC X(10).
           10 UPDATED-TS           PIC X(26).
      ******************************************************************
      * INDICATOR VARIABLES FOR THE NULLABLE COLUMNS                   *
      ******************************************************************
       01  IEMPLOYEE.
           10 IEMP-WORKDEPT        PIC S9(4) USAGE COMP.
           10 IEMP-SALARY          PIC S9(4) USAGE COMP.
