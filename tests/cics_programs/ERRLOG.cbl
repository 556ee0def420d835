       IDENTIFICATION DIVISION.
       PROGRAM-ID. ERRLOG.
      *================================================================*
      * ERRLOG - ERROR LOGGER OF THE CUSTOMER SERVICE                  *
      *   WRITES ONE LINE PER ERROR TO THE TS QUEUE CUSTERRS, STAMPED  *
      *   WITH THE DATE AND TIME; IF THE QUEUE CANNOT BE WRITTEN, THE  *
      *   LINE GOES TO THE TRANSIENT DATA QUEUE CSMT INSTEAD.          *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ABSTIME                  PIC S9(15) COMP-3.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-ITEM                     PIC S9(4)  COMP.
       01  WS-QUEUE                    PIC X(16)  VALUE 'CUSTERRS'.
       01  WS-LOG-LINE.
           05  WS-LOG-DATE             PIC X(10).
           05  FILLER                  PIC X      VALUE SPACE.
           05  WS-LOG-TIME             PIC X(8).
           05  FILLER                  PIC X      VALUE SPACE.
           05  WS-LOG-PROGRAM          PIC X(8).
           05  FILLER                  PIC X      VALUE SPACE.
           05  WS-LOG-CODE             PIC 9(4).
           05  FILLER                  PIC X      VALUE SPACE.
           05  WS-LOG-TEXT             PIC X(40).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           COPY ERRLOGCA.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASKTIME ABSTIME(WS-ABSTIME) END-EXEC
           EXEC CICS FORMATTIME ABSTIME(WS-ABSTIME)
                     YYYYMMDD(WS-LOG-DATE) DATESEP('-')
                     TIME(WS-LOG-TIME) TIMESEP
           END-EXEC
           MOVE EL-PROGRAM TO WS-LOG-PROGRAM
           MOVE EL-CODE TO WS-LOG-CODE
           MOVE EL-TEXT TO WS-LOG-TEXT
           EXEC CICS WRITEQ TS QNAME(WS-QUEUE)
                     FROM(WS-LOG-LINE)
                     LENGTH(LENGTH OF WS-LOG-LINE)
                     ITEM(WS-ITEM) MAIN
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               EXEC CICS WRITEQ TD QUEUE('CSMT')
                         FROM(WS-LOG-LINE)
               END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
