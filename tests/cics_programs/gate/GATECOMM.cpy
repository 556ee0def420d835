      *================================================================*
      * GATECOMM - COMMAREA OF TASKGATE                                *
      *================================================================*
       01  DFHCOMMAREA.
           05  GT-REQUEST              PIC X(3).
               88  GT-REQ-HOLD                   VALUE 'HLD'.
               88  GT-REQ-NUMBER                 VALUE 'NUM'.
               88  GT-REQ-PUT                    VALUE 'PUT'.
           05  GT-DIR                  PIC X(150).
           05  GT-TASKN                PIC 9(7).
           05  GT-RESP                 PIC 9(4).
