000100 IDENTIFICATION DIVISION.                                         BILLING 
000200 PROGRAM-ID. INVDUE.                                              BILLING 
000300*================================================================ BILLING 
000400* Due date and early-payment discount date of an invoice, from    BILLING 
000500* its date and payment terms (days net, days for the discount).   BILLING 
000600*================================================================ BILLING 
000700 ENVIRONMENT DIVISION.                                            BILLING 
000800 DATA DIVISION.                                                   BILLING 
000900 WORKING-STORAGE SECTION.                                         BILLING 
001000 01  WS-DISCOUNT-PGM             PIC X(8) VALUE 'DATEUTIL'.       BILLING 
001100 01  WS-DU-REQUEST.                                               BILLING 
001200     05  WS-DU-DATE              PIC 9(8).                        BILLING 
001300     05  WS-DU-DAYS              PIC S9(5).                       BILLING 
001400 01  WS-DU-RESULT.                                                BILLING 
001500     05  WS-DU-NEW-DATE          PIC 9(8).                        BILLING 
001600     05  WS-DU-WEEKDAY           PIC 9.                           BILLING 
001700 LINKAGE SECTION.                                                 BILLING 
001800 01  LS-INVOICE-IN.                                               BILLING 
001900     05  LS-INVOICE-DATE         PIC 9(8).                        BILLING 
002000     05  LS-NET-DAYS             PIC 9(3).                        BILLING 
002100     05  LS-DISCOUNT-DAYS        PIC 9(3).                        BILLING 
002200 01  LS-INVOICE-OUT.                                              BILLING 
002300     05  LS-DUE-DATE             PIC 9(8).                        BILLING 
002400     05  LS-DUE-WEEKDAY          PIC 9.                           BILLING 
002500     05  LS-DISCOUNT-DATE        PIC 9(8).                        BILLING 
002600 PROCEDURE DIVISION USING LS-INVOICE-IN LS-INVOICE-OUT.           BILLING 
002700 0000-MAINLINE.                                                   BILLING 
002800     PERFORM 1000-DUE-DATE                                        BILLING 
002900     PERFORM 2000-DISCOUNT-DATE                                   BILLING 
003000     GOBACK.                                                      BILLING 
003100 1000-DUE-DATE.                                                   BILLING 
003200     MOVE LS-INVOICE-DATE TO WS-DU-DATE                           BILLING 
003300     MOVE LS-NET-DAYS TO WS-DU-DAYS                               BILLING 
003400     CALL 'DATEUTIL' USING WS-DU-REQUEST WS-DU-RESULT             BILLING 
003500     MOVE WS-DU-NEW-DATE TO LS-DUE-DATE                           BILLING 
003600     MOVE WS-DU-WEEKDAY TO LS-DUE-WEEKDAY.                        BILLING 
003700 2000-DISCOUNT-DATE.                                              BILLING 
003800     MOVE LS-DISCOUNT-DAYS TO WS-DU-DAYS                          BILLING 
003900     CALL WS-DISCOUNT-PGM USING WS-DU-REQUEST WS-DU-RESULT        BILLING 
004000     MOVE WS-DU-NEW-DATE TO LS-DISCOUNT-DATE.                     BILLING 
