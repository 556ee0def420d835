       IDENTIFICATION DIVISION.
       PROGRAM-ID. EMPLOAD.
       AUTHOR. PAYROLL SYSTEMS.
      *================================================================*
      * EMPLOAD - NEW-HIRE LOAD, BATCH STEP WITHOUT SQL OF ITS OWN.    *
      *   READS ONE CARD PER HIRE FROM SYSIN UNTIL A CARD OF '*END':   *
      *     COLS 1-15  LAST NAME                                       *
      *     COLS 17-19 DEPARTMENT                                      *
      *     COL  21    'A' TO ABEND AFTER THIS HIRE (RERUN TEST)       *
      *   CALLS EMPENROL FOR EACH (THE DB2 I/O MODULE) AND REPORTS     *
      *   THE HIRES LOADED.                                            *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-HIRE-CARD.
           05  HC-LASTNAME             PIC X(15).
               88  HC-END-OF-CARDS               VALUE '*END'.
           05  FILLER                  PIC X.
           05  HC-DEPT                 PIC X(3).
           05  FILLER                  PIC X.
           05  HC-ABEND-SW             PIC X.
               88  HC-ABEND                      VALUE 'A'.
       01  WS-ENROL-PGM                PIC X(8)  VALUE 'EMPENROL'.
       01  WS-ABEND-PGM                PIC X(8)  VALUE 'EMPABND '.
       01  WS-LOADED                   PIC S9(4) COMP VALUE ZERO.
       01  WS-LOADED-DISP              PIC Z(3)9.
       01  WS-SQLCODE-DISP             PIC -(8)9.
           COPY EMPREQ.
       PROCEDURE DIVISION.
       0000-MAINLINE.
           ACCEPT WS-HIRE-CARD
           PERFORM 1000-LOAD-HIRE UNTIL HC-END-OF-CARDS
           MOVE WS-LOADED TO WS-LOADED-DISP
           DISPLAY 'EMPLOAD HIRES LOADED ' WS-LOADED-DISP
           STOP RUN.

       1000-LOAD-HIRE.
           MOVE HC-LASTNAME TO ER-LASTNAME
           MOVE HC-DEPT TO ER-DEPT
           CALL WS-ENROL-PGM USING EMP-ENROL-REQUEST
           IF ER-SQLCODE NOT = ZERO
               MOVE ER-SQLCODE TO WS-SQLCODE-DISP
               DISPLAY 'EMPENROL SQLCODE ' WS-SQLCODE-DISP
               MOVE 16 TO RETURN-CODE
               STOP RUN
           END-IF
           ADD 1 TO WS-LOADED
           IF HC-ABEND
               CALL WS-ABEND-PGM
           END-IF
           ACCEPT WS-HIRE-CARD.
