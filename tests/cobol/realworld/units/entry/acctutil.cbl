000010*===============================================================* ACCTUTIL
000020* ACCTUTIL - ACCOUNT UTILITIES FOR THE BRANCH TELLER SYSTEM     * ACCTUTIL
000030*===============================================================* ACCTUTIL
000040 IDENTIFICATION DIVISION.                                         ACCTUTIL
000050 PROGRAM-ID. ACCTUTIL.                                            ACCTUTIL
000060*    MONTHLY INTEREST ON A SAVINGS BALANCE (RATE IN PERCENT P.A.).ACCTUTIL
000070 DATA DIVISION.                                                   ACCTUTIL
000080 WORKING-STORAGE SECTION.                                         ACCTUTIL
000090 01  WS-MONTHLY-RATE         PIC S9(3)V9(7) COMP-3.               ACCTUTIL
000100 LINKAGE SECTION.                                                 ACCTUTIL
000110 01  INT-REQUEST.                                                 ACCTUTIL
000120     05  IR-BALANCE          PIC S9(9)V99 COMP-3.                 ACCTUTIL
000130     05  IR-RATE-PCT         PIC 9(2)V9(3).                       ACCTUTIL
000140 01  INT-RESULT.                                                  ACCTUTIL
000150     05  IR-INTEREST         PIC S9(9)V99 COMP-3.                 ACCTUTIL
000160 01  FEE-INPUT.                                                   ACCTUTIL
000170     05  FI-TXN-COUNT        PIC 9(4).                            ACCTUTIL
000180     05  FI-PACKAGE          PIC X.                               ACCTUTIL
000190         88  FI-PREMIUM-PKG          VALUE 'P'.                   ACCTUTIL
000195         88  FI-STANDARD-PKG         VALUE 'S'.                   ACCTUTIL
000200 01  FEE-OUTPUT.                                                  ACCTUTIL
000210     05  FO-FEE              PIC 9(5)V99.                         ACCTUTIL
000220 PROCEDURE DIVISION USING INT-REQUEST INT-RESULT.                 ACCTUTIL
000230 0000-INTEREST.                                                   ACCTUTIL
000240     COMPUTE WS-MONTHLY-RATE = IR-RATE-PCT / 1200                 ACCTUTIL
000250     COMPUTE IR-INTEREST ROUNDED = IR-BALANCE * WS-MONTHLY-RATE   ACCTUTIL
000260     GOBACK.                                                      ACCTUTIL
000270*                                                                 ACCTUTIL
000280     ENTRY 'ACCTFEE' USING FEE-INPUT FEE-OUTPUT.                  ACCTUTIL
000290*    MONTHLY ACCOUNT FEE: 0.25 A TRANSACTION PAST THE FIRST 20,   ACCTUTIL
000300*    NONE ON THE PREMIUM PACKAGE.                                 ACCTUTIL
000310 1000-FEE.                                                        ACCTUTIL
000320     IF FI-PREMIUM-PKG                                            ACCTUTIL
000330         MOVE ZERO TO FO-FEE                                      ACCTUTIL
000340     ELSE                                                         ACCTUTIL
000350         IF FI-TXN-COUNT > 20                                     ACCTUTIL
000360             COMPUTE FO-FEE = (FI-TXN-COUNT - 20) * 0.25          ACCTUTIL
000370         ELSE                                                     ACCTUTIL
000380             MOVE ZERO TO FO-FEE                                  ACCTUTIL
000390         END-IF                                                   ACCTUTIL
000400     END-IF                                                       ACCTUTIL
000410     GOBACK.                                                      ACCTUTIL
