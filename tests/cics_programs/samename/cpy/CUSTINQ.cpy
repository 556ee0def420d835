      *----------------------------------------------------------------*
      * CUSTINQ - COMMAREA OF THE CUSTOMER INQUIRY (PROGRAM CUSTINQ)   *
      *----------------------------------------------------------------*
           03  CI-REQUEST-ID           PIC X(6).
           03  CI-RETURN-CODE          PIC 9(2).
           03  CI-CUSTOMER-NUM         PIC 9(10).
           03  CI-CUSTOMER-NAME        PIC X(30).
           03  CI-POSTCODE             PIC X(8).
