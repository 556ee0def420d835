       IDENTIFICATION DIVISION.
       PROGRAM-ID. TASKABX.
      *================================================================*
      * TASKABX - ABEND EXIT OF CUSTTASK: NOTES THE ABEND CODE ON THE  *
      *   TS QUEUE ABXTRACE AND RETURNS                                *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-ABCODE                   PIC X(8)   VALUE SPACES.
       LINKAGE SECTION.
       01  DFHCOMMAREA                 PIC X(1).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS ASSIGN ABCODE(WS-ABCODE (1:4)) END-EXEC
           EXEC CICS WRITEQ TS QUEUE('ABXTRACE') FROM(WS-ABCODE)
           END-EXEC
           EXEC CICS RETURN END-EXEC.
