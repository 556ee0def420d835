      *================================================================*
      * SETCOMM - COMMAREA OF CUSTSETP: CICS DATA BY POINTER (SET)     *
      *   SC-REQUEST: INQ  READ ONE CUSTOMER, THEN A MISSING ONE       *
      *               BRW  BROWSE FROM SC-KEY WITH READNEXT, THEN      *
      *                    READPREV ONCE                               *
      *               TSQ  TWO ITEMS ON A TS QUEUE, READ BACK BY SET   *
      *               CON  A CONTAINER PUT, THEN GOT BY SET, TWICE     *
      *================================================================*
       01  DFHCOMMAREA.
           05  SC-REQUEST              PIC X(3).
               88  SC-REQ-INQUIRE               VALUE 'INQ'.
               88  SC-REQ-BROWSE                VALUE 'BRW'.
               88  SC-REQ-TSQUEUE               VALUE 'TSQ'.
               88  SC-REQ-CONTAINER             VALUE 'CON'.
           05  SC-KEY                  PIC 9(8).
           05  SC-RESP                 PIC S9(8)  COMP.
           05  SC-LENGTH               PIC S9(8)  COMP.
           05  SC-NAME                 PIC X(30).
           05  SC-CITY                 PIC X(20).
           05  SC-BALANCE              PIC S9(7)V99.
           05  SC-NULL-KEPT            PIC X.
           05  SC-COUNT                PIC S9(4)  COMP.
           05  SC-IDS                  PIC 9(8)   OCCURS 5 TIMES.
           05  SC-PREV-ID              PIC 9(8).
           05  SC-TEXT-1               PIC X(40).
           05  SC-TEXT-2               PIC X(40).
           05  SC-LENGTH-2             PIC S9(8)  COMP.
           05  SC-FREE-RESP            PIC S9(8)  COMP.
