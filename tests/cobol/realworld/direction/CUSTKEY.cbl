000100 IDENTIFICATION DIVISION.                                         CUSTKEY 
000200 PROGRAM-ID. CUSTKEY.                                             CUSTKEY 
000300* Customer search key and label: the key is the upper-cased       CUSTKEY 
000400* surname, the label "SURNAME, First".                            CUSTKEY 
000500 DATA DIVISION.                                                   CUSTKEY 
000600 WORKING-STORAGE SECTION.                                         CUSTKEY 
000700 01  WS-LEN                  PIC 9(4) COMP-5.                     CUSTKEY 
000800 LINKAGE SECTION.                                                 CUSTKEY 
000900 01  CUSTKEY-IN.                                                  CUSTKEY 
001000     05  CK-FIRST-NAME       PIC X(15).                           CUSTKEY 
001100     05  CK-SURNAME          PIC X(20).                           CUSTKEY 
001200 01  CUSTKEY-OUT.                                                 CUSTKEY 
001300     05  CK-SEARCH-KEY       PIC X(20).                           CUSTKEY 
001400     05  CK-LABEL            PIC X(40).                           CUSTKEY 
001500     05  CK-NAME-LENGTH      PIC 9(2).                            CUSTKEY 
001600 01  CK-STYLE                PIC X(5).                            CUSTKEY 
001700 PROCEDURE DIVISION USING CUSTKEY-IN CUSTKEY-OUT CK-STYLE.        CUSTKEY 
001800 MAIN-PARA.                                                       CUSTKEY 
001900     MOVE CK-SURNAME TO CK-SEARCH-KEY                             CUSTKEY 
002000     MOVE LENGTH OF CK-SEARCH-KEY TO WS-LEN                       CUSTKEY 
002100     CALL "CBL_TOUPPER" USING CK-SEARCH-KEY                       CUSTKEY 
002200                              BY VALUE WS-LEN                     CUSTKEY 
002300     CALL "CBL_TOUPPER" USING CK-STYLE                            CUSTKEY 
002400                              BY VALUE 5                          CUSTKEY 
002500     MOVE SPACES TO CK-LABEL                                      CUSTKEY 
002600     STRING CK-SEARCH-KEY DELIMITED BY SPACE                      CUSTKEY 
002700            ", " DELIMITED BY SIZE                                CUSTKEY 
002800            CK-FIRST-NAME DELIMITED BY SPACE                      CUSTKEY 
002900            INTO CK-LABEL                                         CUSTKEY 
003000     END-STRING                                                   CUSTKEY 
003100     MOVE ZERO TO CK-NAME-LENGTH                                  CUSTKEY 
003200     INSPECT CK-SURNAME TALLYING CK-NAME-LENGTH                   CUSTKEY 
003300             FOR CHARACTERS BEFORE INITIAL SPACE                  CUSTKEY 
003400     GOBACK.                                                      CUSTKEY 
