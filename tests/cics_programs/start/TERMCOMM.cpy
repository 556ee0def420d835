      *================================================================*
      * TERMCOMM - COMMAREA OF TERMINQ: A CUSTOMER NUMBER'S NAME       *
      *================================================================*
       01  DFHCOMMAREA.
           05  TC-REQUEST              PIC X(3).
               88  TC-REQ-INQUIRE                VALUE 'INQ'.
               88  TC-REQ-RECEIVE                VALUE 'RCV'.
               88  TC-REQ-SEND                   VALUE 'SND'.
               88  TC-REQ-HANDLED                VALUE 'HND'.
               88  TC-REQ-LOG                    VALUE 'LOG'.
           05  TC-CUSTOMER             PIC 9(6).
           05  TC-NAME                 PIC X(20).
           05  TC-RESP                 PIC 9(4).
           05  TC-LENGTH               PIC 9(4).
