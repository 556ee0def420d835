000100 IDENTIFICATION DIVISION.                                         PREMCALC
000200 PROGRAM-ID. PREMCALC.                                            PREMCALC
000300* Annual premium of a term life policy: base rate per thousand    PREMCALC
000400* of sum insured by age band, loaded 50% for smokers.             PREMCALC
000500 AUTHOR. UNDERWRITING SYSTEMS.                                    PREMCALC
000600 DATA DIVISION.                                                   PREMCALC
000700 WORKING-STORAGE SECTION.                                         PREMCALC
000800 01  WS-RATE                 PIC 9(2)V99.                         PREMCALC
000900 01  WS-LOADING              PIC 9V99.                            PREMCALC
001000 LINKAGE SECTION.                                                 PREMCALC
001100* Age of the insured at the policy date.                          PREMCALC
001200 01  LS-AGE                  PIC 9(3).                            PREMCALC
001300* Sum insured in dollars.                                         PREMCALC
001400 01  LS-SUM-INSURED          PIC 9(9)V99.                         PREMCALC
001500* Y when the insured smokes.                                      PREMCALC
001600 01  LS-SMOKER               PIC X.                               PREMCALC
001700     88  LS-IS-SMOKER        VALUE "Y".                           PREMCALC
001800     88  LS-NON-SMOKER       VALUE "N".                           PREMCALC
001900* Agent code, kept for the interface of the old batch job.        PREMCALC
002000 01  LS-AGENT-CODE           PIC X(6).                            PREMCALC
002100* Annual premium in dollars.                                      PREMCALC
002200 01  LS-PREMIUM              PIC 9(7)V99.                         PREMCALC
002300* 0 ok, 8 age outside 18-99, 12 no sum insured.                   PREMCALC
002400 01  LS-RC                   PIC 9(2).                            PREMCALC
002500 PROCEDURE DIVISION USING LS-AGE LS-SUM-INSURED LS-SMOKER         PREMCALC
002600                          LS-AGENT-CODE LS-PREMIUM LS-RC.         PREMCALC
002700 0000-MAIN.                                                       PREMCALC
002800     PERFORM 1000-VALIDATE THRU 1000-EXIT                         PREMCALC
002900     IF LS-RC = ZERO                                              PREMCALC
003000         PERFORM 2000-RATE                                        PREMCALC
003100         PERFORM 3000-PREMIUM                                     PREMCALC
003200     END-IF                                                       PREMCALC
003300     GOBACK.                                                      PREMCALC
003400 1000-VALIDATE.                                                   PREMCALC
003500     MOVE ZERO TO LS-RC                                           PREMCALC
003600     MOVE ZERO TO LS-PREMIUM                                      PREMCALC
003700     IF LS-AGE < 18 OR LS-AGE > 99                                PREMCALC
003800         MOVE 8 TO LS-RC                                          PREMCALC
003900         GO TO 1000-EXIT                                          PREMCALC
004000     END-IF                                                       PREMCALC
004100     IF LS-SUM-INSURED = ZERO                                     PREMCALC
004200         MOVE 12 TO LS-RC                                         PREMCALC
004300     END-IF.                                                      PREMCALC
004400 1000-EXIT.                                                       PREMCALC
004500     EXIT.                                                        PREMCALC
004600 2000-RATE.                                                       PREMCALC
004700     EVALUATE TRUE                                                PREMCALC
004800         WHEN LS-AGE < 30                                         PREMCALC
004900             MOVE 1.20 TO WS-RATE                                 PREMCALC
005000         WHEN LS-AGE < 50                                         PREMCALC
005100             MOVE 2.50 TO WS-RATE                                 PREMCALC
005200         WHEN LS-AGE < 65                                         PREMCALC
005300             MOVE 4.75 TO WS-RATE                                 PREMCALC
005400         WHEN OTHER                                               PREMCALC
005500             MOVE 9.10 TO WS-RATE                                 PREMCALC
005600     END-EVALUATE                                                 PREMCALC
005700     IF LS-IS-SMOKER                                              PREMCALC
005800         MOVE 1.50 TO WS-LOADING                                  PREMCALC
005900     ELSE                                                         PREMCALC
006000         MOVE 1.00 TO WS-LOADING                                  PREMCALC
006100     END-IF.                                                      PREMCALC
006200 3000-PREMIUM.                                                    PREMCALC
006300     COMPUTE LS-PREMIUM ROUNDED =                                 PREMCALC
006400         LS-SUM-INSURED * WS-RATE * WS-LOADING / 1000.            PREMCALC
