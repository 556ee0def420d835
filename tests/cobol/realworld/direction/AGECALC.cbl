000100 IDENTIFICATION DIVISION.                                         AGECALC
000200 PROGRAM-ID. AGECALC.                                             AGECALC
000300* Age in whole years and months between a birth date and an       AGECALC
000400* as-of date (both YYYYMMDD). The result is set only when the     AGECALC
000500* as-of date is not earlier than the birth date.                  AGECALC
000600 DATA DIVISION.                                                   AGECALC
000700 WORKING-STORAGE SECTION.                                         AGECALC
000800 01  WS-FROM                 PIC 9(8).                            AGECALC
000900 01  WS-FROM-X REDEFINES WS-FROM.                                 AGECALC
001000     05  WS-FROM-YYYY        PIC 9(4).                            AGECALC
001100     05  WS-FROM-MM          PIC 9(2).                            AGECALC
001200     05  WS-FROM-DD          PIC 9(2).                            AGECALC
001300 01  WS-TO                   PIC 9(8).                            AGECALC
001400 01  WS-TO-X REDEFINES WS-TO.                                     AGECALC
001500     05  WS-TO-YYYY          PIC 9(4).                            AGECALC
001600     05  WS-TO-MM            PIC 9(2).                            AGECALC
001700     05  WS-TO-DD            PIC 9(2).                            AGECALC
001800 01  WS-MONTHS               PIC S9(5) COMP.                      AGECALC
001900 LINKAGE SECTION.                                                 AGECALC
002000 01  IN-AGE-DATES.                                                AGECALC
002100     05  IN-BIRTH-DATE       PIC 9(8).                            AGECALC
002200     05  IN-AS-OF-DATE       PIC 9(8).                            AGECALC
002300 01  OUT-AGE.                                                     AGECALC
002400     05  OUT-YEARS           PIC 9(3).                            AGECALC
002500     05  OUT-MONTHS          PIC 9(2).                            AGECALC
002600 PROCEDURE DIVISION USING IN-AGE-DATES OUT-AGE.                   AGECALC
002700 0000-MAIN.                                                       AGECALC
002800     IF IN-AS-OF-DATE NOT < IN-BIRTH-DATE                         AGECALC
002900         PERFORM 1000-AGE                                         AGECALC
003000     END-IF                                                       AGECALC
003100     GOBACK.                                                      AGECALC
003200 1000-AGE.                                                        AGECALC
003300     MOVE IN-BIRTH-DATE TO WS-FROM                                AGECALC
003400     MOVE IN-AS-OF-DATE TO WS-TO                                  AGECALC
003500     COMPUTE WS-MONTHS = (WS-TO-YYYY - WS-FROM-YYYY) * 12         AGECALC
003600                       + WS-TO-MM - WS-FROM-MM                    AGECALC
003700     IF WS-TO-DD < WS-FROM-DD                                     AGECALC
003800         SUBTRACT 1 FROM WS-MONTHS                                AGECALC
003900     END-IF                                                       AGECALC
004000     DIVIDE WS-MONTHS BY 12 GIVING OUT-YEARS                      AGECALC
004100         REMAINDER OUT-MONTHS.                                    AGECALC
