       IDENTIFICATION DIVISION.
       PROGRAM-ID. SQLDRV.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-DEPT                 PIC X(3) VALUE 'A00'.
       01  WS-PCT                  PIC S9(3)V99 COMP-3 VALUE 5.
       01  WS-RESULT.
           05  WS-READ             PIC S9(9) COMP.
           05  WS-RAISED           PIC S9(9) COMP.
           05  WS-TOTAL            PIC S9(11)V99 COMP-3.
           05  WS-LAST             PIC X(15).
           05  WS-CODE             PIC S9(9) COMP.
       01  WS-REQUEST              PIC X(68) VALUE 'I000001000'.
       01  WS-REPLY.
           05  WS-RC               PIC 99.
           05  FILLER              PIC X(58).
       PROCEDURE DIVISION.
           CALL 'EMPRPT' USING WS-DEPT WS-PCT WS-RESULT
           DISPLAY 'EMPRPT READ ' WS-READ ' RC ' RETURN-CODE
           CALL 'EMPMAINT' USING WS-REQUEST WS-REPLY
           DISPLAY 'EMPMAINT RC ' WS-RC
           STOP RUN.
