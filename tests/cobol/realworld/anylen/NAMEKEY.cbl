000100 IDENTIFICATION DIVISION.                                         NAMEKEY 
000200 PROGRAM-ID. NAMEKEY.                                             NAMEKEY 
000300*================================================================ NAMEKEY 
000400* Builds the match key of a customer name as the name-and-address NAMEKEY 
000500* de-duplication run does: the name is folded to upper case in    NAMEKEY 
000600* place, and its length, its letter count and a position-weighted NAMEKEY 
000700* checksum of its characters are returned.  The name is passed as NAMEKEY 
000800* PIC X ANY LENGTH, so the routine sees exactly the caller's item.NAMEKEY 
000900*================================================================ NAMEKEY 
001000 AUTHOR. CUSTOMER DATA SERVICES.                                  NAMEKEY 
001100 ENVIRONMENT DIVISION.                                            NAMEKEY 
001200 DATA DIVISION.                                                   NAMEKEY 
001300 WORKING-STORAGE SECTION.                                         NAMEKEY 
001400 01  WS-WORK.                                                     NAMEKEY 
001500     05  WS-POS                  PIC 9(7)  COMP.                  NAMEKEY 
001600     05  WS-LEN                  PIC 9(7)  COMP.                  NAMEKEY 
001700     05  WS-CODE                 PIC 9(4)  COMP.                  NAMEKEY 
001800 LINKAGE SECTION.                                                 NAMEKEY 
001900*    The customer name, folded to upper case on return            NAMEKEY 
002000 01  LS-NAME                     PIC X ANY LENGTH.                NAMEKEY 
002100      COPY NAMEKEYR.                                              NAMEKEY 
002200 PROCEDURE DIVISION USING LS-NAME LS-KEY.                         NAMEKEY 
002300 0000-MAINLINE.                                                   NAMEKEY 
002400     INITIALIZE LS-KEY                                            NAMEKEY 
002500     PERFORM 1000-MEASURE                                         NAMEKEY 
002600     PERFORM 2000-FOLD                                            NAMEKEY 
002700     PERFORM 3000-CHECKSUM                                        NAMEKEY 
002800         VARYING WS-POS FROM 1 BY 1 UNTIL WS-POS > WS-LEN         NAMEKEY 
002900     GOBACK.                                                      NAMEKEY 
003000 1000-MEASURE.                                                    NAMEKEY 
003100     MOVE FUNCTION LENGTH(LS-NAME) TO WS-LEN                      NAMEKEY 
003200     MOVE WS-LEN TO LS-KEY-LENGTH                                 NAMEKEY 
003300     MOVE LS-NAME(1:1) TO LS-KEY-INITIAL.                         NAMEKEY 
003400 2000-FOLD.                                                       NAMEKEY 
003500     INSPECT LS-NAME CONVERTING                                   NAMEKEY 
003600         'abcdefghijklmnopqrstuvwxyz'                             NAMEKEY 
003700         TO 'ABCDEFGHIJKLMNOPQRSTUVWXYZ'.                         NAMEKEY 
003800 3000-CHECKSUM.                                                   NAMEKEY 
003900     COMPUTE WS-CODE = FUNCTION ORD(LS-NAME(WS-POS:1)) - 1        NAMEKEY 
004000     IF LS-NAME(WS-POS:1) IS ALPHABETIC                           NAMEKEY 
004100        AND LS-NAME(WS-POS:1) NOT = SPACE                         NAMEKEY 
004200         ADD 1 TO LS-KEY-LETTERS                                  NAMEKEY 
004300     END-IF                                                       NAMEKEY 
004400     COMPUTE LS-KEY-CHECKSUM =                                    NAMEKEY 
004500         FUNCTION MOD(LS-KEY-CHECKSUM + WS-POS * WS-CODE, 99991). NAMEKEY 
