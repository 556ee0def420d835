000100 IDENTIFICATION DIVISION.                                         FACTURA
000200 PROGRAM-ID. FACTURA.                                             FACTURA
000300*    Invoice line for the continental branches: net amount, VAT   FACTURA
000400*    at the rate asked (21,00 % when none is given) and the gross FACTURA
000500*    amount, printed with a decimal comma.                        FACTURA
000600 ENVIRONMENT DIVISION.                                            FACTURA
000700 CONFIGURATION SECTION.                                           FACTURA
000800 SPECIAL-NAMES.                                                   FACTURA
000900     DECIMAL-POINT IS COMMA.                                      FACTURA
001000 DATA DIVISION.                                                   FACTURA
001100 WORKING-STORAGE SECTION.                                         FACTURA
001200 01  WS-VAT                  PIC S9(9)V99 COMP-3.                 FACTURA
001300 LINKAGE SECTION.                                                 FACTURA
001400 01  FA-INVOICE-REQUEST.                                          FACTURA
001500     05  FA-NET-AMOUNT       PIC S9(9)V99.                        FACTURA
001600     05  FA-VAT-RATE         PIC 9(2)V99 VALUE 21,00.             FACTURA
001700     05  FA-DISCOUNT         PIC SV999 VALUE ,125.                FACTURA
001800     05  FA-REGION           PIC X(2).                            FACTURA
001900         88  FA-EURO-ZONE    VALUE "ES" "FR" "DE" "IT".           FACTURA
002000 01  FA-INVOICE-RESULT.                                           FACTURA
002100     05  FA-VAT-AMOUNT       PIC S9(9)V99.                        FACTURA
002200     05  FA-GROSS-AMOUNT     PIC S9(9)V99.                        FACTURA
002300     05  FA-GROSS-PRINTED    PIC -ZZZ.ZZZ.ZZ9,99.                 FACTURA
002400     05  FA-RATE-PRINTED     PIC Z9,99.                           FACTURA
002500     05  FA-STATUS           PIC X(2).                            FACTURA
002600 PROCEDURE DIVISION USING FA-INVOICE-REQUEST FA-INVOICE-RESULT.   FACTURA
002700 0000-MAIN.                                                       FACTURA
002800     COMPUTE WS-VAT ROUNDED =                                     FACTURA
002900         FA-NET-AMOUNT * (1 - FA-DISCOUNT) * FA-VAT-RATE / 100    FACTURA
003000     MOVE WS-VAT TO FA-VAT-AMOUNT                                 FACTURA
003100     COMPUTE FA-GROSS-AMOUNT =                                    FACTURA
003200         FA-NET-AMOUNT * (1 - FA-DISCOUNT) + WS-VAT               FACTURA
003300     MOVE FA-GROSS-AMOUNT TO FA-GROSS-PRINTED                     FACTURA
003400     MOVE FA-VAT-RATE TO FA-RATE-PRINTED                          FACTURA
003500     IF FA-EURO-ZONE                                              FACTURA
003600         MOVE "OK" TO FA-STATUS                                   FACTURA
003700     ELSE                                                         FACTURA
003800         MOVE "XR" TO FA-STATUS                                   FACTURA
003900     END-IF                                                       FACTURA
004000     GOBACK.                                                      FACTURA
