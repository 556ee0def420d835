      *================================================================*
      * STRTCOMM - COMMAREA OF STRTREQ (STARTED TRANSACTIONS)          *
      *================================================================*
       01  DFHCOMMAREA.
           05  SR-REQUEST              PIC X(3).
               88  SR-REQ-START                  VALUE 'STR'.
               88  SR-REQ-START-LATER            VALUE 'LAT'.
               88  SR-REQ-START-ABEND            VALUE 'ABN'.
               88  SR-REQ-UNKNOWN                VALUE 'UNK'.
               88  SR-REQ-DISABLED               VALUE 'DIS'.
               88  SR-REQ-BAD-INTERVAL           VALUE 'BAD'.
               88  SR-REQ-RETRIEVE               VALUE 'RTV'.
           05  SR-KEY                  PIC 9(4).
           05  SR-RESP                 PIC 9(4).
           05  SR-RESP2                PIC 9(4).
