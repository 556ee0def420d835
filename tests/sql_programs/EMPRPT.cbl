000100 IDENTIFICATION DIVISION.                                         EMPRPT01
000200 PROGRAM-ID. EMPRPT.                                              EMPRPT02
000300 AUTHOR. PAYROLL SYSTEMS.                                         EMPRPT03
000400*================================================================*EMPRPT04
000500* EMPRPT - ANNUAL SALARY REVIEW FOR ONE DEPARTMENT                *EMPRPT05
000600*   READS THE DEPARTMENT'S EMPLOYEES THROUGH A CURSOR, RAISES     *EMPRPT06
000700*   EACH SALARY BY LS-RAISE-PCT, COMMITS EVERY WS-COMMIT-FREQ     *EMPRPT07
000800*   ROWS AND RETURNS THE COUNT AND THE NEW PAYROLL TOTAL.         *EMPRPT08
000900*   AN EMPLOYEE WITHOUT A SALARY (NULL) IS COUNTED, NOT RAISED.   *EMPRPT09
001000*================================================================*EMPRPT10
001100 ENVIRONMENT DIVISION.                                            EMPRPT11
001200 DATA DIVISION.                                                   EMPRPT12
001300 WORKING-STORAGE SECTION.                                         EMPRPT13
001400     EXEC SQL INCLUDE SQLCA END-EXEC.                             EMPRPT14
001500     EXEC SQL INCLUDE DCLEMPL END-EXEC.                           EMPRPT15
001600 01  WS-COUNTERS.                                                 EMPRPT16
001700     05  WS-COMMIT-FREQ      PIC S9(4)    COMP VALUE +2.          EMPRPT17
001800     05  WS-SINCE-COMMIT     PIC S9(4)    COMP VALUE ZERO.        EMPRPT18
001900     05  WS-NEW-SALARY       PIC S9(7)V99 COMP-3.                 EMPRPT19
002000 01  WS-SWITCHES.                                                 EMPRPT20
002100     05  WS-EOF-SW           PIC X        VALUE 'N'.              EMPRPT21
002200         88  END-OF-CURSOR                VALUE 'Y'.              EMPRPT22
002300 01  WS-SQLCODE-DISP         PIC -(8)9.                           EMPRPT23
002400     EXEC SQL BEGIN DECLARE SECTION END-EXEC.                     EMPRPT24
002500 01  WS-DEPT                 PIC X(3).                            EMPRPT25
002600     EXEC SQL END DECLARE SECTION END-EXEC.                       EMPRPT26
002700     EXEC SQL                                                     EMPRPT27
002800         DECLARE EMPCSR CURSOR WITH HOLD FOR                      EMPRPT28
002900          SELECT EMPNO, LASTNAME, FIRSTNAME, SALARY               EMPRPT29
003000            FROM PAYROLL.EMPLOYEE                                 EMPRPT30
003100           WHERE WORKDEPT = :WS-DEPT                              EMPRPT31
003200           ORDER BY EMPNO                                         EMPRPT32
003300             FOR UPDATE OF SALARY                                 EMPRPT33
003400     END-EXEC.                                                    EMPRPT34
003500 LINKAGE SECTION.                                                 EMPRPT35
003600 01  LS-DEPT-IN              PIC X(3).                            EMPRPT36
003700 01  LS-RAISE-PCT-IN         PIC S9(3)V99 COMP-3.                 EMPRPT37
003800 01  LS-RESULT-OUT.                                               EMPRPT38
003900     05  LS-ROWS-READ        PIC S9(9)    COMP.                   EMPRPT39
004000     05  LS-ROWS-RAISED      PIC S9(9)    COMP.                   EMPRPT40
004100     05  LS-NEW-TOTAL        PIC S9(11)V99 COMP-3.                EMPRPT41
004200     05  LS-LAST-NAME        PIC X(15).                           EMPRPT42
004300     05  LS-SQLCODE          PIC S9(9)    COMP.                   EMPRPT43
004400 PROCEDURE DIVISION USING LS-DEPT-IN LS-RAISE-PCT-IN              EMPRPT44
004500                          LS-RESULT-OUT.                          EMPRPT45
004600 0000-MAINLINE.                                                   EMPRPT46
004700     EXEC SQL WHENEVER SQLERROR GO TO 9999-SQL-ERROR END-EXEC.    EMPRPT47
004800     PERFORM 1000-INITIALIZE                                      EMPRPT48
004900     PERFORM 2000-PROCESS-EMPLOYEE UNTIL END-OF-CURSOR            EMPRPT49
005000     PERFORM 3000-FINISH                                          EMPRPT50
005100     GOBACK.                                                      EMPRPT51
005200                                                                  EMPRPT52
005300 1000-INITIALIZE.                                                 EMPRPT53
005400     INITIALIZE LS-RESULT-OUT                                     EMPRPT54
005500     MOVE LS-DEPT-IN TO WS-DEPT                                   EMPRPT55
005600     EXEC SQL OPEN EMPCSR END-EXEC.                               EMPRPT56
005700                                                                  EMPRPT57
005800 2000-PROCESS-EMPLOYEE.                                           EMPRPT58
005900     EXEC SQL                                                     EMPRPT59
006000         FETCH EMPCSR                                             EMPRPT60
006100          INTO :DCLEMPLOYEE.EMPNO,                                EMPRPT61
006200               :DCLEMPLOYEE.LASTNAME,                             EMPRPT62
006300               :FIRSTNAME,                                        EMPRPT63
006400               :SALARY :IEMP-SALARY                               EMPRPT64
006500     END-EXEC                                                     EMPRPT65
006600     EVALUATE SQLCODE                                             EMPRPT66
006700         WHEN 0                                                   EMPRPT67
006800             ADD 1 TO LS-ROWS-READ                                EMPRPT68
006900             MOVE LASTNAME TO LS-LAST-NAME                        EMPRPT69
007000             IF IEMP-SALARY NOT < 0                               EMPRPT70
007100                 PERFORM 2100-RAISE-SALARY                        EMPRPT71
007200             END-IF                                               EMPRPT72
007300         WHEN +100                                                EMPRPT73
007400             SET END-OF-CURSOR TO TRUE                            EMPRPT74
007500         WHEN OTHER                                               EMPRPT75
007600             GO TO 9999-SQL-ERROR                                 EMPRPT76
007700     END-EVALUATE.                                                EMPRPT77
007800                                                                  EMPRPT78
007900 2100-RAISE-SALARY.                                               EMPRPT79
008000     COMPUTE WS-NEW-SALARY ROUNDED =                              EMPRPT80
008100         SALARY + SALARY * LS-RAISE-PCT-IN / 100                  EMPRPT81
008200     EXEC SQL                                                     EMPRPT82
008300         UPDATE PAYROLL.EMPLOYEE                                  EMPRPT83
008400            SET SALARY     = :WS-NEW-SALARY,                      EMPRPT84
008500                UPDATED_TS = CURRENT TIMESTAMP                    EMPRPT85
008600          WHERE CURRENT OF EMPCSR                                 EMPRPT86
008700     END-EXEC                                                     EMPRPT87
008800     ADD 1 TO LS-ROWS-RAISED WS-SINCE-COMMIT                      EMPRPT88
008900     IF WS-SINCE-COMMIT NOT < WS-COMMIT-FREQ                      EMPRPT89
009000         EXEC SQL COMMIT END-EXEC                                 EMPRPT90
009100         MOVE ZERO TO WS-SINCE-COMMIT                             EMPRPT91
009200     END-IF.                                                      EMPRPT92
009300                                                                  EMPRPT93
009400 3000-FINISH.                                                     EMPRPT94
009500     EXEC SQL CLOSE EMPCSR END-EXEC                               EMPRPT95
009600     EXEC SQL WHENEVER NOT FOUND CONTINUE END-EXEC                EMPRPT96
009700     EXEC SQL                                                     EMPRPT97
009800         SELECT VALUE(SUM(SALARY), 0)                             EMPRPT98
009900           INTO :LS-NEW-TOTAL                                     EMPRPT99
010000           FROM PAYROLL.EMPLOYEE                                  EMPRPT00
010100          WHERE WORKDEPT = :WS-DEPT                               EMPRPT01
010200     END-EXEC                                                     EMPRPT02
010300     EXEC SQL COMMIT END-EXEC.                                    EMPRPT03
010400                                                                  EMPRPT04
010500 9999-SQL-ERROR.                                                  EMPRPT05
010600     MOVE SQLCODE TO LS-SQLCODE WS-SQLCODE-DISP                   EMPRPT06
010700     DISPLAY 'EMPRPT: SQL ERROR ' WS-SQLCODE-DISP ' ' SQLSTATE    EMPRPT07
010800     EXEC SQL WHENEVER SQLERROR CONTINUE END-EXEC                 EMPRPT08
010900     EXEC SQL ROLLBACK END-EXEC                                   EMPRPT09
011000     MOVE 16 TO RETURN-CODE                                       EMPRPT10
011100     GOBACK.                                                      EMPRPT11
