       IDENTIFICATION DIVISION.
       PROGRAM-ID. ACCTLOOK.
      *    Gives an account's standing from its balance. The area ends
      *    with the two PCB addresses an IMS region hands its programs;
      *    called as a tool they arrive as NULL.
       DATA DIVISION.
       WORKING-STORAGE SECTION.
      * Run time (debug) information for this invocation
       01  WS-HEADER.
           03 WS-EYECATCHER            PIC X(16)
                                        VALUE 'ACCTLOOK------WS'.
           03 WS-ADDR-AREA             USAGE IS POINTER.
           03 WS-CALEN                 PIC S9(4) COMP.
       01  WS-EXIT-ROUTINE             USAGE PROCEDURE-POINTER
                                        VALUE NULL.
       LINKAGE SECTION.
       01  AL-AREA.
           05 AL-ACCOUNT               PIC X(8).
           05 AL-BALANCE               PIC S9(7)V99 COMP-3.
           05 AL-STANDING              PIC X.
              88 AL-OVERDRAWN          VALUE 'O'.
              88 AL-IN-CREDIT          VALUE 'C'.
           05 AL-PCBS-GIVEN            PIC X.
           05 AL-DB-PCB                USAGE POINTER SYNC.
           05 AL-TP-PCB                USAGE POINTER.
       PROCEDURE DIVISION USING AL-AREA.
       0000-MAIN.
           SET WS-ADDR-AREA TO ADDRESS OF AL-AREA
           IF AL-BALANCE < ZERO
               SET AL-OVERDRAWN TO TRUE
           ELSE
               SET AL-IN-CREDIT TO TRUE
           END-IF
           IF AL-DB-PCB = NULL AND AL-TP-PCB = NULL
               MOVE 'N' TO AL-PCBS-GIVEN
           ELSE
               MOVE 'Y' TO AL-PCBS-GIVEN
           END-IF
           GOBACK.
