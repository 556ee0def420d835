       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTMISC.
      *================================================================*
      * CUSTMISC - HOUSEKEEPING REQUESTS OF THE CUSTOMER SERVICE       *
      *   TSQ: NOTE THE KEY ON THE TS QUEUE CUSTNOTE (ITEM NUMBER BACK)*
      *   CTR: NEXT NUMBER FROM COUNTER CUSTNUM, DEFINED ON FIRST USE  *
      *   BRW: UP TO 5 CUSTOMER NUMBERS FROM THE KEY ON (BROWSE)       *
      *   ABN: WRITE A CUSTOMER, THEN ABEND (NOTHING MAY BE LEFT)      *
      *   NFD: READ WITHOUT RESP OR HANDLE (NOTFND ABENDS THE TASK)    *
      *   IGN: THE SAME READ UNDER IGNORE CONDITION NOTFND             *
      *   SYN: WRITE A CUSTOMER, SYNCPOINT, THEN ABEND (IT IS KEPT)    *
      *   HAB: WRITE A CUSTOMER, THEN NOTFND UNDER HANDLE ABEND: THE   *
      *        EXIT NAMES THE ABEND AND RETURNS (THE WRITE IS KEPT)    *
      *   EIB: COMMAREA LENGTH, TASK NUMBER, TODAY (FORMATTIME, EIB)   *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-ITEM-NO                  PIC S9(4)  COMP.
       01  WS-VALUE                    PIC S9(8)  COMP.
       01  WS-KEY                      PIC 9(8).
       01  WS-ABSTIME                  PIC S9(15) COMP-3.
       01  WS-TODAY                    PIC X(8).
       01  WS-ABCODE                   PIC X(4).
       01  WS-NOTE.
           05  WS-NOTE-TEXT            PIC X(8)   VALUE 'NOTED   '.
           05  WS-NOTE-KEY             PIC 9(8).
           COPY CUSTREC.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  MC-REQUEST              PIC X(3).
               88  MC-REQ-NOTE                   VALUE 'TSQ'.
               88  MC-REQ-COUNTER                VALUE 'CTR'.
               88  MC-REQ-BROWSE                 VALUE 'BRW'.
               88  MC-REQ-ABEND                  VALUE 'ABN'.
               88  MC-REQ-NOTFND                 VALUE 'NFD'.
               88  MC-REQ-IGNORE                 VALUE 'IGN'.
               88  MC-REQ-EIB                    VALUE 'EIB'.
               88  MC-REQ-SYNCPOINT              VALUE 'SYN'.
               88  MC-REQ-ABEND-EXIT             VALUE 'HAB'.
           05  MC-KEY                  PIC 9(8).
           05  MC-RESP                 PIC 9(4).
           05  MC-COUNT                PIC 9(4).
           05  MC-VALUE                PIC 9(8).
           05  MC-IDS                  PIC 9(8) OCCURS 5 TIMES.
           05  MC-ABCODE               PIC X(4).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO MC-RESP MC-COUNT MC-VALUE
           EVALUATE TRUE
               WHEN MC-REQ-NOTE
                   PERFORM 1000-NOTE
               WHEN MC-REQ-COUNTER
                   PERFORM 2000-COUNTER
               WHEN MC-REQ-BROWSE
                   PERFORM 3000-BROWSE
               WHEN MC-REQ-ABEND
                   PERFORM 4000-ADD-THEN-ABEND
               WHEN MC-REQ-NOTFND
                   PERFORM 5000-READ-UNGUARDED
               WHEN MC-REQ-IGNORE
                   EXEC CICS IGNORE CONDITION NOTFND END-EXEC
                   PERFORM 5000-READ-UNGUARDED
                   MOVE EIBRESP TO MC-RESP
               WHEN MC-REQ-EIB
                   PERFORM 6000-EIB
               WHEN MC-REQ-SYNCPOINT
                   PERFORM 7000-ADD-SYNC-ABEND
               WHEN MC-REQ-ABEND-EXIT
                   EXEC CICS HANDLE ABEND LABEL(8000-ABEND-EXIT)
                   END-EXEC
                   MOVE 'HANDLED' TO CR-CUST-NAME
                   MOVE MC-KEY TO CR-CUST-ID
                   EXEC CICS WRITE FILE('CUSTFILE')
                             FROM(CUSTOMER-RECORD)
                             RIDFLD(CR-CUST-ID)
                   END-EXEC
                   ADD 1 TO MC-KEY
                   PERFORM 5000-READ-UNGUARDED
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-NOTE.
           MOVE MC-KEY TO WS-NOTE-KEY
           EXEC CICS WRITEQ TS QUEUE('CUSTNOTE') FROM(WS-NOTE)
                     ITEM(WS-ITEM-NO) RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO MC-RESP
           MOVE WS-ITEM-NO TO MC-COUNT.

       2000-COUNTER.
           EXEC CICS GET COUNTER('CUSTNUM') VALUE(WS-VALUE)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO MC-RESP
      *    A COUNTER NOT DEFINED YET: INVREQ, RESP2 201
           IF WS-RESP = DFHRESP(INVREQ) AND WS-RESP2 = 201
               EXEC CICS DEFINE COUNTER('CUSTNUM') VALUE(1000)
               END-EXEC
               EXEC CICS GET COUNTER('CUSTNUM') VALUE(WS-VALUE)
               END-EXEC
           END-IF
           MOVE WS-VALUE TO MC-VALUE.

       3000-BROWSE.
           MOVE MC-KEY TO WS-KEY
           EXEC CICS STARTBR FILE('CUSTFILE') RIDFLD(WS-KEY) GTEQ
                     RESP(WS-RESP)
           END-EXEC
           PERFORM UNTIL WS-RESP NOT = DFHRESP(NORMAL)
                      OR MC-COUNT >= 5
               EXEC CICS READNEXT FILE('CUSTFILE')
                         INTO(CUSTOMER-RECORD) RIDFLD(WS-KEY)
                         RESP(WS-RESP)
               END-EXEC
               IF WS-RESP = DFHRESP(NORMAL)
                   ADD 1 TO MC-COUNT
                   MOVE CR-CUST-ID TO MC-IDS (MC-COUNT)
               END-IF
           END-PERFORM
           MOVE WS-RESP TO MC-RESP
           EXEC CICS ENDBR FILE('CUSTFILE') END-EXEC.

       4000-ADD-THEN-ABEND.
           INITIALIZE CUSTOMER-RECORD
           MOVE MC-KEY TO CR-CUST-ID
           MOVE 'ABANDONED' TO CR-CUST-NAME
           EXEC CICS WRITE FILE('CUSTFILE') FROM(CUSTOMER-RECORD)
                     RIDFLD(CR-CUST-ID)
           END-EXEC
           EXEC CICS ABEND ABCODE('CABN') END-EXEC.

       5000-READ-UNGUARDED.
           MOVE MC-KEY TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE') INTO(CUSTOMER-RECORD)
                     RIDFLD(WS-KEY)
           END-EXEC.

       6000-EIB.
           MOVE EIBCALEN TO MC-COUNT
           MOVE EIBTASKN TO MC-VALUE
           EXEC CICS ASKTIME ABSTIME(WS-ABSTIME) END-EXEC
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     YYYYMMDD(WS-TODAY)
           END-EXEC
           MOVE WS-TODAY TO MC-IDS (1)
           MOVE EIBDATE TO MC-IDS (2).

       7000-ADD-SYNC-ABEND.
           INITIALIZE CUSTOMER-RECORD
           MOVE MC-KEY TO CR-CUST-ID
           MOVE 'COMMITTED' TO CR-CUST-NAME
           EXEC CICS WRITE FILE('CUSTFILE') FROM(CUSTOMER-RECORD)
                     RIDFLD(CR-CUST-ID)
           END-EXEC
           EXEC CICS SYNCPOINT END-EXEC
           EXEC CICS ABEND ABCODE('CSYN') END-EXEC.

       8000-ABEND-EXIT.
           EXEC CICS ASSIGN ABCODE(WS-ABCODE) END-EXEC
           MOVE WS-ABCODE TO MC-ABCODE
           EXEC CICS RETURN END-EXEC.
