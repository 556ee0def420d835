       IDENTIFICATION DIVISION.
       PROGRAM-ID. CUSTTASK.
      *================================================================*
      * CUSTTASK - STORAGE, ENQUEUE AND INTERVAL SERVICES              *
      *   GTM: GETMAIN A WORK AREA (INITIMG), ONE BY POINTER, FREE     *
      *        BOTH, FREE AGAIN (INVREQ), KEEP A THIRD ONE FOR CICS    *
      *   LEN: GETMAIN OF NO LENGTH: LENGERR BY RESP, THEN BY HANDLE   *
      *   ADR: ADDRESS EIB, COMMAREA AND CWA, READ THROUGH THEM        *
      *   HLD: ENQ ON THE CUSTOMER LOCK FOR THE TASK, THEN UNTIL QUEUE *
      *        GOAHEAD HAS AN ITEM: AN ITEM ON ENQSTATE, SYNCPOINT,    *
      *        DELAY 100 MS (THE ENQ OUTLIVES THE SYNCPOINTS)          *
      *   TRY: ENQ NOSUSPEND WITH RESP          TRH: UNDER HANDLE      *
      *   WAI: ENQ THAT WAITS, THEN NOTE THE KEY ON TS QUEUE ENQDONE   *
      *   GOA: WRITE THE ITEM ON GOAHEAD                               *
      *   DLY: DELAY OF NOTHING, THEN A BAD INTERVAL (INVREQ)          *
      *   DLL: DELAY 100 MS, SAY SO ON QUEUE SLEEPING (SYNCPOINT), NOTE*
      *        THE KEY ON QUEUE DELAYED, ENQ, DELAY AN HOUR            *
      *   FMT: FORMATTIME OF A FIXED ABSTIME                           *
      *   FMS: ITS DATESTRING IN RFC 3339 AND RFC 1123 AT LOCAL TIME,  *
      *        THEN WITH A STRINGZONE CICS HAS NOT (INVREQ)            *
      *   ABX: ABEND UNDER HANDLE ABEND PROGRAM: TASKABX LOGS THE CODE *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-FLEN                     PIC S9(8)  COMP VALUE 200.
       01  WS-ZERO                     PIC S9(8)  COMP VALUE 0.
       01  WS-FILL                     PIC X      VALUE '*'.
       01  WS-AREA-PTR                 USAGE POINTER.
       01  WS-KEPT-PTR                 USAGE POINTER.
       01  WS-EIB-PTR                  USAGE POINTER.
       01  WS-CA-PTR                   USAGE POINTER.
       01  WS-CWA-PTR                  USAGE POINTER.
       01  WS-STARS                    PIC S9(4)  COMP.
       01  WS-ITEM                     PIC S9(4)  COMP.
       01  WS-QLEN                     PIC S9(4)  COMP.
       01  WS-QDATA                    PIC X(8).
       01  WS-ABSTIME                  PIC S9(15) COMP-3
                                       VALUE 3973170896789.
       01  WS-DATEFORM                 PIC X(6).
       01  WS-MILLIS                   PIC S9(8)  COMP.
       01  WS-STAMP                    PIC X(64).
       01  WS-STRING-FORM              PIC S9(8)  COMP.
       01  WS-NO-ZONE                  PIC S9(8)  COMP VALUE 1.
       01  WS-LOCK.
           05  FILLER                  PIC X(8)   VALUE 'CUSTLOCK'.
           05  WS-LOCK-KEY             PIC 9(8)   VALUE 0.
       LINKAGE SECTION.
           COPY TASKCOMM.
       01  LS-WORK-AREA                PIC X(200).
       01  LS-SCRATCH                  PIC X(100).
       01  LS-EIB.
           05  FILLER                  PIC X(24).
           05  LS-EIBCALEN             PIC S9(4)  COMP.
       01  LS-COMMAREA.
           05  LS-REQUEST              PIC X(3).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO TA-RESP TA-RESP2 TA-COUNT
           MOVE 'N' TO TA-FLAG
           EVALUATE TRUE
               WHEN TA-REQ-STORAGE
                   PERFORM 1000-STORAGE
               WHEN TA-REQ-LENGTH
                   PERFORM 2000-LENGTH
               WHEN TA-REQ-ADDRESS
                   PERFORM 3000-ADDRESS
               WHEN TA-REQ-HOLD
                   PERFORM 4000-HOLD
               WHEN TA-REQ-TRY
                   PERFORM 5000-TRY
               WHEN TA-REQ-TRY-HANDLED
                   PERFORM 5500-TRY-HANDLED
               WHEN TA-REQ-WAIT
                   PERFORM 5800-WAIT
               WHEN TA-REQ-GO-AHEAD
                   EXEC CICS WRITEQ TS QUEUE('GOAHEAD') FROM(TA-KEY)
                   END-EXEC
               WHEN TA-REQ-DELAY
                   PERFORM 6000-DELAY
               WHEN TA-REQ-LONG-DELAY
                   PERFORM 6500-LONG-DELAY
               WHEN TA-REQ-TIME
                   PERFORM 7000-TIME
               WHEN TA-REQ-STAMP
                   PERFORM 7500-STAMP
               WHEN TA-REQ-ABEND-EXIT
                   PERFORM 8000-ABEND-TO-EXIT
           END-EVALUATE
           EXEC CICS RETURN END-EXEC.

       1000-STORAGE.
           EXEC CICS GETMAIN SET(ADDRESS OF LS-WORK-AREA)
                     FLENGTH(WS-FLEN) INITIMG(WS-FILL)
           END-EXEC
           MOVE 0 TO WS-STARS
           INSPECT LS-WORK-AREA TALLYING WS-STARS FOR ALL '*'
           MOVE WS-STARS TO TA-COUNT
           MOVE 'STORED IN A GETMAIN AREA' TO LS-WORK-AREA
           MOVE LS-WORK-AREA (1:64) TO TA-TEXT
           EXEC CICS GETMAIN SET(WS-AREA-PTR) LENGTH(100) END-EXEC
           SET ADDRESS OF LS-SCRATCH TO WS-AREA-PTR
           IF LS-SCRATCH = LOW-VALUES
               MOVE 'Y' TO TA-FLAG
           END-IF
           EXEC CICS GETMAIN SET(WS-KEPT-PTR) FLENGTH(64) SHARED
           END-EXEC
           EXEC CICS FREEMAIN DATA(LS-WORK-AREA) END-EXEC
           EXEC CICS FREEMAIN DATAPOINTER(WS-AREA-PTR) END-EXEC
           EXEC CICS FREEMAIN DATAPOINTER(WS-AREA-PTR)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO TA-RESP
           MOVE WS-RESP2 TO TA-RESP2.

       2000-LENGTH.
           EXEC CICS GETMAIN SET(WS-AREA-PTR) FLENGTH(WS-ZERO)
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO TA-RESP
           EXEC CICS HANDLE CONDITION LENGERR(2900-NO-LENGTH)
           END-EXEC
           EXEC CICS GETMAIN SET(WS-AREA-PTR) FLENGTH(WS-ZERO)
           END-EXEC
           MOVE 'N' TO TA-FLAG.

       2900-NO-LENGTH.
           MOVE 'L' TO TA-FLAG
           EXEC CICS RETURN END-EXEC.

       3000-ADDRESS.
           EXEC CICS ADDRESS EIB(WS-EIB-PTR) COMMAREA(WS-CA-PTR)
                     CWA(WS-CWA-PTR)
           END-EXEC
           SET ADDRESS OF LS-EIB TO WS-EIB-PTR
           MOVE LS-EIBCALEN TO TA-COUNT
           SET ADDRESS OF LS-COMMAREA TO WS-CA-PTR
           MOVE LS-REQUEST TO TA-TEXT
           IF WS-CWA-PTR = NULL
               MOVE 'Y' TO TA-FLAG
           END-IF.

       4000-HOLD.
           MOVE TA-KEY TO WS-LOCK-KEY
           EXEC CICS ENQ RESOURCE(WS-LOCK) LENGTH(LENGTH OF WS-LOCK)
                     TASK
           END-EXEC
           MOVE 1 TO WS-ITEM
           PERFORM UNTIL TA-FLAG = 'Y'
               MOVE LENGTH OF WS-QDATA TO WS-QLEN
               EXEC CICS READQ TS QUEUE('GOAHEAD') INTO(WS-QDATA)
                         LENGTH(WS-QLEN) ITEM(WS-ITEM) RESP(WS-RESP)
               END-EXEC
               IF WS-RESP = DFHRESP(NORMAL)
                   MOVE 'Y' TO TA-FLAG
               ELSE
                   ADD 1 TO TA-COUNT
                   EXEC CICS WRITEQ TS QUEUE('ENQSTATE') FROM(TA-KEY)
                   END-EXEC
                   EXEC CICS SYNCPOINT END-EXEC
                   EXEC CICS DELAY FOR MILLISECS(100) END-EXEC
               END-IF
           END-PERFORM.

       5000-TRY.
           MOVE TA-KEY TO WS-LOCK-KEY
           EXEC CICS ENQ RESOURCE(WS-LOCK) LENGTH(16) NOSUSPEND
                     RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO TA-RESP.

       5500-TRY-HANDLED.
           MOVE TA-KEY TO WS-LOCK-KEY
           EXEC CICS HANDLE CONDITION ENQBUSY(5900-BUSY) END-EXEC
           EXEC CICS ENQ RESOURCE(WS-LOCK) LENGTH(16) END-EXEC
           MOVE 'G' TO TA-FLAG
           EXEC CICS DEQ RESOURCE(WS-LOCK) LENGTH(16) END-EXEC.

       5800-WAIT.
           MOVE TA-KEY TO WS-LOCK-KEY
           EXEC CICS ENQ RESOURCE(WS-LOCK) LENGTH(16) END-EXEC
           MOVE 'G' TO TA-FLAG.

       5900-BUSY.
           MOVE 'B' TO TA-FLAG
           MOVE EIBRESP TO TA-RESP
           EXEC CICS RETURN END-EXEC.

       6000-DELAY.
           EXEC CICS DELAY INTERVAL(0) END-EXEC
           EXEC CICS DELAY FOR SECONDS(0) MILLISECS(10) END-EXEC
           EXEC CICS DELAY INTERVAL(6000) RESP(WS-RESP)
                     RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO TA-RESP
           MOVE WS-RESP2 TO TA-RESP2.

       6500-LONG-DELAY.
           MOVE TA-KEY TO WS-LOCK-KEY
           EXEC CICS DELAY FOR MILLISECS(100) END-EXEC
           EXEC CICS WRITEQ TS QUEUE('SLEEPING') FROM(TA-KEY) END-EXEC
           EXEC CICS SYNCPOINT END-EXEC
           EXEC CICS WRITEQ TS QUEUE('DELAYED') FROM(TA-KEY) END-EXEC
           EXEC CICS ENQ RESOURCE(WS-LOCK) LENGTH(16) END-EXEC
           EXEC CICS DELAY FOR HOURS(1) END-EXEC.

       7000-TIME.
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     DATESTRING(TA-TEXT) DATEFORM(WS-DATEFORM)
                     MILLISECONDS(WS-MILLIS) YYYYMMDD(TA-DATE)
                     DATESEP('-')
           END-EXEC
           MOVE WS-MILLIS TO TA-MILLIS
           MOVE WS-DATEFORM TO TA-FORM.

       7500-STAMP.
           MOVE DFHVALUE(RFC3339) TO WS-STRING-FORM
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     DATESTRING(WS-STAMP) STRINGFORMAT(WS-STRING-FORM)
                     STRINGZONE(DFHVALUE(LOCAL))
           END-EXEC
           MOVE WS-STAMP (1:32) TO TA-TEXT (1:32)
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     DATESTRING(WS-STAMP) STRINGZONE(DFHVALUE(LOCAL))
           END-EXEC
           MOVE WS-STAMP (1:32) TO TA-TEXT (33:32)
           MOVE SPACES TO WS-STAMP
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     DATESTRING(WS-STAMP) STRINGZONE(WS-NO-ZONE)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO TA-RESP
           MOVE WS-RESP2 TO TA-RESP2
           IF WS-STAMP = SPACES
               MOVE 'U' TO TA-FLAG
           END-IF.

       8000-ABEND-TO-EXIT.
           EXEC CICS HANDLE ABEND PROGRAM('TASKABX') END-EXEC
           MOVE 'BEFORE' TO WS-QDATA
           EXEC CICS WRITEQ TS QUEUE('ABXTRACE') FROM(WS-QDATA)
           END-EXEC
           EXEC CICS ABEND ABCODE('CABX') END-EXEC
           MOVE 'X' TO TA-FLAG.
