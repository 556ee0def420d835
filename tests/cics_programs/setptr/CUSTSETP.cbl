       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTSETP.
      *================================================================*
      * CUSTSETP - CUSTOMER DATA IN STORAGE CICS OWNS: THE SET(ADDRESS *
      *   OF ...) FORMS OF READ, READNEXT/READPREV, READQ TS AND GET   *
      *   CONTAINER. THE RECORDS ARE MAPPED IN LINKAGE; NOTHING IS     *
      *   COPIED INTO WORKING-STORAGE BEFORE IT IS USED.               *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-REC-LEN                  PIC S9(4)  COMP VALUE 0.
       01  WS-ITEM-LEN                 PIC S9(4)  COMP VALUE 0.
       01  WS-CON-LEN                  PIC S9(8)  COMP VALUE 0.
       01  WS-KEY                      PIC 9(8).
       01  WS-QUEUE                    PIC X(8)   VALUE 'SETPTRQ'.
       01  WS-ITEM                     PIC S9(4)  COMP.
       01  WS-NOTE-1                   PIC X(24)
           VALUE 'FIRST NOTE OF THE QUEUE'.
       01  WS-NOTE-2                   PIC X(40)
           VALUE 'SECOND NOTE, A LONGER ONE, FORTY BYTES.'.
       01  WS-CON-DATA.
           05  FILLER                  PIC X(16)
               VALUE 'CONTAINER DATA: '.
           05  WS-CON-KEY              PIC 9(8).
       LINKAGE SECTION.
           COPY SETCOMM.
           COPY CUSTREC.
       01  LS-NOTE                     PIC X(40).
       01  LS-CON-DATA                 PIC X(40).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO SC-RESP SC-LENGTH SC-COUNT SC-LENGTH-2
           EVALUATE TRUE
               WHEN SC-REQ-INQUIRE
                   PERFORM 1000-INQUIRE
               WHEN SC-REQ-BROWSE
                   PERFORM 2000-BROWSE
               WHEN SC-REQ-TSQUEUE
                   PERFORM 3000-TSQUEUE
               WHEN SC-REQ-CONTAINER
                   PERFORM 4000-CONTAINER
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

      *----------------------------------------------------------------*
      * READ SET: THE RECORD'S FIELDS STRAIGHT FROM CICS'S STORAGE,    *
      * THEN A KEY THAT IS NOT THERE: THE POINTER IS LEFT AS IT WAS.   *
      *----------------------------------------------------------------*
       1000-INQUIRE.
           MOVE SC-KEY TO WS-KEY
           PERFORM 1100-READ-CUSTOMER
           MOVE WS-RESP TO SC-RESP
           IF WS-RESP = DFHRESP(NORMAL)
               MOVE WS-REC-LEN      TO SC-LENGTH
               MOVE CR-CUST-NAME    TO SC-NAME
               MOVE CR-CUST-CITY    TO SC-CITY
               MOVE CR-CUST-BALANCE TO SC-BALANCE
           END-IF
           SET ADDRESS OF CUSTOMER-RECORD TO NULL
           MOVE 99999999 TO WS-KEY
           PERFORM 1100-READ-CUSTOMER
           IF WS-RESP = DFHRESP(NOTFND)
              AND ADDRESS OF CUSTOMER-RECORD = NULL
               MOVE 'Y' TO SC-NULL-KEPT
           ELSE
               MOVE 'N' TO SC-NULL-KEPT
           END-IF.

       1100-READ-CUSTOMER.
           EXEC CICS READ FILE('CUSTFILE')
                     SET(ADDRESS OF CUSTOMER-RECORD)
                     RIDFLD(WS-KEY)
                     LENGTH(WS-REC-LEN)
                     RESP(WS-RESP)
           END-EXEC.

      *----------------------------------------------------------------*
      * A BROWSE BY POINTER: UP TO FIVE IDS, THEN BACK FROM KEY 30     *
      *----------------------------------------------------------------*
       2000-BROWSE.
           MOVE SC-KEY TO WS-KEY
           EXEC CICS STARTBR FILE('CUSTFILE') RIDFLD(WS-KEY) GTEQ
                     RESP(WS-RESP)
           END-EXEC
           PERFORM UNTIL WS-RESP NOT = DFHRESP(NORMAL)
                      OR SC-COUNT = 5
               EXEC CICS READNEXT FILE('CUSTFILE')
                         SET(ADDRESS OF CUSTOMER-RECORD)
                         RIDFLD(WS-KEY)
                         LENGTH(WS-REC-LEN)
                         RESP(WS-RESP)
               END-EXEC
               IF WS-RESP = DFHRESP(NORMAL)
                   ADD 1 TO SC-COUNT
                   MOVE CR-CUST-ID TO SC-IDS(SC-COUNT)
                   MOVE WS-REC-LEN TO SC-LENGTH
               END-IF
           END-PERFORM
           MOVE WS-RESP TO SC-RESP
           MOVE 30 TO WS-KEY
           EXEC CICS RESETBR FILE('CUSTFILE') RIDFLD(WS-KEY) EQUAL
           END-EXEC
           EXEC CICS READPREV FILE('CUSTFILE')
                     SET(ADDRESS OF CUSTOMER-RECORD)
                     RIDFLD(WS-KEY)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               MOVE CR-CUST-ID TO SC-PREV-ID
           END-IF
           EXEC CICS ENDBR FILE('CUSTFILE') END-EXEC.

      *----------------------------------------------------------------*
      * TS QUEUE ITEMS BY POINTER: ITEM 1, THEN THE NEXT ONE           *
      *----------------------------------------------------------------*
       3000-TSQUEUE.
           EXEC CICS DELETEQ TS QUEUE(WS-QUEUE) RESP(WS-RESP) END-EXEC
           EXEC CICS WRITEQ TS QUEUE(WS-QUEUE) FROM(WS-NOTE-1)
                     ITEM(WS-ITEM)
           END-EXEC
           EXEC CICS WRITEQ TS QUEUE(WS-QUEUE) FROM(WS-NOTE-2)
                     ITEM(WS-ITEM)
           END-EXEC
           MOVE 1 TO WS-ITEM
           EXEC CICS READQ TS QUEUE(WS-QUEUE)
                     SET(ADDRESS OF LS-NOTE)
                     LENGTH(WS-ITEM-LEN)
                     ITEM(WS-ITEM)
           END-EXEC
           MOVE WS-ITEM-LEN TO SC-LENGTH
           MOVE LS-NOTE(1:WS-ITEM-LEN) TO SC-TEXT-1
           EXEC CICS READQ TS QUEUE(WS-QUEUE)
                     SET(ADDRESS OF LS-NOTE)
                     LENGTH(WS-ITEM-LEN)
                     NEXT
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO SC-RESP
           MOVE WS-ITEM-LEN TO SC-LENGTH-2
           MOVE LS-NOTE(1:WS-ITEM-LEN) TO SC-TEXT-2
      *    THE ITEM'S STORAGE IS CICS'S, NOT THE TASK'S TO FREEMAIN
           EXEC CICS FREEMAIN DATA(LS-NOTE) RESP(WS-RESP) END-EXEC
           MOVE WS-RESP TO SC-FREE-RESP
           EXEC CICS DELETEQ TS QUEUE(WS-QUEUE) END-EXEC.

      *----------------------------------------------------------------*
      * A CONTAINER BY POINTER: PUT, GET SET; PUT AGAIN, GET SET AGAIN *
      *----------------------------------------------------------------*
       4000-CONTAINER.
           MOVE SC-KEY TO WS-CON-KEY
           EXEC CICS PUT CONTAINER('CUSTDATA') CHANNEL('SETCHAN')
                     FROM(WS-CON-DATA)
           END-EXEC
           EXEC CICS GET CONTAINER('CUSTDATA') CHANNEL('SETCHAN')
                     SET(ADDRESS OF LS-CON-DATA)
                     FLENGTH(WS-CON-LEN)
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO SC-RESP
           MOVE WS-CON-LEN TO SC-LENGTH
           MOVE LS-CON-DATA(1:WS-CON-LEN) TO SC-TEXT-1
           EXEC CICS PUT CONTAINER('CUSTDATA') CHANNEL('SETCHAN')
                     FROM(WS-NOTE-1)
           END-EXEC
           EXEC CICS GET CONTAINER('CUSTDATA') CHANNEL('SETCHAN')
                     SET(ADDRESS OF LS-CON-DATA)
                     FLENGTH(WS-CON-LEN)
           END-EXEC
           MOVE WS-CON-LEN TO SC-LENGTH-2
           MOVE LS-CON-DATA(1:WS-CON-LEN) TO SC-TEXT-2.
