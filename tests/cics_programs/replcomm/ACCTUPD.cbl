       IDENTIFICATION DIVISION.
       PROGRAM-ID. ACCTUPD.
      *================================================================*
      * ACCTUPD - ADD AN AMOUNT TO AN ACCOUNT'S BALANCE; A BALANCE     *
      *   THAT WOULD GO BELOW ZERO IS REFUSED (RETURN CODE 8).         *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-NEW-BALANCE              PIC S9(9)V99 COMP-3.
       LINKAGE SECTION.
           COPY ACCTCA REPLACING ==ACCT-COMMAREA== BY ==DFHCOMMAREA==.
       PROCEDURE DIVISION.
       0000-MAIN.
           COMPUTE WS-NEW-BALANCE = AC-BALANCE + AC-AMOUNT
           IF WS-NEW-BALANCE < ZERO
               MOVE 8 TO AC-RETURN-CODE
           ELSE
               MOVE WS-NEW-BALANCE TO AC-BALANCE
               MOVE 0 TO AC-RETURN-CODE
           END-IF
           EXEC CICS RETURN END-EXEC.
