       IDENTIFICATION DIVISION.
       PROGRAM-ID. CICSBCAL.
      *================================================================*
      * CICSBCAL - THE BACK END OF THE LINK BENCHMARK: COUNTS THE      *
      *   TIMES IT WAS REACHED IN ITS COMMAREA AND RETURNS, WHETHER    *
      *   LINKED TO (EXEC CICS LINK) OR CALLED (A PLAIN COBOL CALL).   *
      *================================================================*
       DATA DIVISION.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           05  CA-HITS                 PIC 9(8)  COMP.
           05  CA-DATA                 PIC X(96).
       PROCEDURE DIVISION.
       0000-MAIN.
           ADD 1 TO CA-HITS
           EXEC CICS RETURN END-EXEC.
