      *================================================================*
      * ASYNCOMM - COMMAREA OF ASYNCPAR (CHILD TASKS)                  *
      *================================================================*
       01  DFHCOMMAREA.
           05  AP-REQUEST              PIC X(3).
               88  AP-REQ-RUN                    VALUE 'RUN'.
               88  AP-REQ-RUN-ABEND              VALUE 'ABD'.
               88  AP-REQ-PARENT-ABEND           VALUE 'PAB'.
               88  AP-REQ-ERRORS                 VALUE 'ERR'.
           05  AP-KEY                  PIC 9(4).
           05  AP-RESP                 PIC 9(4).
           05  AP-RESP2                PIC 9(4).
           05  AP-STATUS               PIC X(1).
           05  AP-ABCODE               PIC X(4).
           05  AP-REPLY                PIC X(16).
           05  AP-AGAIN                PIC 9(4).
           05  AP-AGAIN2               PIC 9(4).
