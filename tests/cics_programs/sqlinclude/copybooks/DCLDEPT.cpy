      ******************************************************************
      * DCLGEN TABLE(PAYROLL.DEPT)                                     *
      *        LIBRARY(PAYROLL.DCLGEN(DCLDEPT))                        *
      *        LANGUAGE(COBOL)                                         *
      *        QUOTE                                                   *
      * ... IS THE DCLGEN COMMAND THAT MADE THE FOLLOWING STATEMENTS   *
      ******************************************************************
           EXEC SQL DECLARE PAYROLL.DEPT TABLE
           ( DEPTNO                         CHAR(3) NOT NULL,
             DEPTNAME                       VARCHAR(36) NOT NULL,
             BUDGET                         DECIMAL(15, 2) NOT NULL,
             OPENED                         DATE NOT NULL
           ) END-EXEC.
      ******************************************************************
      * COBOL DECLARATION FOR TABLE PAYROLL.DEPT                       *
      ******************************************************************
       01  DCLDEPT.
           10 DEPTNO               PIC X(3).
           10 DEPTNAME.
              49 DEPTNAME-LEN      PIC S9(4) USAGE COMP.
              49 DEPTNAME-TEXT     PIC X(36).
           10 BUDGET               PIC S9(13)V9(2) USAGE COMP-3.
           10 OPENED               PIC X(10).
      ******************************************************************
      * THE NUMBER OF COLUMNS DESCRIBED BY THIS DECLARATION IS 4       *
      ******************************************************************
