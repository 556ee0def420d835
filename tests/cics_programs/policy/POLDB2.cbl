       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLDB2.
      *================================================================*
      * POLDB2 - DB2 BACK END OF THE POLICY SERVICE (LINKED BY POLFRNT *
      *   WITH THE POLCOMM COMMAREA): THE ROW OF POLICY.POLICY.        *
      *     ADDPOL  INSERT THE ROW, THEN PRICE IT FROM THE PRODUCT'S   *
      *             RATE IN POLICY.PRODUCT                             *
      *     INQPOL  THE SUM INSURED AND THE PREMIUM                    *
      *     UPDPOL  A NEW SUM INSURED, PRICED AGAIN                    *
      *     DELPOL  DELETE THE ROW                                     *
      *   A PRODUCT WITHOUT A RATE ABENDS THE TASK (PRAT), ANY OTHER   *
      *   UNEXPECTED SQLCODE TOO (PSQL): THE ROW GOES WITH IT.         *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-SQLCODE                  PIC -9(9).
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-POLICY-NO                PIC S9(9)      COMP.
       01  WS-PRODUCT                  PIC X(3).
       01  WS-SUM-INSURED              PIC S9(9)      COMP-3.
       01  WS-PREMIUM                  PIC S9(5)V99   COMP-3.
       01  WS-RATE                     PIC S9V9(4)    COMP-3.
           EXEC SQL END DECLARE SECTION END-EXEC.
       LINKAGE SECTION.
           COPY POLCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EVALUATE TRUE
               WHEN PC-REQ-ADD
                   PERFORM 1000-INSERT-POLICY
               WHEN PC-REQ-INQUIRE
                   PERFORM 2000-SELECT-POLICY
               WHEN PC-REQ-UPDATE
                   PERFORM 3000-UPDATE-POLICY
               WHEN PC-REQ-DELETE
                   PERFORM 4000-DELETE-POLICY
               WHEN OTHER
                   EXEC CICS ABEND ABCODE('PDRQ') END-EXEC
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-INSERT-POLICY.
           MOVE PC-POLICY-NO TO WS-POLICY-NO
           MOVE PC-PRODUCT TO WS-PRODUCT
           MOVE PC-SUM-INSURED TO WS-SUM-INSURED
           EXEC SQL
               INSERT INTO POLICY.POLICY
                      (POLICY_NO, PRODUCT, SUM_INSURED, ISSUED)
               VALUES (:WS-POLICY-NO, :WS-PRODUCT, :WS-SUM-INSURED,
                       CURRENT DATE)
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9000-UNEXPECTED-SQL
           END-IF
           PERFORM 5000-PRICE-POLICY
           MOVE WS-PREMIUM TO PC-PREMIUM.

       2000-SELECT-POLICY.
           MOVE PC-POLICY-NO TO WS-POLICY-NO
           EXEC SQL
               SELECT SUM_INSURED, PREMIUM
                 INTO :WS-SUM-INSURED, :WS-PREMIUM
                 FROM POLICY.POLICY
                WHERE POLICY_NO = :WS-POLICY-NO
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   MOVE WS-SUM-INSURED TO PC-SUM-INSURED
                   MOVE WS-PREMIUM TO PC-PREMIUM
               WHEN 100
                   MOVE 4 TO PC-RETURN-CODE
                   MOVE 'POLICY HAS NO DB2 ROW' TO PC-MESSAGE
               WHEN OTHER
                   PERFORM 9000-UNEXPECTED-SQL
           END-EVALUATE.

       3000-UPDATE-POLICY.
           IF PC-CHG-SUM-INSURED > ZERO
               MOVE PC-CHG-POLICY-NO TO WS-POLICY-NO
               MOVE PC-CHG-SUM-INSURED TO WS-SUM-INSURED
               EXEC SQL
                   SELECT PRODUCT INTO :WS-PRODUCT
                     FROM POLICY.POLICY
                    WHERE POLICY_NO = :WS-POLICY-NO
               END-EXEC
               IF SQLCODE NOT = 0
                   PERFORM 9000-UNEXPECTED-SQL
               END-IF
               EXEC SQL
                   UPDATE POLICY.POLICY
                      SET SUM_INSURED = :WS-SUM-INSURED
                    WHERE POLICY_NO = :WS-POLICY-NO
               END-EXEC
               PERFORM 5000-PRICE-POLICY
           END-IF.

       4000-DELETE-POLICY.
           MOVE PC-KEY-POLICY-NO TO WS-POLICY-NO
           EXEC SQL
               DELETE FROM POLICY.POLICY
                WHERE POLICY_NO = :WS-POLICY-NO
           END-EXEC
           IF SQLCODE NOT = 0 AND SQLCODE NOT = 100
               PERFORM 9000-UNEXPECTED-SQL
           END-IF.

       5000-PRICE-POLICY.
           EXEC SQL
               SELECT RATE INTO :WS-RATE
                 FROM POLICY.PRODUCT
                WHERE PRODUCT = :WS-PRODUCT
           END-EXEC
           EVALUATE SQLCODE
               WHEN 0
                   COMPUTE WS-PREMIUM ROUNDED
                         = WS-SUM-INSURED * WS-RATE
               WHEN 100
                   EXEC CICS ABEND ABCODE('PRAT') END-EXEC
               WHEN OTHER
                   PERFORM 9000-UNEXPECTED-SQL
           END-EVALUATE
           EXEC SQL
               UPDATE POLICY.POLICY
                  SET PREMIUM = :WS-PREMIUM
                WHERE POLICY_NO = :WS-POLICY-NO
           END-EXEC
           IF SQLCODE NOT = 0
               PERFORM 9000-UNEXPECTED-SQL
           END-IF.

       9000-UNEXPECTED-SQL.
           MOVE SQLCODE TO WS-SQLCODE
           MOVE SPACES TO PC-MESSAGE
           STRING 'SQLCODE ' WS-SQLCODE DELIMITED BY SIZE
               INTO PC-MESSAGE
           EXEC CICS ABEND ABCODE('PSQL') END-EXEC.
