      *----------------------------------------------------------------*
      * FLCOMM - FROMLEN'S COMMAREA: THE CUSTOMER RECORD FIRST (ITS    *
      *   KEY, THEN ITS FIELDS), THEN WHAT EACH STEP ANSWERED          *
      *----------------------------------------------------------------*
           05  FL-CUSTOMER.
               10  FL-CUST-ID          PIC X(6).
               10  FL-CUST-NAME        PIC X(20).
               10  FL-CUST-CITY        PIC X(14).
           05  FL-WRITE-RESP           PIC S9(8)  COMP.
           05  FL-WRITE-RESP2          PIC S9(8)  COMP.
           05  FL-READ-DATA            PIC X(40).
           05  FL-REWRITE-RESP         PIC S9(8)  COMP.
           05  FL-REWRITE-RESP2        PIC S9(8)  COMP.
           05  FL-REREAD-DATA          PIC X(40).
           05  FL-TS-RESP              PIC S9(8)  COMP.
           05  FL-TS-LEN               PIC S9(4)  COMP.
           05  FL-TS-DATA              PIC X(40).
