       IDENTIFICATION DIVISION.
       PROGRAM-ID. RETBACK.
      *---------------------------------------------------------------*
      * RETBACK - COUNTS ITS CALLS IN THE COMMAREA, DELETES A TS QUEUE *
      *   THAT IS NOT THERE (QIDERR, TO ITS HANDLE CONDITION LABEL)    *
      *   AND RETURNS FROM THE LABEL: ONCE PER LINK.                   *
      *---------------------------------------------------------------*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-CALEN                    PIC S9(4) COMP.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-HITS                 PIC 9(4).
           05  CA-QIDERR               PIC 9(4).
           05  CA-CALEN                PIC 9(4).
       PROCEDURE DIVISION.
       0000-MAIN.
           EXEC CICS HANDLE CONDITION QIDERR(2000-NO-QUEUE) END-EXEC
           ADD 1 TO CA-HITS
           MOVE EIBCALEN TO WS-CALEN
           MOVE WS-CALEN TO CA-CALEN
           EXEC CICS DELETEQ TS QUEUE('NOSUCHQ') END-EXEC
           MOVE 9999 TO CA-HITS
           EXEC CICS RETURN END-EXEC.

       2000-NO-QUEUE.
           ADD 1 TO CA-QIDERR
           IF CA-QIDERR > CA-HITS
               GOBACK
           END-IF
           EXEC CICS RETURN END-EXEC.
