      *================================================================*
      * CHNCOMM - COMMAREA OF CHNBACK WHEN LINKED WITHOUT A CHANNEL    *
      *================================================================*
       01  DFHCOMMAREA.
           05  CA-FUNCTION             PIC X(4).
           05  CA-RESP                 PIC 9(4).
           05  CA-RESP2                PIC 9(4).
           05  CA-CHANNEL              PIC X(16).
