      *================================================================*
      * ERRLOGCA - COMMAREA OF THE ERROR LOGGER ERRLOG (52 BYTES)      *
      *================================================================*
           05  EL-PROGRAM              PIC X(8).
           05  EL-CODE                 PIC 9(4).
           05  EL-TEXT                 PIC X(40).
