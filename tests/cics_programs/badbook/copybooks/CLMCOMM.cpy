      *----------------------------------------------------------------*
      * CLMCOMM - THE CLAIMS SERVICE'S COMMAREA                        *
      *----------------------------------------------------------------*
           03  CL-CLAIM-NUM            PIC 9(10).
           03  CL-RETURN-CODE          PIC 9(2).
           03  CL-AMOUNT               PIC S9(7)V99 PACKED-DECIMEL.
           03  CL-STATUS               PIC X.
