000200*================================================================*DATELIB
000300* DATELIB - DATE ROUTINES FOR THE CLAIMS SUBSYSTEM               *DATELIB
000400*================================================================*DATELIB
000500 IDENTIFICATION DIVISION.                                         DATELIB
000600 PROGRAM-ID. DTDAYS.                                              DATELIB
000700*    DAYS BETWEEN TWO DATES (YYYYMMDD), SIGNED.                   DATELIB
000800 DATA DIVISION.                                                   DATELIB
000900 LINKAGE SECTION.                                                 DATELIB
001000 01  DT-FROM                 PIC 9(8).                            DATELIB
001100 01  DT-TO                   PIC 9(8).                            DATELIB
001200 01  DT-DAYS                 PIC S9(7).                           DATELIB
001300 PROCEDURE DIVISION USING DT-FROM DT-TO DT-DAYS.                  DATELIB
001400     COMPUTE DT-DAYS = FUNCTION INTEGER-OF-DATE (DT-TO)           DATELIB
001500                     - FUNCTION INTEGER-OF-DATE (DT-FROM)         DATELIB
001600     GOBACK.                                                      DATELIB
001700 END PROGRAM DTDAYS.                                              DATELIB
001800*                                                                 DATELIB
001900 IDENTIFICATION DIVISION.                                         DATELIB
002000 PROGRAM-ID. DTADD.                                               DATELIB
002100*    ADDS A NUMBER OF DAYS TO A DATE (YYYYMMDD).                  DATELIB
002200 DATA DIVISION.                                                   DATELIB
002300 WORKING-STORAGE SECTION.                                         DATELIB
002400 01  WS-INT                  PIC S9(9) COMP.                      DATELIB
002500 LINKAGE SECTION.                                                 DATELIB
002600 01  DA-PARMS.                                                    DATELIB
002700     05  DA-DATE             PIC 9(8).                            DATELIB
002800     05  DA-DAYS             PIC S9(5).                           DATELIB
002900     05  DA-RESULT           PIC 9(8).                            DATELIB
003000 PROCEDURE DIVISION USING DA-PARMS.                               DATELIB
003100     COMPUTE WS-INT = FUNCTION INTEGER-OF-DATE (DA-DATE) + DA-DAYSDATELIB
003200     CALL 'DTFMT' USING WS-INT DA-RESULT                          DATELIB
003300     GOBACK.                                                      DATELIB
003400*    NESTED: NOT CALLABLE FROM OUTSIDE DTADD.                     DATELIB
003500 IDENTIFICATION DIVISION.                                         DATELIB
003600 PROGRAM-ID. DTFMT.                                               DATELIB
003700 DATA DIVISION.                                                   DATELIB
003800 LINKAGE SECTION.                                                 DATELIB
003900 01  LK-INT                  PIC S9(9) COMP.                      DATELIB
004000 01  LK-DATE                 PIC 9(8).                            DATELIB
004100 PROCEDURE DIVISION USING LK-INT LK-DATE.                         DATELIB
004200     COMPUTE LK-DATE = FUNCTION DATE-OF-INTEGER (LK-INT)          DATELIB
004300     GOBACK.                                                      DATELIB
004400 END PROGRAM DTFMT.                                               DATELIB
004500 END PROGRAM DTADD.                                               DATELIB
