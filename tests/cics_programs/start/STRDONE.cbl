       IDENTIFICATION DIVISION.
       PROGRAM-ID. STRDONE.
      *================================================================*
      * STRDONE - TRANSACTION STRD: RETRIEVES ITS DATA AND NOTES WHAT  *
      *   IT GOT ON TS QUEUE STARTED; KEY 999 ABENDS STRF AFTERWARDS   *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-LEN                      PIC S9(4)  COMP.
       01  WS-STARTCODE                PIC X(2).
           COPY STRTDATA.
       01  WS-NOTE.
           05  NT-KEY                  PIC 9(4).
           05  NT-TEXT                 PIC X(16).
           05  NT-LEN                  PIC 9(4).
           05  NT-RESP                 PIC 9(4).
           05  NT-STARTCODE            PIC X(2).
           05  NT-TRNID                PIC X(4).
           05  NT-CALEN                PIC 9(4).
           05  NT-RTRANSID             PIC X(4).
           05  NT-AGAIN                PIC 9(4).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE SPACES TO WS-NOTE
           MOVE 50 TO WS-LEN
           EXEC CICS RETRIEVE INTO(STRT-DATA) LENGTH(WS-LEN)
                RTRANSID(NT-RTRANSID) RESP(WS-RESP)
           END-EXEC
           MOVE SD-KEY TO NT-KEY
           MOVE SD-TEXT TO NT-TEXT
           MOVE WS-LEN TO NT-LEN
           MOVE WS-RESP TO NT-RESP
           EXEC CICS ASSIGN STARTCODE(WS-STARTCODE) END-EXEC
           MOVE WS-STARTCODE TO NT-STARTCODE
           MOVE EIBTRNID TO NT-TRNID
           MOVE EIBCALEN TO NT-CALEN
           EXEC CICS RETRIEVE INTO(STRT-DATA) LENGTH(WS-LEN)
                RESP(WS-RESP)
           END-EXEC
           MOVE WS-RESP TO NT-AGAIN
           EXEC CICS WRITEQ TS QUEUE('STARTED') FROM(WS-NOTE)
           END-EXEC
           IF SD-KEY = 999
               EXEC CICS ABEND ABCODE('STRF') END-EXEC
           END-IF
           EXEC CICS RETURN END-EXEC.
