       IDENTIFICATION DIVISION.
       PROGRAM-ID. CLMCHK.
      *    Settles a claim against its policy: the amount payable is the
      *    claim less the excess, capped at the policy limit. A request
      *    that fails validation is rejected and logged.
       AUTHOR. CLAIMS SYSTEMS.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-LOG-LINE.
           05  WS-LOG-ID           PIC X(6).
           05  FILLER              PIC X VALUE SPACE.
           05  WS-LOG-TEXT         PIC X(30).
       LINKAGE SECTION.
       01  CL-CLAIM.
           05  CL-REQUEST-ID       PIC X(6).
           05  CL-RETURN-CODE      PIC 9(2).
           05  CL-CLAIM-AMOUNT     PIC 9(7)V99.
           05  CL-POLICY-LIMIT     PIC 9(7)V99.
           05  CL-EXCESS           PIC 9(5)V99.
           05  CL-PAYABLE          PIC 9(7)V99.
           05  CL-MESSAGE          PIC X(30).
       PROCEDURE DIVISION USING CL-CLAIM.
       0000-MAIN SECTION.
           MOVE '00' TO CL-RETURN-CODE
           MOVE SPACES TO CL-MESSAGE
           PERFORM 1000-VALIDATE THRU 1000-EXIT
           PERFORM 2000-SETTLE
           GOBACK.

       1000-VALIDATE.
           IF CL-REQUEST-ID NOT = 'CLMCHK'
               MOVE 'UNKNOWN REQUEST' TO CL-MESSAGE
               GO TO 9000-REJECT
           END-IF
           IF CL-CLAIM-AMOUNT = ZERO
               MOVE 'NOTHING CLAIMED' TO CL-MESSAGE
               GO TO 9000-REJECT
           END-IF.
       1000-EXIT.
           EXIT.

       2000-SETTLE.
           IF CL-CLAIM-AMOUNT > CL-EXCESS
               COMPUTE CL-PAYABLE = CL-CLAIM-AMOUNT - CL-EXCESS
           ELSE
               MOVE ZERO TO CL-PAYABLE
           END-IF
           IF CL-PAYABLE > CL-POLICY-LIMIT
               MOVE CL-POLICY-LIMIT TO CL-PAYABLE
           END-IF.

      * A rejected request never goes back to its validation: it is
      * logged and the program ends here.
       9000-REJECT.
           MOVE '98' TO CL-RETURN-CODE
           MOVE ZERO TO CL-PAYABLE
           PERFORM 9100-LOG-REJECT.
       9000-RETURN.
           GOBACK.

       9100-LOG-REJECT.
           MOVE CL-REQUEST-ID TO WS-LOG-ID
           MOVE CL-MESSAGE TO WS-LOG-TEXT
           DISPLAY WS-LOG-LINE UPON SYSERR.
