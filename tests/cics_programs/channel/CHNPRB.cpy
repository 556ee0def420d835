      *================================================================*
      * CHNPRB - PROBE CONTAINER: WHAT THE CHANNEL COMMANDS ANSWERED   *
      *================================================================*
       01  CHAN-PROBE.
           05  PB-CHANNEL              PIC X(16).
           05  PB-MISSING-RESP         PIC 9(4).
           05  PB-MISSING-RESP2        PIC 9(4).
           05  PB-SHORT-RESP           PIC 9(4).
           05  PB-SHORT-RESP2          PIC 9(4).
           05  PB-SHORT-LENGTH         PIC 9(4).
           05  PB-SHORT-DATA           PIC X(10).
           05  PB-NOCHAN-RESP          PIC 9(4).
           05  PB-NOCHAN-RESP2         PIC 9(4).
           05  PB-BADNAME-RESP         PIC 9(4).
           05  PB-BADNAME-RESP2        PIC 9(4).
           05  PB-MOVED-DATA           PIC X(20).
           05  PB-MOVED-FROM-RESP      PIC 9(4).
           05  PB-BROWSE-COUNT         PIC 9(4).
           05  PB-BROWSE-NAMES         PIC X(40).
           05  PB-BROWSE-END-RESP      PIC 9(4).
           05  PB-BACK-CHANNEL         PIC X(16).
           05  PB-BACK-RETURN-CODE     PIC 9(2).
           05  PB-GONE-RESP            PIC 9(4).
           05  PB-GONE-RESP2           PIC 9(4).
           05  PB-NONE-RESP            PIC 9(4).
           05  PB-NONE-RESP2           PIC 9(4).
           05  PB-NONE-CHANNEL         PIC X(16).
           05  PB-KEPT-LENGTH          PIC 9(4).
