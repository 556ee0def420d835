       IDENTIFICATION DIVISION.
       PROGRAM-ID. CHNBACK.
      *================================================================*
      * CHNBACK - VSAM BACK END OF THE CUSTOMER CHANNEL SERVICE        *
      *   LINKED WITH A CHANNEL: GETS THE REQUEST CONTAINER, READS OR  *
      *   WRITES THE KSDS CUSTFILE AND PUTS THE RESPONSE CONTAINER.    *
      *   LINKED WITH A COMMAREA: REPORTS WHAT A CONTAINER COMMAND     *
      *   ANSWERS WITHOUT A CURRENT CHANNEL.                           *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-RESP                     PIC S9(8)  COMP.
       01  WS-RESP2                    PIC S9(8)  COMP.
       01  WS-CHANNEL                  PIC X(16).
       01  WS-KEY                      PIC 9(8).
       01  WS-SCRATCH                  PIC X(8)   VALUE 'SCRATCH'.
           COPY CHNREQ.
           COPY CHNRSP.
           COPY CUSTREC.
       LINKAGE SECTION.
           COPY CHNCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASSIGN CHANNEL(WS-CHANNEL) END-EXEC
           IF EIBCALEN > 0
               PERFORM 5000-NO-CHANNEL
               EXEC CICS RETURN END-EXEC
           END-IF
      *    A CHANNEL OF ITS OWN: GONE WHEN THIS PROGRAM RETURNS
           EXEC CICS PUT CONTAINER('SCRATCH') CHANNEL('BACKCHAN')
                     FROM(WS-SCRATCH)
           END-EXEC
           INITIALIZE CUST-RESPONSE
           MOVE WS-CHANNEL TO RS-CHANNEL
           EXEC CICS GET CONTAINER('REQUEST')
                     INTO(CUST-REQUEST)
                     RESP(WS-RESP)
           END-EXEC
           EVALUATE TRUE
               WHEN WS-RESP = DFHRESP(CONTAINERERR)
                   MOVE 12 TO RS-RETURN-CODE
                   MOVE 'NO REQUEST CONTAINER' TO RS-MESSAGE
               WHEN RQ-INQUIRE
                   PERFORM 1000-INQUIRE
               WHEN RQ-ADD
                   PERFORM 2000-ADD
           END-EVALUATE
           EXEC CICS PUT CONTAINER('RESPONSE')
                     FROM(CUST-RESPONSE)
                     FLENGTH(LENGTH OF CUST-RESPONSE)
           END-EXEC
           EXEC CICS RETURN END-EXEC.

       1000-INQUIRE.
           MOVE RQ-CUST-ID TO WS-KEY
           EXEC CICS READ FILE('CUSTFILE')
                     INTO(CUSTOMER-RECORD)
                     RIDFLD(WS-KEY)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP = DFHRESP(NOTFND)
               MOVE 4 TO RS-RETURN-CODE
               MOVE RQ-CUST-ID TO RS-CUST-ID
               MOVE 'CUSTOMER NOT FOUND' TO RS-MESSAGE
           ELSE
               MOVE 0 TO RS-RETURN-CODE
               MOVE CR-CUST-ID TO RS-CUST-ID
               MOVE CR-CUST-NAME TO RS-CUST-NAME
               MOVE CR-CUST-CITY TO RS-CUST-CITY
               MOVE 'CUSTOMER FOUND' TO RS-MESSAGE
           END-IF.

       2000-ADD.
           INITIALIZE CUSTOMER-RECORD
           MOVE RQ-CUST-ID TO CR-CUST-ID
           MOVE RQ-CUST-NAME TO CR-CUST-NAME
           MOVE RQ-CUST-CITY TO CR-CUST-CITY
           MOVE ZERO TO CR-CUST-BALANCE
           EXEC CICS WRITE FILE('CUSTFILE')
                     FROM(CUSTOMER-RECORD)
                     RIDFLD(CR-CUST-ID)
                     RESP(WS-RESP)
           END-EXEC
           MOVE RQ-CUST-ID TO RS-CUST-ID
           IF WS-RESP = DFHRESP(DUPREC)
               MOVE 8 TO RS-RETURN-CODE
               MOVE 'CUSTOMER ALREADY THERE' TO RS-MESSAGE
           ELSE
               MOVE 0 TO RS-RETURN-CODE
               MOVE RQ-CUST-NAME TO RS-CUST-NAME
               MOVE RQ-CUST-CITY TO RS-CUST-CITY
               MOVE 'CUSTOMER ADDED' TO RS-MESSAGE
           END-IF.

       5000-NO-CHANNEL.
           EXEC CICS GET CONTAINER('REQUEST')
                     INTO(CUST-REQUEST)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           MOVE WS-RESP TO CA-RESP
           MOVE WS-RESP2 TO CA-RESP2
           MOVE WS-CHANNEL TO CA-CHANNEL.
