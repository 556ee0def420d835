       IDENTIFICATION DIVISION.
       PROGRAM-ID. STRTREQ.
      *================================================================*
      * STRTREQ - STARTS TRANSACTION STRD WITH A KEY AS ITS DATA       *
      *   STR: START STRD AT ONCE, FROM THE KEY, RTRANSID STRQ         *
      *   LAT: START STRD AN HOUR FROM NOW                             *
      *   ABN: START STRD, THEN ABEND STAB (THE START GOES WITH IT)    *
      *   UNK: START A TRANSACTION NOBODY DEFINED (TRANSIDERR)         *
      *   DIS: START STRX, DEFINED DISABLED IN THE CSD (TRANSIDERR)    *
      *   BAD: START WITH AN INTERVAL OF 60 MINUTES (INVREQ)           *
      *   RTV: RETRIEVE IN A TASK NOBODY STARTED (ENDDATA)             *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-TRAN                     PIC X(4)   VALUE 'STRD'.
       01  WS-LEN                      PIC S9(4)  COMP.
           COPY STRTDATA.
       LINKAGE SECTION.
           COPY STRTCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO SR-RESP SR-RESP2
           MOVE SR-KEY TO SD-KEY
           MOVE 'STARTED BY STR' TO SD-TEXT
           EVALUATE TRUE
               WHEN SR-REQ-START
                   EXEC CICS START TRANSID(WS-TRAN)
                        FROM(STRT-DATA)
                        LENGTH(LENGTH OF STRT-DATA)
                        RTRANSID('STRQ')
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
               WHEN SR-REQ-START-LATER
                   EXEC CICS START TRANSID('STRD') FROM(STRT-DATA)
                        AFTER HOURS(1)
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
               WHEN SR-REQ-START-ABEND
                   EXEC CICS START TRANSID('STRD') FROM(STRT-DATA)
                   END-EXEC
                   EXEC CICS ABEND ABCODE('STAB') END-EXEC
               WHEN SR-REQ-UNKNOWN
                   EXEC CICS START TRANSID('NONE')
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
               WHEN SR-REQ-DISABLED
                   EXEC CICS START TRANSID('STRX')
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
               WHEN SR-REQ-BAD-INTERVAL
                   EXEC CICS START TRANSID('STRD') INTERVAL(006000)
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
               WHEN SR-REQ-RETRIEVE
                   MOVE LENGTH OF STRT-DATA TO WS-LEN
                   EXEC CICS RETRIEVE INTO(STRT-DATA) LENGTH(WS-LEN)
                        RESP(WS-RESP) RESP2(WS-RESP2)
                   END-EXEC
           END-EVALUATE
           MOVE WS-RESP TO SR-RESP
           MOVE WS-RESP2 TO SR-RESP2
           EXEC CICS RETURN END-EXEC.
