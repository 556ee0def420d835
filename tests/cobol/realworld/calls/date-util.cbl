000100 IDENTIFICATION DIVISION.                                         BILLING 
000200 PROGRAM-ID. DATEUTIL.                                            BILLING 
000300*================================================================ BILLING 
000400* Date arithmetic shared by the billing programs: a date plus a   BILLING 
000500* number of days, and the weekday of the result (1=Monday).       BILLING 
000600*================================================================ BILLING 
000700 ENVIRONMENT DIVISION.                                            BILLING 
000800 DATA DIVISION.                                                   BILLING 
000900 WORKING-STORAGE SECTION.                                         BILLING 
001000 01  WS-DAY-NUMBER               PIC S9(9) COMP.                  BILLING 
001100 LINKAGE SECTION.                                                 BILLING 
001200 01  LS-DU-REQUEST.                                               BILLING 
001300     05  LS-DU-DATE              PIC 9(8).                        BILLING 
001400     05  LS-DU-DAYS              PIC S9(5).                       BILLING 
001500 01  LS-DU-RESULT.                                                BILLING 
001600     05  LS-DU-NEW-DATE          PIC 9(8).                        BILLING 
001700     05  LS-DU-WEEKDAY           PIC 9.                           BILLING 
001800 PROCEDURE DIVISION USING LS-DU-REQUEST LS-DU-RESULT.             BILLING 
001900 0000-MAINLINE.                                                   BILLING 
002000     COMPUTE WS-DAY-NUMBER =                                      BILLING 
002100         FUNCTION INTEGER-OF-DATE (LS-DU-DATE) + LS-DU-DAYS       BILLING 
002200     MOVE FUNCTION DATE-OF-INTEGER (WS-DAY-NUMBER)                BILLING 
002300         TO LS-DU-NEW-DATE                                        BILLING 
002400     COMPUTE LS-DU-WEEKDAY =                                      BILLING 
002500         FUNCTION MOD (WS-DAY-NUMBER - 1, 7) + 1                  BILLING 
002600     GOBACK.                                                      BILLING 
