      *================================================================*
      * ACCTCOMM - COMMUNICATION AREA OF THE DEPOSIT CALCULATOR       *
      *   ONE AREA FOR EVERY REQUEST: THE REQUEST DATA IS LAID OUT BY  *
      *   REQUEST TYPE (AC-REQUEST-ID).                                *
      *================================================================*
       01  ACCT-COMMAREA.
           05  AC-REQUEST-ID           PIC X(6).
               88  AC-REQ-INTEREST               VALUE 'SIMINT'.
               88  AC-REQ-CONVERT                VALUE 'CONVRT'.
           05  AC-RETURN-CODE          PIC 9(2).
               88  AC-OK                         VALUE 0.
               88  AC-INVALID                    VALUE 12.
           05  AC-MESSAGE              PIC X(30).
           05  AC-REQUEST-DATA         PIC X(40).
           05  AC-INTEREST REDEFINES AC-REQUEST-DATA.
               10  AC-INT-PRINCIPAL    PIC 9(7)V99.
               10  AC-INT-RATE         PIC 9(2)V99.
               10  AC-INT-YEARS        PIC 9(2).
               10  AC-INT-AMOUNT       PIC 9(9)V99.
               10  FILLER              PIC X(14).
           05  AC-CONVERT REDEFINES AC-REQUEST-DATA.
               10  AC-CNV-AMOUNT       PIC 9(7)V99.
               10  AC-CNV-CURRENCY     PIC X(3).
               10  AC-CNV-RESULT       PIC 9(9)V99.
               10  FILLER              PIC X(17).
