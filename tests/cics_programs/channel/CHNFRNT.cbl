       IDENTIFICATION DIVISION.
       PROGRAM-ID. CHNFRNT.
      *================================================================*
      * CHNFRNT - FRONT END OF THE CUSTOMER CHANNEL SERVICE            *
      *   GETS THE REQUEST CONTAINER OF ITS CURRENT CHANNEL, CHECKS    *
      *   IT, AND LINKS TO CHNBACK WITH THAT CHANNEL, WHICH PUTS THE   *
      *   RESPONSE CONTAINER. A REFUSED REQUEST PUTS THE ERRORS        *
      *   CONTAINER INSTEAD. PROB: THE CHANNEL COMMANDS' CONDITIONS,   *
      *   REPORTED IN THE PROBE CONTAINER. ABND: AN UNHANDLED          *
      *   CONTAINERERR ABENDS THE TASK. XINQ: XCTL TO CHNBACK WITH THE *
      *   CHANNEL INSTEAD OF A LINK.                                   *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-FLENGTH                  PIC S9(8)  COMP.
       01  WS-TOKEN                    PIC S9(8)  COMP.
       01  WS-CHANNEL                  PIC X(16).
       01  WS-CONTAINER                PIC X(16).
       01  WS-SHORT                    PIC X(10).
       01  WS-LONG                     PIC X(42)
               VALUE 'ABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789+-*/=.'.
       01  WS-MOVED                    PIC X(42).
       01  WS-WORD                     PIC X(8)   VALUE 'KEEPME'.
       01  WS-NAMES-PTR                PIC S9(4)  COMP.
       01  WS-ERRORS.
           COPY CHNERR.
           COPY CHNREQ.
           COPY CHNRSP.
           COPY CHNPRB.
       01  WS-COMMAREA.
           05  CA-FUNCTION             PIC X(4).
           05  CA-RESP                 PIC 9(4).
           05  CA-RESP2                PIC 9(4).
           05  CA-CHANNEL              PIC X(16).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASSIGN CHANNEL(WS-CHANNEL) END-EXEC
           EXEC CICS GET CONTAINER('REQUEST')
                     INTO(CUST-REQUEST)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE 'NOREQ' TO ER-CODE
               MOVE 'THE REQUEST CONTAINER IS MISSING' TO ER-TEXT
               PERFORM 9000-REFUSE
           END-IF
           EVALUATE TRUE
               WHEN RQ-XCTL
      *            THE BACK END ANSWERS; THIS PROGRAM DOES NOT RESUME
                   EXEC CICS XCTL PROGRAM('CHNBACK')
                             CHANNEL(WS-CHANNEL)
                   END-EXEC
                   MOVE 'RESUMED' TO ER-CODE
                   PERFORM 9000-REFUSE
               WHEN RQ-INQUIRE OR RQ-ADD
                   IF RQ-CUST-ID NOT NUMERIC OR RQ-CUST-ID = ZERO
                       MOVE 'BADID' TO ER-CODE
                       MOVE 'THE CUSTOMER NUMBER MUST BE 1-99999999'
                         TO ER-TEXT
                       PERFORM 9000-REFUSE
                   END-IF
                   EXEC CICS LINK PROGRAM('CHNBACK')
                             CHANNEL(WS-CHANNEL)
                   END-EXEC
               WHEN RQ-PROBE
                   PERFORM 2000-PROBE
                   EXEC CICS PUT CONTAINER('PROBE')
                             FROM(CHAN-PROBE)
                   END-EXEC
               WHEN RQ-ABEND
      *            NO RESP, NO HANDLE CONDITION: THE TASK ABENDS
                   EXEC CICS GET CONTAINER('NOSUCH')
                             INTO(WS-SHORT)
                   END-EXEC
               WHEN OTHER
                   MOVE 'BADTYPE' TO ER-CODE
                   MOVE 'THE REQUEST TYPE MUST BE INQ, ADD OR PROB'
                     TO ER-TEXT
                   PERFORM 9000-REFUSE
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       2000-PROBE.
           MOVE WS-CHANNEL TO PB-CHANNEL
      *    A CONTAINER THE CHANNEL DOES NOT HAVE
           EXEC CICS GET CONTAINER('NOSUCH')
                     INTO(WS-SHORT)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO PB-MISSING-RESP
           MOVE WS-RESP2 TO PB-MISSING-RESP2
      *    42 BYTES INTO 10: LENGERR, FLENGTH THE CONTAINER'S LENGTH
           EXEC CICS PUT CONTAINER('LONG') CHANNEL('WORKCHAN')
                     FROM(WS-LONG) BIT
           END-EXEC
           MOVE LENGTH OF WS-SHORT TO WS-FLENGTH
           EXEC CICS GET CONTAINER('LONG') CHANNEL('WORKCHAN')
                     INTO(WS-SHORT) FLENGTH(WS-FLENGTH)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO PB-SHORT-RESP
           MOVE WS-RESP2 TO PB-SHORT-RESP2
           MOVE WS-FLENGTH TO PB-SHORT-LENGTH
           MOVE WS-SHORT TO PB-SHORT-DATA
      *    A CHANNEL THE PROGRAM DOES NOT HAVE, A NAME CICS REFUSES
           EXEC CICS GET CONTAINER('LONG') CHANNEL('NOSUCHCHAN')
                     INTO(WS-SHORT)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO PB-NOCHAN-RESP
           MOVE WS-RESP2 TO PB-NOCHAN-RESP2
           EXEC CICS PUT CONTAINER('LONG') CHANNEL('BAD NAME')
                     FROM(WS-LONG)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO PB-BADNAME-RESP
           MOVE WS-RESP2 TO PB-BADNAME-RESP2
      *    MOVE TO ANOTHER CHANNEL: GONE FROM THE FIRST
           EXEC CICS MOVE CONTAINER('LONG') AS('MOVED')
                     CHANNEL('WORKCHAN') TOCHANNEL('OTHERCHAN')
           END-EXEC
           EXEC CICS GET CONTAINER('MOVED') CHANNEL('OTHERCHAN')
                     INTO(WS-MOVED)
           END-EXEC
           MOVE WS-MOVED TO PB-MOVED-DATA
           EXEC CICS GET CONTAINER('LONG') CHANNEL('WORKCHAN')
                     NODATA FLENGTH(WS-FLENGTH)
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO PB-MOVED-FROM-RESP
           PERFORM 2100-BROWSE
           PERFORM 2200-LINKS
      *    CONTAINERS ARE NOT RECOVERABLE: A ROLLBACK KEEPS THEM
           EXEC CICS PUT CONTAINER('KEPT') CHANNEL('WORKCHAN')
                     FROM(WS-WORD) FLENGTH(6) CHAR
           END-EXEC
           EXEC CICS SYNCPOINT ROLLBACK END-EXEC
           EXEC CICS GET CONTAINER('KEPT') CHANNEL('WORKCHAN')
                     NODATA FLENGTH(WS-FLENGTH)
           END-EXEC
           MOVE WS-FLENGTH TO PB-KEPT-LENGTH.

       2100-BROWSE.
           EXEC CICS PUT CONTAINER('ALPHA') CHANNEL('WORKCHAN')
                     FROM(WS-WORD)
           END-EXEC
           EXEC CICS PUT CONTAINER('BETA') CHANNEL('WORKCHAN')
                     FROM(WS-WORD)
           END-EXEC
           EXEC CICS PUT CONTAINER('GAMMA') CHANNEL('WORKCHAN')
                     FROM(WS-WORD)
           END-EXEC
           EXEC CICS DELETE CONTAINER('BETA') CHANNEL('WORKCHAN')
           END-EXEC
           EXEC CICS STARTBROWSE CONTAINER CHANNEL('WORKCHAN')
                     BROWSETOKEN(WS-TOKEN)
           END-EXEC
           MOVE 0 TO PB-BROWSE-COUNT
           MOVE 1 TO WS-NAMES-PTR
           MOVE SPACES TO PB-BROWSE-NAMES
           MOVE DFHRESP(NORMAL) TO WS-RESP
           PERFORM UNTIL WS-RESP NOT = DFHRESP(NORMAL)
               EXEC CICS GETNEXT CONTAINER(WS-CONTAINER)
                         BROWSETOKEN(WS-TOKEN)
                         RESP(WS-RESP)
               END-EXEC
               IF WS-RESP = DFHRESP(NORMAL)
                   ADD 1 TO PB-BROWSE-COUNT
                   STRING WS-CONTAINER DELIMITED BY SPACE
                          ' ' DELIMITED BY SIZE
                     INTO PB-BROWSE-NAMES
                     WITH POINTER WS-NAMES-PTR
                   END-STRING
               END-IF
           END-PERFORM
           MOVE WS-RESP TO PB-BROWSE-END-RESP
           EXEC CICS ENDBROWSE CONTAINER BROWSETOKEN(WS-TOKEN)
           END-EXEC.

       2200-LINKS.
      *    A CHANNEL NOT THERE YET: CHNBACK GETS IT EMPTY
           EXEC CICS LINK PROGRAM('CHNBACK') CHANNEL('EMPTYCHAN')
           END-EXEC
           EXEC CICS GET CONTAINER('RESPONSE') CHANNEL('EMPTYCHAN')
                     INTO(CUST-RESPONSE)
           END-EXEC
           MOVE RS-CHANNEL TO PB-BACK-CHANNEL
           MOVE RS-RETURN-CODE TO PB-BACK-RETURN-CODE
      *    THE CHANNEL CHNBACK MADE WENT WHEN IT RETURNED
           EXEC CICS GET CONTAINER('SCRATCH') CHANNEL('BACKCHAN')
                     INTO(WS-SHORT)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO PB-GONE-RESP
           MOVE WS-RESP2 TO PB-GONE-RESP2
      *    LINKED WITH A COMMAREA: NO CURRENT CHANNEL THERE
           MOVE 'NONE' TO CA-FUNCTION
           EXEC CICS LINK PROGRAM('CHNBACK') COMMAREA(WS-COMMAREA)
           END-EXEC
           MOVE CA-RESP TO PB-NONE-RESP
           MOVE CA-RESP2 TO PB-NONE-RESP2
           MOVE CA-CHANNEL TO PB-NONE-CHANNEL.

       9000-REFUSE.
           EXEC CICS PUT CONTAINER('ERRORS')
                     FROM(WS-ERRORS)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
