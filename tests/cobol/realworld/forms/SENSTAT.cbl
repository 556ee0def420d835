000100 IDENTIFICATION DIVISION.                                         SENSTAT
000200 PROGRAM-ID. SENSTAT.                                             SENSTAT
000300*    Summarise the readings of one sensor station: total, lowest, SENSTAT
000400*    highest and mean of the readings sent.                       SENSTAT
000500 DATA DIVISION.                                                   SENSTAT
000600 WORKING-STORAGE SECTION.                                         SENSTAT
000700 01  WS-IX                   USAGE INDEX.                         SENSTAT
000800 LINKAGE SECTION.                                                 SENSTAT
000900 01  LS-SENSOR-REQUEST.                                           SENSTAT
001000*        Station code, national characters                        SENSTAT
001100     05  LS-STATION          PIC N(6).                            SENSTAT
001150     05  LS-STATION-X        REDEFINES LS-STATION PIC X(12).      SENSTAT
001200     05  LS-COUNT            BINARY-CHAR UNSIGNED.                SENSTAT
001300     05  LS-READING          BINARY-SHORT SIGNED OCCURS 5 TIMES.  SENSTAT
001400     05  LS-SERIAL           USAGE BINARY-DOUBLE UNSIGNED.        SENSTAT
001500     05  LS-OFFSET           BINARY-CHAR.                         SENSTAT
001600     05  LS-SCALE            FLOAT-SHORT.                         SENSTAT
001700 01  LS-SENSOR-RESULT.                                            SENSTAT
001800     05  LS-STATION-OUT      PIC N(6).                            SENSTAT
001850     05  LS-STATION-OUT-X    REDEFINES LS-STATION-OUT PIC X(12).  SENSTAT
001900     05  LS-TOTAL            BINARY-LONG.                         SENSTAT
002000     05  LS-LOWEST           BINARY-SHORT.                        SENSTAT
002100     05  LS-HIGHEST          BINARY-SHORT.                        SENSTAT
002200     05  LS-SERIAL-NEXT      BINARY-DOUBLE UNSIGNED.              SENSTAT
002300     05  LS-MEAN             FLOAT-LONG.                          SENSTAT
002400     05  LS-LAST-IX          USAGE INDEX.                         SENSTAT
002500     05  LS-SHOWN            PIC 9(5) BLANK WHEN ZERO.            SENSTAT
002600 77  LS-STATUS               PIC X(2).                            SENSTAT
002700     88  LS-OK               VALUE "00".                          SENSTAT
002800     88  LS-WARNING          VALUE "01" THRU "09" "W1".           SENSTAT
002900     88  LS-FAILED           VALUE "90" THRU "99".                SENSTAT
003000 PROCEDURE DIVISION USING LS-SENSOR-REQUEST LS-SENSOR-RESULT      SENSTAT
003100                          LS-STATUS.                              SENSTAT
003200 0000-MAIN.                                                       SENSTAT
003300     MOVE LS-STATION-X TO LS-STATION-OUT-X                        SENSTAT
003400     MOVE ZERO TO LS-TOTAL LS-SHOWN                               SENSTAT
003500     MOVE 32767 TO LS-LOWEST                                      SENSTAT
003600     MOVE -32768 TO LS-HIGHEST                                    SENSTAT
003700     IF LS-COUNT > 5                                              SENSTAT
003800         MOVE "91" TO LS-STATUS                                   SENSTAT
003900         GOBACK                                                   SENSTAT
004000     END-IF                                                       SENSTAT
004100     PERFORM 1000-ADD-READING                                     SENSTAT
004200         VARYING WS-IX FROM 1 BY 1 UNTIL WS-IX > LS-COUNT         SENSTAT
004300     SET LS-LAST-IX TO WS-IX                                      SENSTAT
004400     IF LS-COUNT > 0                                              SENSTAT
004500         COMPUTE LS-MEAN = LS-TOTAL * LS-SCALE / LS-COUNT         SENSTAT
004600     ELSE                                                         SENSTAT
004700         MOVE 0 TO LS-MEAN                                        SENSTAT
004800     END-IF                                                       SENSTAT
004900     COMPUTE LS-SHOWN = LS-COUNT * 10                             SENSTAT
005000     COMPUTE LS-SERIAL-NEXT = LS-SERIAL + 1                       SENSTAT
005100     IF LS-COUNT = 0                                              SENSTAT
005200         MOVE "W1" TO LS-STATUS                                   SENSTAT
005300     ELSE                                                         SENSTAT
005400         MOVE "00" TO LS-STATUS                                   SENSTAT
005500     END-IF                                                       SENSTAT
005600     GOBACK.                                                      SENSTAT
005700 1000-ADD-READING.                                                SENSTAT
005800     COMPUTE LS-TOTAL = LS-TOTAL + LS-READING (WS-IX) + LS-OFFSET SENSTAT
005900     IF LS-READING (WS-IX) < LS-LOWEST                            SENSTAT
006000         MOVE LS-READING (WS-IX) TO LS-LOWEST                     SENSTAT
006100     END-IF                                                       SENSTAT
006200     IF LS-READING (WS-IX) > LS-HIGHEST                           SENSTAT
006300         MOVE LS-READING (WS-IX) TO LS-HIGHEST                    SENSTAT
006400     END-IF.                                                      SENSTAT
