      *================================================================*
      * CHNRSP - RESPONSE CONTAINER OF THE CUSTOMER CHANNEL SERVICE    *
      *   RETURN CODE: 0 OK, 4 NOT FOUND, 8 DUPLICATE, 12 NO REQUEST   *
      *================================================================*
       01  CUST-RESPONSE.
           05  RS-RETURN-CODE          PIC 9(2).
           05  RS-CUST-ID              PIC 9(8).
           05  RS-CUST-NAME            PIC X(30).
           05  RS-CUST-CITY            PIC X(20).
           05  RS-MESSAGE              PIC X(40).
           05  RS-CHANNEL              PIC X(16).
