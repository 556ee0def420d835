      *================================================================*
      * CUSTREC - RECORD OF THE CUSTOMER KSDS CUSTFILE (200 BYTES)     *
      *   KEY: CR-CUST-ID, 8 BYTES AT OFFSET 0                         *
      *================================================================*
       01  CUSTOMER-RECORD.
           05  CR-CUST-ID              PIC 9(8).
           05  CR-CUST-NAME            PIC X(30).
           05  CR-CUST-CITY            PIC X(20).
           05  CR-CUST-BALANCE         PIC S9(7)V99.
           05  CR-LAST-UPDATED         PIC X(10).
           05  FILLER                  PIC X(123).
