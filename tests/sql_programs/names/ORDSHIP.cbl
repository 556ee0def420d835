000100 IDENTIFICATION DIVISION.                                         ORDSHP01
000200 PROGRAM-ID. ORDSHIP.                                             ORDSHP02
000300 AUTHOR. ORDER PROCESSING.                                        ORDSHP03
000400*================================================================*ORDSHP04
000500* ORDSHIP - MARK A CUSTOMER'S OPEN ORDERS AS SHIPPED              *ORDSHP05
000600*   WALKS THE CUSTOMER'S ORDERS IN ORD#HIST THROUGH ORDER_CURSOR, *ORDSHP06
000700*   SETS STATUS@ TO 'S' ON EACH OPEN ONE AND RETURNS HOW MANY     *ORDSHP07
000800*   WERE SHIPPED AND THEIR TOTAL AMOUNT.                          *ORDSHP08
000900*================================================================*ORDSHP09
001000 ENVIRONMENT DIVISION.                                            ORDSHP10
001100 DATA DIVISION.                                                   ORDSHP11
001200 WORKING-STORAGE SECTION.                                         ORDSHP12
001300     EXEC SQL INCLUDE SQLCA END-EXEC.                             ORDSHP13
001400 01  WS-ORDER.                                                    ORDSHP14
001500     05  WS-ORD-NO           PIC S9(9)    COMP.                   ORDSHP15
001600     05  WS-STATUS           PIC X(1).                            ORDSHP16
001700     05  WS-AMOUNT           PIC S9(7)V99 COMP-3.                 ORDSHP17
001800 01  WS-CUST-NO              PIC X(6).                            ORDSHP18
001900 01  WS-EOF-SW               PIC X        VALUE 'N'.              ORDSHP19
002000     88  END-OF-ORDERS                    VALUE 'Y'.              ORDSHP20
002100     EXEC SQL                                                     ORDSHP21
002200         DECLARE ORDER_CURSOR CURSOR WITH HOLD FOR                ORDSHP22
002300          SELECT O.ORD#, O.STATUS@, O.AMOUNT$                     ORDSHP23
002400            FROM SHOP.ORD#HIST O                                  ORDSHP24
002500           WHERE O.CUST_NO = :WS-CUST-NO                          ORDSHP25
002600           ORDER BY O.ORD#                                        ORDSHP26
002700             FOR UPDATE OF STATUS@                                ORDSHP27
002800     END-EXEC.                                                    ORDSHP28
002900 LINKAGE SECTION.                                                 ORDSHP29
003000 01  LS-CUST-NO-IN           PIC X(6).                            ORDSHP30
003100 01  LS-RESULT-OUT.                                               ORDSHP31
003200     05  LS-SHIPPED          PIC S9(4)    COMP.                   ORDSHP32
003300     05  LS-SHIPPED-AMT      PIC S9(9)V99 COMP-3.                 ORDSHP33
003400     05  LS-SQLCODE          PIC S9(9)    COMP.                   ORDSHP34
003500 PROCEDURE DIVISION USING LS-CUST-NO-IN LS-RESULT-OUT.            ORDSHP35
003600 0000-MAINLINE.                                                   ORDSHP36
003700     INITIALIZE LS-RESULT-OUT                                     ORDSHP37
003800     MOVE LS-CUST-NO-IN TO WS-CUST-NO                             ORDSHP38
003900     EXEC SQL OPEN ORDER_CURSOR END-EXEC                          ORDSHP39
004000     PERFORM 1000-NEXT-ORDER UNTIL END-OF-ORDERS                  ORDSHP40
004100     EXEC SQL CLOSE ORDER_CURSOR END-EXEC                         ORDSHP41
004200     GOBACK.                                                      ORDSHP42
004300                                                                  ORDSHP43
004400 1000-NEXT-ORDER.                                                 ORDSHP44
004500     EXEC SQL                                                     ORDSHP45
004600         FETCH ORDER_CURSOR                                       ORDSHP46
004700          INTO :WS-ORD-NO, :WS-STATUS, :WS-AMOUNT                 ORDSHP47
004800     END-EXEC                                                     ORDSHP48
004900     EVALUATE SQLCODE                                             ORDSHP49
005000         WHEN 0                                                   ORDSHP50
005100             IF WS-STATUS = 'O'                                   ORDSHP51
005200                 PERFORM 1100-SHIP-ORDER                          ORDSHP52
005300             END-IF                                               ORDSHP53
005400         WHEN +100                                                ORDSHP54
005500             SET END-OF-ORDERS TO TRUE                            ORDSHP55
005600         WHEN OTHER                                               ORDSHP56
005700             MOVE SQLCODE TO LS-SQLCODE                           ORDSHP57
005800             SET END-OF-ORDERS TO TRUE                            ORDSHP58
005900     END-EVALUATE.                                                ORDSHP59
006000                                                                  ORDSHP60
006100 1100-SHIP-ORDER.                                                 ORDSHP61
006200     EXEC SQL                                                     ORDSHP62
006300         UPDATE SHOP.ORD#HIST                                     ORDSHP63
006400            SET STATUS@ = 'S'                                     ORDSHP64
006500          WHERE CURRENT OF ORDER_CURSOR                           ORDSHP65
006600     END-EXEC                                                     ORDSHP66
006700     ADD 1 TO LS-SHIPPED                                          ORDSHP67
006800     ADD WS-AMOUNT TO LS-SHIPPED-AMT.                             ORDSHP68
