000100 IDENTIFICATION DIVISION.                                         EMPR0001
000200 PROGRAM-ID. EMPRAISE.                                            EMPR0002
000300*----------------------------------------------------------------*EMPR0003
000400* RAISE SALARIES OF ONE DEPARTMENT, COMMIT EVERY 50 ROWS.        *EMPR0004
000500*----------------------------------------------------------------*EMPR0005
000600 DATA DIVISION.                                                   EMPR0006
000700 WORKING-STORAGE SECTION.                                         EMPR0007
000800     EXEC SQL INCLUDE SQLCA END-EXEC.                             EMPR0008
000900     EXEC SQL INCLUDE DCLEMP END-EXEC.                            EMPR0009
001000     EXEC SQL BEGIN DECLARE SECTION END-EXEC.                     EMPR0010
001100 01  WS-DEPT                 PIC X(3).                            EMPR0011
001200 01  WS-EMP.                                                      EMPR0012
001300     05  WS-EMPNO            PIC S9(9) COMP.                      EMPR0013
001400     05  WS-SALARY           PIC S9(7)V99 COMP-3.                 EMPR0014
001500 01  WS-SAL-IND              PIC S9(4) COMP.                      EMPR0015
001600 01  WS-COUNT                PIC S9(9) COMP.                      EMPR0016
001700     EXEC SQL END DECLARE SECTION END-EXEC.                       EMPR0017
001800 01  WS-MSG                  PIC X(20) VALUE 'EXEC SQL NOT HERE'. EMPR0018
001900     EXEC SQL                                                     EMPR0019
002000         DECLARE EMPCUR CURSOR WITH HOLD FOR                      EMPR0020
002100         SELECT EMPNO, SALARY                                     EMPR0021
002200           FROM PAYROLL.EMPLOYEE                                  EMPR0022
002300          WHERE WORKDEPT = :WS-DEPT                               EMPR0023
002400            FOR UPDATE OF SALARY                                  EMPR0024
002500     END-EXEC.                                                    EMPR0025
002600 LINKAGE SECTION.                                                 EMPR0026
002700 01  LS-DEPT                 PIC X(3).                            EMPR0027
002800 PROCEDURE DIVISION USING LS-DEPT.                                EMPR0028
002900 0000-MAIN.                                                       EMPR0029
003000     EXEC SQL WHENEVER SQLERROR GO TO 9999-ABEND END-EXEC         EMPR0030
003100     MOVE LS-DEPT TO WS-DEPT                                      EMPR0031
003200     EXEC SQL                                                     EMPR0032
003300         SELECT COUNT(*)                                          EMPR0033
003400           INTO :WS-COUNT                                         EMPR0034
003500           FROM PAYROLL.EMPLOYEE                                  EMPR0035
003600          WHERE WORKDEPT = :WS-DEPT                               EMPR0036
003700     END-EXEC                                                     EMPR0037
003800     EXEC SQL OPEN EMPCUR END-EXEC                                EMPR0038
003900     PERFORM UNTIL SQLCODE NOT = 0                                EMPR0039
004000         EXEC SQL                                                 EMPR0040
004100             FETCH EMPCUR                                         EMPR0041
004200              INTO :WS-EMP.WS-EMPNO,                              EMPR0042
004300                   :WS-SALARY:WS-SAL-IND                          EMPR0043
004400         END-EXEC                                                 EMPR0044
004500         EVALUATE SQLCODE                                         EMPR0045
004600           WHEN 0                                                 EMPR0046
004700             EXEC SQL                                             EMPR0047
004800                 UPDATE PAYROLL.EMPLOYEE                          EMPR0048
004900                    SET SALARY = SALARY * 1.05,                   EMPR0049
005000                        UPDATED_TS = CURRENT TIMESTAMP            EMPR0050
005100                  WHERE CURRENT OF EMPCUR                         EMPR0051
005200             END-EXEC                                             EMPR0052
005300           WHEN 100                                               EMPR0053
005400             CONTINUE                                             EMPR0054
005500           WHEN OTHER                                             EMPR0055
005550             GO TO 9999-ABEND                                     EMPR0056
005600     END-PERFORM                                                  EMPR0056
005700     EXEC SQL CLOSE EMPCUR END-EXEC                               EMPR0057
005800     EXEC SQL                                                     EMPR0058
005900         SET :WS-COUNT INDICATOR :WS-SAL-IND = :WS-COUNT + 1      EMPR0059
006000     END-EXEC                                                     EMPR0060
006100     EXEC SQL CONNECT TO PAYDB END-EXEC                           EMPR0061
006200     EXEC SQL COMMIT END-EXEC.                                    EMPR0062
006300     GOBACK.                                                      EMPR0063
006400 9999-ABEND.                                                      EMPR0064
006500     EXEC SQL ROLLBACK END-EXEC                                   EMPR0065
006600     EXEC SQL                                                     EMPR0066
006700         SELECT LASTNAME FROM PAYROLL.EMPLOYEE                    EMPR0067
006800     END-EXEC                                                     EMPR0068
006900     GOBACK.                                                      EMPR0069
