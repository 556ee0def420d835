      ******************************************************************
      * BRNCHINQ - BRANCH INQUIRY.                                     *
      * READS ONE BRANCH OF THE BANK BY ITS CODE. THE CALLER'S AREA    *
      * IS IN COPYBOOK BRNCHCA (CPY), THE TABLE'S DCLGEN IN DCLBRNCH   *
      * (DCL).                                                         *
      ******************************************************************
       IDENTIFICATION DIVISION.
       PROGRAM-ID. BRNCHINQ.
      * Look up a branch of the bank by its four-character code.
       ENVIRONMENT DIVISION.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL INCLUDE DCLBRNCH END-EXEC.
       LINKAGE SECTION.
           COPY BRNCHCA.
       PROCEDURE DIVISION USING BRANCH-AREA.
       0000-MAIN.
           MOVE BA-BRANCH-CODE TO BRANCH-CODE
           EXEC SQL
               SELECT BRANCH_NAME
                 INTO :BRANCH-NAME
                 FROM BANK.BRANCH
                WHERE BRANCH_CODE = :BRANCH-CODE
           END-EXEC
           MOVE SQLCODE TO BA-SQLCODE
           EVALUATE SQLCODE
               WHEN 0
                   MOVE BRANCH-NAME TO BA-BRANCH-NAME
               WHEN OTHER
                   MOVE SPACES TO BA-BRANCH-NAME
           END-EVALUATE
           GOBACK.
