000100 IDENTIFICATION DIVISION.                                         DATECHK
000200 PROGRAM-ID. DATECHK.                                             DATECHK
000300* Checks that a YYYYMMDD date is a real calendar date. The caller DATECHK
000400* id and the reserved area stay in the parameter list for the     DATECHK
000500* programs that already call it; this version does not use them.  DATECHK
000600 DATA DIVISION.                                                   DATECHK
000700 LINKAGE SECTION.                                                 DATECHK
000800 01  DK-DATE                 PIC 9(8).                            DATECHK
000900 01  DK-VERDICT              PIC X.                               DATECHK
001000     88  DK-DATE-OK          VALUE "Y".                           DATECHK
001100     88  DK-DATE-BAD         VALUE "N".                           DATECHK
001200 01  DK-CALLER-ID            PIC X(8).                            DATECHK
001300 01  DK-RESERVED             PIC X(20).                           DATECHK
001400 PROCEDURE DIVISION USING DK-DATE DK-VERDICT DK-CALLER-ID         DATECHK
001500                          DK-RESERVED.                            DATECHK
001600 0000-MAIN.                                                       DATECHK
001700     IF FUNCTION TEST-DATE-YYYYMMDD (DK-DATE) = 0                 DATECHK
001800         SET DK-DATE-OK TO TRUE                                   DATECHK
001900     ELSE                                                         DATECHK
002000         SET DK-DATE-BAD TO TRUE                                  DATECHK
002100     END-IF                                                       DATECHK
002200     GOBACK.                                                      DATECHK
