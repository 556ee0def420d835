000100 IDENTIFICATION DIVISION.                                         LEAGING
000200 PROGRAM-ID. LEAGING.                                             LEAGING
000300*================================================================ LEAGING
000400* Ages open invoices.  The first input line is the run date       LEAGING
000500* (YYYY-MM-DD); each line after it an invoice number and the      LEAGING
000600* invoice date.  Days outstanding, the weekday and the date in    LEAGING
000700* words come from CEEDAYS, CEEDYWK and CEEDATE.  A run date       LEAGING
000800* that is no date abends the run (CEE3ABD, user abend 3001).      LEAGING
000900*================================================================ LEAGING
001000 ENVIRONMENT DIVISION.                                            LEAGING
001100 DATA DIVISION.                                                   LEAGING
001200 WORKING-STORAGE SECTION.                                         LEAGING
001300 01  WS-LINE                     PIC X(80).                       LEAGING
001400 01  WS-INVOICE-LINE REDEFINES WS-LINE.                           LEAGING
001500     05  WS-INVOICE-NO           PIC X(8).                        LEAGING
001600     05  FILLER                  PIC X.                           LEAGING
001700     05  WS-INVOICE-DATE         PIC X(10).                       LEAGING
001800     05  FILLER                  PIC X(61).                       LEAGING
001900 01  WS-DATE-VSTRING.                                             LEAGING
002000     05  WS-DATE-LEN             PIC S9(4) BINARY VALUE 10.       LEAGING
002100     05  WS-DATE-CHARS           PIC X(10).                       LEAGING
002200 01  WS-ISO-PICTURE.                                              LEAGING
002300     05  FILLER                  PIC S9(4) BINARY VALUE 10.       LEAGING
002400     05  FILLER                  PIC X(10) VALUE 'YYYY-MM-DD'.    LEAGING
002500 01  WS-WORDS-PICTURE.                                            LEAGING
002600     05  FILLER                  PIC S9(4) BINARY VALUE 23.       LEAGING
002700     05  FILLER                  PIC X(23)                        LEAGING
002800                   VALUE 'Wwwwwwwwwz, ZD Mmm YYYY'.               LEAGING
002900 01  WS-RUN-LILIAN               PIC S9(9) BINARY.                LEAGING
003000 01  WS-INV-LILIAN               PIC S9(9) BINARY.                LEAGING
003100 01  WS-WEEKDAY                  PIC S9(9) BINARY.                LEAGING
003200 01  WS-IN-WORDS                 PIC X(80).                       LEAGING
003300 01  WS-DAYS                     PIC S9(7).                       LEAGING
003400 01  WS-DAYS-EDITED              PIC -(6)9.                       LEAGING
003500 01  WS-MSG-NO                   PIC 9(4).                        LEAGING
003600 01  WS-COUNTS.                                                   LEAGING
003700     05  WS-AGED                 PIC 9(3) VALUE ZERO.             LEAGING
003800     05  WS-REJECTED             PIC 9(3) VALUE ZERO.             LEAGING
003900 01  WS-ABEND-CODE               PIC S9(9) BINARY VALUE 3001.     LEAGING
004000 01  WS-TIMING                   PIC S9(9) BINARY VALUE 0.        LEAGING
004100 01  FC.                                                          LEAGING
004200     COPY LEFDBK.                                                 LEAGING
004300 PROCEDURE DIVISION.                                              LEAGING
004400 0000-MAINLINE.                                                   LEAGING
004500     ACCEPT WS-LINE                                               LEAGING
004600     MOVE WS-LINE (1:10) TO WS-DATE-CHARS                         LEAGING
004700     CALL 'CEEDAYS' USING WS-DATE-VSTRING WS-ISO-PICTURE          LEAGING
004800                          WS-RUN-LILIAN FC                        LEAGING
004900     IF NOT FC-CEE000                                             LEAGING
005000         MOVE MSG-NO TO WS-MSG-NO                                 LEAGING
005100         DISPLAY 'RUN DATE ' WS-LINE (1:10) ' REJECTED, MESSAGE ' LEAGING
005200                 WS-MSG-NO                                        LEAGING
005300         PERFORM 9999-ABEND                                       LEAGING
005400     END-IF                                                       LEAGING
005500     ACCEPT WS-LINE                                               LEAGING
005600     PERFORM 1000-AGE-INVOICE UNTIL WS-LINE = SPACES              LEAGING
005700     DISPLAY 'AGED ' WS-AGED ' REJECTED ' WS-REJECTED             LEAGING
005800     STOP RUN.                                                    LEAGING
005900                                                                  LEAGING
006000 1000-AGE-INVOICE.                                                LEAGING
006100     MOVE WS-INVOICE-DATE TO WS-DATE-CHARS                        LEAGING
006200     CALL 'CEEDAYS' USING WS-DATE-VSTRING WS-ISO-PICTURE          LEAGING
006300                          WS-INV-LILIAN FC                        LEAGING
006400     EVALUATE TRUE                                                LEAGING
006500         WHEN FC-CEE000                                           LEAGING
006600             PERFORM 2000-SHOW-AGE                                LEAGING
006700         WHEN FC-CEE2EC                                           LEAGING
006800             DISPLAY WS-INVOICE-NO ' NO SUCH DATE '               LEAGING
006900                     WS-INVOICE-DATE                              LEAGING
007000             ADD 1 TO WS-REJECTED                                 LEAGING
007100         WHEN OTHER                                               LEAGING
007200             MOVE MSG-NO TO WS-MSG-NO                             LEAGING
007300             DISPLAY WS-INVOICE-NO ' BAD DATE ' WS-INVOICE-DATE   LEAGING
007400                     ' MESSAGE ' WS-MSG-NO                        LEAGING
007500             ADD 1 TO WS-REJECTED                                 LEAGING
007600     END-EVALUATE                                                 LEAGING
007700     ACCEPT WS-LINE.                                              LEAGING
007800                                                                  LEAGING
007900 2000-SHOW-AGE.                                                   LEAGING
008000     COMPUTE WS-DAYS = WS-RUN-LILIAN - WS-INV-LILIAN              LEAGING
008100     MOVE WS-DAYS TO WS-DAYS-EDITED                               LEAGING
008200     CALL 'CEEDYWK' USING WS-INV-LILIAN WS-WEEKDAY FC             LEAGING
008300     CALL 'CEEDATE' USING WS-INV-LILIAN WS-WORDS-PICTURE          LEAGING
008400                          WS-IN-WORDS FC                          LEAGING
008500     DISPLAY WS-INVOICE-NO ' ' WS-DAYS-EDITED ' DAY ' WS-WEEKDAY  LEAGING
008600             ' ' WS-IN-WORDS (1:30)                               LEAGING
008700     ADD 1 TO WS-AGED.                                            LEAGING
008800                                                                  LEAGING
008900 9999-ABEND.                                                      LEAGING
009000     DISPLAY 'LEAGING ABENDING'                                   LEAGING
009100     CALL 'CEE3ABD' USING WS-ABEND-CODE WS-TIMING.                LEAGING
