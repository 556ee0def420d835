      *================================================================*
      * POLCOMM - COMMAREA OF THE POLICY SERVICE (156 BYTES)           *
      *   THE FRONT END POLFRNT TAKES IT FROM THE CALLER AND PASSES IT *
      *   ON TO ITS BACK ENDS POLVSAM (POLICY FILE) AND POLDB2 (DB2).  *
      *   PC-REQUEST-DATA IS LAID OUT BY REQUEST TYPE:                 *
      *     ADDPOL, INQPOL  PC-POLICY                                  *
      *     UPDPOL          PC-CHANGE                                  *
      *     DELPOL          PC-KEY                                     *
      *================================================================*
       01  DFHCOMMAREA.
           05  PC-REQUEST-ID           PIC X(6).
               88  PC-REQ-ADD                    VALUE 'ADDPOL'.
               88  PC-REQ-INQUIRE                VALUE 'INQPOL'.
               88  PC-REQ-UPDATE                 VALUE 'UPDPOL'.
               88  PC-REQ-DELETE                 VALUE 'DELPOL'.
           05  PC-RETURN-CODE          PIC 9(2).
               88  PC-OK                         VALUE 0.
               88  PC-NOT-FOUND                  VALUE 4.
               88  PC-DUPLICATE                  VALUE 8.
               88  PC-INVALID                    VALUE 12.
           05  PC-RESP                 PIC 9(4).
           05  PC-MESSAGE              PIC X(40).
           05  PC-REQUEST-DATA         PIC X(100).
           05  PC-POLICY REDEFINES PC-REQUEST-DATA.
               10  PC-POLICY-NO        PIC 9(8).
               10  PC-HOLDER-NAME      PIC X(30).
               10  PC-PRODUCT          PIC X(3).
                   88  PC-PRODUCT-KNOWN          VALUES 'MTR' 'HOM'
                                                        'TRV'.
               10  PC-SUM-INSURED      PIC 9(7).
               10  PC-PREMIUM          PIC 9(5)V99.
               10  FILLER              PIC X(45).
           05  PC-CHANGE REDEFINES PC-REQUEST-DATA.
               10  PC-CHG-POLICY-NO    PIC 9(8).
               10  PC-CHG-HOLDER-NAME  PIC X(30).
               10  PC-CHG-SUM-INSURED  PIC 9(7).
               10  FILLER              PIC X(55).
           05  PC-KEY REDEFINES PC-REQUEST-DATA.
               10  PC-KEY-POLICY-NO    PIC 9(8).
               10  FILLER              PIC X(92).
