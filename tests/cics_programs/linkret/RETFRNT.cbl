       IDENTIFICATION DIVISION.
       PROGRAM-ID. RETFRNT.
      *---------------------------------------------------------------*
      * RETFRNT - LINKS TO RETBACK RF-TIMES TIMES AND COUNTS, AFTER    *
      *   EACH LINK, THE TIMES THE EIB WAS NOT THE ONE A LINK LEAVES   *
      *   (EIBRESP NORMAL, EIBFN OF LINK, ITS OWN EIBCALEN).           *
      *---------------------------------------------------------------*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-BACK                     PIC X(8)  VALUE 'RETBACK'.
       01  WS-CALEN                    PIC S9(4) COMP.
       01  WS-AREA.
           05  WA-HITS                 PIC 9(4).
           05  WA-QIDERR               PIC 9(4).
           05  WA-CALEN                PIC 9(4).
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  RF-TIMES                PIC 9(4).
           05  RF-HITS                 PIC 9(4).
           05  RF-QIDERR               PIC 9(4).
           05  RF-CALEN                PIC 9(4).
           05  RF-BAD-EIB              PIC 9(4).
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE ZERO TO WA-HITS WA-QIDERR WA-CALEN RF-BAD-EIB
           PERFORM 1000-LINK RF-TIMES TIMES
           MOVE WA-HITS TO RF-HITS
           MOVE WA-QIDERR TO RF-QIDERR
           MOVE WA-CALEN TO RF-CALEN
           EXEC CICS RETURN END-EXEC.

       1000-LINK.
           EXEC CICS LINK PROGRAM(WS-BACK) COMMAREA(WS-AREA)
           END-EXEC
           MOVE EIBCALEN TO WS-CALEN
           IF EIBRESP NOT = DFHRESP(NORMAL) OR EIBFN NOT = X'0E02'
              OR WS-CALEN NOT = 20
               ADD 1 TO RF-BAD-EIB
           END-IF.
