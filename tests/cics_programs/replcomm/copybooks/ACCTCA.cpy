      *----------------------------------------------------------------*
      * ACCTCA - THE ACCOUNT SERVICE'S COMMAREA. A CALLER COPIES IT AS *
      *   IT IS; THE SERVICE ITSELF NAMES IT DFHCOMMAREA WITH          *
      *   REPLACING ==ACCT-COMMAREA== BY ==DFHCOMMAREA==.              *
      *----------------------------------------------------------------*
       01  ACCT-COMMAREA.
           03  AC-ACCOUNT              PIC 9(8).
           03  AC-RETURN-CODE          PIC 9(2).
           03  AC-BALANCE              PIC S9(9)V99.
           03  AC-AMOUNT               PIC S9(7)V99.
