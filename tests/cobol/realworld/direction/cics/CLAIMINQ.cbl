       IDENTIFICATION DIVISION.
       PROGRAM-ID. CLAIMINQ.
      *    Inquires a claim's status by its number. An error is written
      *    to CSMT, and the first bytes of the COMMAREA go to ERRLOG.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-CLAIM-REC.
           05  WS-CLAIM-KEY            PIC X(8).
           05  WS-CLAIM-STATUS         PIC X(10).
           05  WS-CLAIM-PAID           PIC 9(7)V99.
       01  ERROR-MSG.
           05  EM-PROGRAM              PIC X(9)  VALUE 'CLAIMINQ '.
           05  EM-TEXT                 PIC X(30) VALUE SPACES.
      * The COMMAREA as it arrived, for the error log
       01  CA-ERROR-MSG.
           05  FILLER                  PIC X(9)  VALUE 'COMMAREA='.
           05  CA-DATA                 PIC X(60) VALUE SPACES.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-REQUEST-ID           PIC X(6).
           05  CA-RETURN-CODE          PIC 9(2).
           05  CA-CLAIM-NUM            PIC X(8).
           05  CA-CLAIM-STATUS         PIC X(10).
           05  CA-CLAIM-PAID           PIC 9(7)V99.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF EIBCALEN IS EQUAL TO ZERO
               MOVE ' NO COMMAREA RECEIVED' TO EM-TEXT
               PERFORM 9000-WRITE-ERROR
               EXEC CICS ABEND ABCODE('CLNC') NODUMP END-EXEC
           END-IF
           MOVE '00' TO CA-RETURN-CODE
           MOVE CA-CLAIM-NUM TO WS-CLAIM-KEY
           EXEC CICS READ FILE('CLAIMS') INTO(WS-CLAIM-REC)
                     RIDFLD(WS-CLAIM-KEY) RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               MOVE '01' TO CA-RETURN-CODE
               MOVE ' CLAIM NOT FOUND' TO EM-TEXT
               PERFORM 9000-WRITE-ERROR
               EXEC CICS RETURN END-EXEC
           END-IF
           MOVE WS-CLAIM-STATUS TO CA-CLAIM-STATUS
           MOVE WS-CLAIM-PAID TO CA-CLAIM-PAID
           EXEC CICS RETURN END-EXEC.

       9000-WRITE-ERROR.
           EXEC CICS WRITEQ TD QUEUE('CSMT') FROM(ERROR-MSG)
                     LENGTH(LENGTH OF ERROR-MSG) NOHANDLE
           END-EXEC
           IF EIBCALEN > 0
               IF EIBCALEN < 61
                   MOVE DFHCOMMAREA(1:EIBCALEN) TO CA-DATA
               ELSE
                   MOVE DFHCOMMAREA(1:60) TO CA-DATA
               END-IF
               EXEC CICS LINK PROGRAM('ERRLOG')
                         COMMAREA(CA-ERROR-MSG)
                         LENGTH(LENGTH OF CA-ERROR-MSG)
               END-EXEC
           END-IF.
