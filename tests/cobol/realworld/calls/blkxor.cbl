000100 IDENTIFICATION DIVISION.                                         SETTLE  
000200 PROGRAM-ID. BLKXOR.                                              SETTLE  
000300*================================================================ SETTLE  
000400* Mask an 8-byte block with the interface key (XOR), as the       SETTLE  
000500* settlement link does before a block goes on the wire.           SETTLE  
000600*================================================================ SETTLE  
000700 ENVIRONMENT DIVISION.                                            SETTLE  
000800 DATA DIVISION.                                                   SETTLE  
000900 WORKING-STORAGE SECTION.                                         SETTLE  
001000 01  WS-LINK-KEY                 PIC X(8)                         SETTLE  
001100                                 VALUE X'1B2C3D4E5F607168'.       SETTLE  
001200 LINKAGE SECTION.                                                 SETTLE  
001300 01  LS-BLOCK-IN.                                                 SETTLE  
001400     05  LS-PLAIN-BLOCK          PIC X(8).                        SETTLE  
001500 01  LS-BLOCK-OUT.                                                SETTLE  
001600     05  LS-MASKED-BLOCK         PIC X(8).                        SETTLE  
001700 PROCEDURE DIVISION USING LS-BLOCK-IN LS-BLOCK-OUT.               SETTLE  
001800 0000-MAINLINE.                                                   SETTLE  
001900     MOVE LS-PLAIN-BLOCK TO LS-MASKED-BLOCK                       SETTLE  
002000     CALL 'CBL_XOR' USING WS-LINK-KEY LS-MASKED-BLOCK             SETTLE  
002100                          BY VALUE LENGTH OF LS-MASKED-BLOCK      SETTLE  
002200     GOBACK.                                                      SETTLE  
