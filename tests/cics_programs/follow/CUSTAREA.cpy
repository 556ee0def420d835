      * The customer service's COMMAREA: a request, its return code
      * and the customer record it reads or adds.
           05  CA-REQUEST-ID             PIC X(6).
           05  CA-RETURN-CODE            PIC 9(2).
           05  CA-CUSTOMER-NUM           PIC 9(10).
           05  CA-CUSTOMER.
               10  CA-FIRST-NAME         PIC X(10).
               10  CA-LAST-NAME          PIC X(20).
               10  CA-BALANCE            PIC S9(7)V99 COMP-3.
           05  CA-LASTCHANGED            PIC X(26).
