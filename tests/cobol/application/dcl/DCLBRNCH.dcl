      ******************************************************************
      * DCLGEN TABLE(BANK.BRANCH)                                      *
      *        LIBRARY(BANK.DCLGEN(DCLBRNCH))                          *
      *        LANGUAGE(COBOL)                                         *
      ******************************************************************
           EXEC SQL DECLARE BANK.BRANCH TABLE
           ( BRANCH_CODE                    CHAR(4) NOT NULL,
             BRANCH_NAME                    CHAR(20) NOT NULL
           ) END-EXEC.
      ******************************************************************
      * COBOL DECLARATION FOR TABLE BANK.BRANCH                        *
      ******************************************************************
       01  DCLBRANCH.
           10 BRANCH-CODE          PIC X(4).
           10 BRANCH-NAME          PIC X(20).
