000100 IDENTIFICATION DIVISION.                                         LEDUECIC
000200 PROGRAM-ID. LEDUECIC.                                            LEDUECIC
000300*================================================================ LEDUECIC
000400* Due date of a payment under CICS: the date received plus the    LEDUECIC
000500* terms in days, through CEEDAYS and CEEDATE.  A received date    LEDUECIC
000600* that is no date abends the task with CEE3ABD (user abend 4001). LEDUECIC
000700*================================================================ LEDUECIC
000800 ENVIRONMENT DIVISION.                                            LEDUECIC
000900 DATA DIVISION.                                                   LEDUECIC
001000 WORKING-STORAGE SECTION.                                         LEDUECIC
001100 01  WS-DATE-VSTRING.                                             LEDUECIC
001200     05  WS-DATE-LEN             PIC S9(4) BINARY VALUE 10.       LEDUECIC
001300     05  WS-DATE-CHARS           PIC X(10).                       LEDUECIC
001400 01  WS-ISO-PICTURE.                                              LEDUECIC
001500     05  FILLER                  PIC S9(4) BINARY VALUE 10.       LEDUECIC
001600     05  FILLER                  PIC X(10) VALUE 'YYYY-MM-DD'.    LEDUECIC
001700 01  WS-LILIAN                   PIC S9(9) BINARY.                LEDUECIC
001800 01  WS-DUE-TEXT                 PIC X(80).                       LEDUECIC
001900 01  WS-ABEND-CODE               PIC S9(9) BINARY VALUE 4001.     LEDUECIC
002000 01  WS-TIMING                   PIC S9(9) BINARY VALUE 1.        LEDUECIC
002100 01  FC.                                                          LEDUECIC
002200     COPY LEFDBK.                                                 LEDUECIC
002300 LINKAGE SECTION.                                                 LEDUECIC
002400 01  DFHCOMMAREA.                                                 LEDUECIC
002500     05  CA-RECEIVED-DATE        PIC X(10).                       LEDUECIC
002600     05  CA-TERMS-DAYS           PIC 9(3).                        LEDUECIC
002700     05  CA-DUE-DATE             PIC X(10).                       LEDUECIC
002800 PROCEDURE DIVISION.                                              LEDUECIC
002900 0000-MAINLINE.                                                   LEDUECIC
003000     MOVE CA-RECEIVED-DATE TO WS-DATE-CHARS                       LEDUECIC
003100     CALL 'CEEDAYS' USING WS-DATE-VSTRING WS-ISO-PICTURE          LEDUECIC
003200                          WS-LILIAN FC                            LEDUECIC
003300     IF NOT FC-CEE000                                             LEDUECIC
003400         CALL 'CEE3ABD' USING WS-ABEND-CODE WS-TIMING             LEDUECIC
003500     END-IF                                                       LEDUECIC
003600     ADD CA-TERMS-DAYS TO WS-LILIAN                               LEDUECIC
003700     CALL 'CEEDATE' USING WS-LILIAN WS-ISO-PICTURE WS-DUE-TEXT FC LEDUECIC
003800     MOVE WS-DUE-TEXT TO CA-DUE-DATE                              LEDUECIC
003900     EXEC CICS RETURN END-EXEC.                                   LEDUECIC
