000100 IDENTIFICATION DIVISION.                                         PADLEN  
000200 PROGRAM-ID. PADLEN.                                              PADLEN  
000300*================================================================ PADLEN  
000400* Pads a reference to the length given (old interface: the        PADLEN  
000500* length is a big-endian COMP item passed BY VALUE).              PADLEN  
000600*================================================================ PADLEN  
000700 DATA DIVISION.                                                   PADLEN  
000800 LINKAGE SECTION.                                                 PADLEN  
000900 01  LS-REF                      PIC X(20).                       PADLEN  
001000 01  LS-LEN                      PIC S9(9) COMP.                  PADLEN  
001100 PROCEDURE DIVISION USING BY REFERENCE LS-REF                     PADLEN  
001200                          BY VALUE LS-LEN.                        PADLEN  
001300 0000-MAINLINE.                                                   PADLEN  
001400     IF LS-LEN > 0 AND LS-LEN < 20                                PADLEN  
001500         MOVE ALL '*' TO LS-REF (LS-LEN + 1:)                     PADLEN  
001600     END-IF                                                       PADLEN  
001700     GOBACK.                                                      PADLEN  
