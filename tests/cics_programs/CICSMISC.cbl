       IDENTIFICATION DIVISION.
       PROGRAM-ID. CICSMISC.
      *================================================================*
      * CICSMISC - THE REST OF THE COMMANDS A BACK END USES: STORAGE,  *
      *   POINTERS, QUEUES READ BACK, ENQ, ASSIGN, HANDLE ABEND,       *
      *   IGNORE, PUSH AND POP, SYNCPOINT, XCTL.                       *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       COPY DFHAID.
       COPY DFHBMSCA.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-ITEM                     PIC S9(4) COMP VALUE 1.
       01  WS-NUMITEMS                 PIC S9(4) COMP.
       01  WS-LEN                      PIC S9(4) COMP.
       01  WS-FLEN                     PIC S9(8) COMP VALUE 512.
       01  WS-AREA-PTR                 USAGE POINTER.
       01  WS-USERID                   PIC X(8).
       01  WS-APPLID                   PIC X(8).
       01  WS-INVOKER                  PIC X(8).
       01  WS-QUEUE-LINE               PIC X(80).
       01  WS-TOTAL                    PIC S9(15) COMP-3.
       01  WS-TABLE.
           05  WS-ENTRY                PIC X(10) OCCURS 5 TIMES.
       LINKAGE SECTION.
       01  LS-WORK-AREA                PIC X(512).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS HANDLE ABEND LABEL(9000-ABENDED) END-EXEC
           EXEC CICS IGNORE CONDITION LENGERR QZERO END-EXEC
           EXEC CICS PUSH HANDLE END-EXEC
           EXEC CICS ASSIGN USERID(WS-USERID) APPLID(WS-APPLID)
                     INVOKINGPROG(WS-INVOKER)
           END-EXEC
           EXEC CICS GETMAIN SET(ADDRESS OF LS-WORK-AREA)
                     FLENGTH(WS-FLEN) INITIMG(DFHBMASK)
           END-EXEC
           EXEC CICS ADDRESS COMMAREA(WS-AREA-PTR) END-EXEC
           EXEC CICS READQ TS QUEUE('CUSTERRS') INTO(WS-QUEUE-LINE)
                     LENGTH(WS-LEN) ITEM(WS-ITEM) NUMITEMS(WS-NUMITEMS)
                     RESP(WS-RESP)
           END-EXEC
           EXEC CICS ENQ RESOURCE(WS-ENTRY (2)) LENGTH(10) END-EXEC
           EXEC CICS DEQ RESOURCE(WS-ENTRY (2)) LENGTH(10) END-EXEC
           EXEC CICS WRITEQ TS QUEUE('LOG') FROM('A LITERAL LINE')
           END-EXEC
           EXEC CICS FREEMAIN DATA(LS-WORK-AREA) END-EXEC
           EXEC CICS DELETEQ TS QUEUE('CUSTERRS') NOHANDLE END-EXEC
           EXEC CICS POP HANDLE END-EXEC
           EXEC CICS SYNCPOINT END-EXEC
           IF EIBAID = DFHPF3 OR WS-RESP = DFHRESP(QIDERR)
               EXEC CICS SYNCPOINT ROLLBACK END-EXEC
           END-IF
           EXEC CICS XCTL PROGRAM('CUSTFRNT') END-EXEC.
       9000-ABENDED.
           EXEC CICS ABEND ABCODE('MISC') CANCEL END-EXEC.
