       IDENTIFICATION DIVISION.
       PROGRAM-ID. CLMUPD.
      *================================================================*
      * CLMUPD - SETTLE A CLAIM. ITS OWN COMMAREA HAS A MISSPELT       *
      *   USAGE: THE REFUSAL NAMES THIS FILE AND LINE, NOT THE         *
      *   TRANSLATION OF IT.                                           *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-SETTLED                  PIC X VALUE 'S'.
       LINKAGE SECTION.
       01  DFHCOMMAREA.
           03  CU-CLAIM-NUM            PIC 9(10).
           03  CU-RETURN-CODE          PIC 9(2).
           03  CU-PAID                 PIC S9(7)V99 COMPUTATONAL-3.
       PROCEDURE DIVISION.
       0000-MAIN.
           MOVE 0 TO CU-RETURN-CODE
           EXEC CICS RETURN END-EXEC.
