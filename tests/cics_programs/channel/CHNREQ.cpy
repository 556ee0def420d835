      *================================================================*
      * CHNREQ - REQUEST CONTAINER OF THE CUSTOMER CHANNEL SERVICE     *
      *================================================================*
       01  CUST-REQUEST.
           05  RQ-REQUEST-TYPE         PIC X(4).
               88  RQ-INQUIRE                     VALUE 'INQ ' 'XINQ'.
               88  RQ-XCTL                        VALUE 'XINQ'.
               88  RQ-ADD                         VALUE 'ADD '.
               88  RQ-PROBE                       VALUE 'PROB'.
               88  RQ-ABEND                       VALUE 'ABND'.
           05  RQ-CUST-ID              PIC 9(8).
           05  RQ-CUST-NAME            PIC X(30).
           05  RQ-CUST-CITY            PIC X(20).
