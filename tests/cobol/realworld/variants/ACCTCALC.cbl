       IDENTIFICATION DIVISION.
       PROGRAM-ID. ACCTCALC.
      *================================================================*
      * ACCTCALC - DEPOSIT CALCULATOR OF THE BRANCH SYSTEM             *
      *   SIMINT: SIMPLE INTEREST ON A DEPOSIT OVER WHOLE YEARS.       *
      *   CONVRT: A EURO AMOUNT IN USD, GBP OR CHF AT THE DAY'S RATE.  *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RATES.
           05  WS-RATE-ENTRY OCCURS 3 TIMES INDEXED BY WS-IX.
               10  WS-RATE-CCY         PIC X(3).
               10  WS-RATE-VALUE       PIC 9V9(4).
       01  WS-RATE-TABLE REDEFINES WS-RATES.
           05  FILLER                  PIC X(24).
       LINKAGE SECTION.
           COPY ACCTCOMM.
       PROCEDURE DIVISION USING ACCT-COMMAREA.
       0000-MAIN.
           MOVE 'USD10850GBP08420CHF09370' TO WS-RATE-TABLE
           MOVE 0 TO AC-RETURN-CODE
           MOVE SPACES TO AC-MESSAGE
           EVALUATE TRUE
               WHEN AC-REQ-INTEREST
                   PERFORM 1000-INTEREST
               WHEN AC-REQ-CONVERT
                   PERFORM 2000-CONVERT
               WHEN OTHER
                   MOVE 12 TO AC-RETURN-CODE
                   MOVE 'UNKNOWN REQUEST TYPE' TO AC-MESSAGE
           END-EVALUATE
           GOBACK.

       1000-INTEREST.
           IF AC-INT-YEARS = 0
               MOVE 12 TO AC-RETURN-CODE
               MOVE 'YEARS MUST BE 1 TO 99' TO AC-MESSAGE
           ELSE
               COMPUTE AC-INT-AMOUNT ROUNDED =
                   AC-INT-PRINCIPAL * AC-INT-RATE * AC-INT-YEARS / 100
           END-IF.

       2000-CONVERT.
           SET WS-IX TO 1
           SEARCH WS-RATE-ENTRY
               AT END
                   MOVE 12 TO AC-RETURN-CODE
                   MOVE 'UNKNOWN CURRENCY' TO AC-MESSAGE
               WHEN WS-RATE-CCY (WS-IX) = AC-CNV-CURRENCY
                   COMPUTE AC-CNV-RESULT ROUNDED =
                       AC-CNV-AMOUNT * WS-RATE-VALUE (WS-IX)
           END-SEARCH.
