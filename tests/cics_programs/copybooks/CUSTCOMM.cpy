      *================================================================*
      * CUSTCOMM - COMMAREA OF THE CUSTOMER SERVICE (202 BYTES)        *
      *   THE FRONT END CUSTFRNT TAKES IT FROM THE CALLER AND PASSES   *
      *   IT ON TO THE VSAM BACK END CUSTVSAM. THE REQUEST DATA IS     *
      *   LAID OUT BY REQUEST TYPE.                                    *
      *================================================================*
       01  DFHCOMMAREA.
           05  CA-REQUEST-ID           PIC X(6).
               88  CA-REQ-INQUIRE                VALUE 'INQCUS'.
               88  CA-REQ-ADD                    VALUE 'ADDCUS'.
               88  CA-REQ-UPDATE                 VALUE 'UPDCUS'.
               88  CA-REQ-DELETE                 VALUE 'DELCUS'.
               88  CA-REQ-BROWSE                 VALUE 'BRWCUS'.
           05  CA-RETURN-CODE          PIC 9(2).
               88  CA-OK                         VALUE 0.
               88  CA-NOT-FOUND                  VALUE 4.
               88  CA-DUPLICATE                  VALUE 8.
               88  CA-INVALID                    VALUE 12.
               88  CA-FAILED                     VALUE 16.
           05  CA-RESP                 PIC 9(4).
           05  CA-MESSAGE              PIC X(40).
           05  CA-REQUEST-DATA         PIC X(150).
           05  CA-CUSTOMER REDEFINES CA-REQUEST-DATA.
               10  CA-CUST-ID          PIC 9(8).
               10  CA-CUST-NAME        PIC X(30).
               10  CA-CUST-CITY        PIC X(20).
               10  CA-CUST-BALANCE     PIC S9(7)V99.
               10  FILLER              PIC X(83).
           05  CA-BROWSE REDEFINES CA-REQUEST-DATA.
               10  CA-BRW-START-ID     PIC 9(8).
               10  CA-BRW-COUNT        PIC 9(2).
               10  CA-BRW-IDS          PIC 9(8) OCCURS 10 TIMES.
               10  FILLER              PIC X(60).
