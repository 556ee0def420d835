000100 IDENTIFICATION DIVISION.                                         LEDATES
000200 PROGRAM-ID. LEDATES.                                             LEDATES
000300*================================================================ LEDATES
000400* Date and time through the Language Environment callable         LEDATES
000500* services, as a z/OS program calls them: one service per         LEDATES
000600* request (LE-SERVICE-IN), its feedback code classified by the    LEDATES
000700* condition names of the LEFDBK copybook.                         LEDATES
000800*================================================================ LEDATES
000900 ENVIRONMENT DIVISION.                                            LEDATES
001000 DATA DIVISION.                                                   LEDATES
001100 WORKING-STORAGE SECTION.                                         LEDATES
001200 01  WS-DATE-VSTRING.                                             LEDATES
001300     05  WS-DATE-LEN             PIC S9(4) BINARY.                LEDATES
001400     05  WS-DATE-CHARS           PIC X(60).                       LEDATES
001500 01  WS-PICTURE-VSTRING.                                          LEDATES
001600     05  WS-PICTURE-LEN          PIC S9(4) BINARY.                LEDATES
001700     05  WS-PICTURE-CHARS        PIC X(40).                       LEDATES
001800 01  WS-LILIAN                   PIC S9(9) BINARY.                LEDATES
001900 01  WS-DAY-NO                   PIC S9(9) BINARY.                LEDATES
002000 01  WS-SECONDS                  COMP-2.                          LEDATES
002100 01  WS-TIMESTAMP                PIC X(80).                       LEDATES
002200 01  WS-GREGORIAN                PIC X(17).                       LEDATES
002300 01  WS-PARTS.                                                    LEDATES
002400     05  WS-PART                 PIC S9(9) BINARY OCCURS 7.       LEDATES
002500 01  WS-CODES.                                                    LEDATES
002600     05  WS-CODE                 PIC S9(4) BINARY OCCURS 5.       LEDATES
002700 01  WS-FACILITY                 PIC X(3).                        LEDATES
002800 01  WS-ISINFO                   PIC S9(9) BINARY.                LEDATES
002900 01  WS-ABEND-CODE               PIC S9(9) BINARY.                LEDATES
003000 01  WS-TIMING                   PIC S9(9) BINARY VALUE 1.        LEDATES
003100 01  WS-I                        PIC S9(4) BINARY.                LEDATES
003200 01  FC.                                                          LEDATES
003300     COPY LEFDBK.                                                 LEDATES
003400 LINKAGE SECTION.                                                 LEDATES
003500 01  LE-REQUEST.                                                  LEDATES
003600     05  LE-SERVICE-IN           PIC X(4).                        LEDATES
003700     05  LE-TEXT-IN              PIC X(60).                       LEDATES
003800     05  LE-TEXT-LEN-IN          PIC 9(3).                        LEDATES
003900     05  LE-PICTURE-IN           PIC X(40).                       LEDATES
004000     05  LE-PICTURE-LEN-IN       PIC 9(3).                        LEDATES
004100     05  LE-LILIAN-IN            PIC S9(9).                       LEDATES
004200     05  LE-SECONDS-IN           PIC S9(12)V9(3).                 LEDATES
004300     05  LE-PART-IN              PIC S9(9) OCCURS 7.              LEDATES
004400 01  LE-REPLY.                                                    LEDATES
004500     05  LE-LILIAN-OUT           PIC S9(9).                       LEDATES
004600     05  LE-SECONDS-OUT          PIC S9(12)V9(3).                 LEDATES
004700     05  LE-TEXT-OUT             PIC X(80).                       LEDATES
004800     05  LE-PART-OUT             PIC S9(9) OCCURS 7.              LEDATES
004900     05  LE-CONDITION-OUT        PIC X(6).                        LEDATES
005000     05  LE-SEVERITY-OUT         PIC S9(4).                       LEDATES
005100     05  LE-MSG-NO-OUT           PIC S9(4).                       LEDATES
005200     05  LE-TOKEN-OUT            PIC X(12).                       LEDATES
005300 PROCEDURE DIVISION USING LE-REQUEST LE-REPLY.                    LEDATES
005400 0000-MAINLINE.                                                   LEDATES
005500     INITIALIZE LE-REPLY                                          LEDATES
005600     MOVE LOW-VALUES TO FC                                        LEDATES
005700     PERFORM 1000-SET-STRINGS                                     LEDATES
005800     EVALUATE LE-SERVICE-IN                                       LEDATES
005900         WHEN 'DAYS'                                              LEDATES
006000             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
006100                                  WS-PICTURE-VSTRING              LEDATES
006200                                  WS-LILIAN FC                    LEDATES
006300             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
006400         WHEN 'CBDY'                                              LEDATES
006500             CALL 'CEECBLDY' USING WS-DATE-VSTRING                LEDATES
006600                                   WS-PICTURE-VSTRING             LEDATES
006700                                   WS-LILIAN FC                   LEDATES
006800             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
006900         WHEN 'NOFC'                                              LEDATES
007000             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
007100                                  WS-PICTURE-VSTRING              LEDATES
007200                                  WS-LILIAN OMITTED               LEDATES
007300             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
007400         WHEN 'SECS'                                              LEDATES
007500             CALL 'CEESECS' USING WS-DATE-VSTRING                 LEDATES
007600                                  WS-PICTURE-VSTRING              LEDATES
007700                                  WS-SECONDS FC                   LEDATES
007800             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
007900         WHEN 'DATE'                                              LEDATES
008000             MOVE LE-LILIAN-IN TO WS-LILIAN                       LEDATES
008100             CALL 'CEEDATE' USING WS-LILIAN WS-PICTURE-VSTRING    LEDATES
008200                                  WS-TIMESTAMP FC                 LEDATES
008300             MOVE WS-TIMESTAMP TO LE-TEXT-OUT                     LEDATES
008400         WHEN 'DATM'                                              LEDATES
008500             COMPUTE WS-SECONDS = LE-SECONDS-IN                   LEDATES
008600             CALL 'CEEDATM' USING WS-SECONDS WS-PICTURE-VSTRING   LEDATES
008700                                  WS-TIMESTAMP FC                 LEDATES
008800             MOVE WS-TIMESTAMP TO LE-TEXT-OUT                     LEDATES
008900         WHEN 'DYWK'                                              LEDATES
009000             MOVE LE-LILIAN-IN TO WS-LILIAN                       LEDATES
009100             CALL 'CEEDYWK' USING WS-LILIAN WS-DAY-NO FC          LEDATES
009200             MOVE WS-DAY-NO TO LE-PART-OUT (1)                    LEDATES
009300         WHEN 'ISEC'                                              LEDATES
009400             PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 7      LEDATES
009500                 MOVE LE-PART-IN (WS-I) TO WS-PART (WS-I)         LEDATES
009600             END-PERFORM                                          LEDATES
009700             CALL 'CEEISEC' USING WS-PART (1) WS-PART (2)         LEDATES
009800                                  WS-PART (3) WS-PART (4)         LEDATES
009900                                  WS-PART (5) WS-PART (6)         LEDATES
010000                                  WS-PART (7) WS-SECONDS FC       LEDATES
010100             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
010200         WHEN 'SECI'                                              LEDATES
010300             COMPUTE WS-SECONDS = LE-SECONDS-IN                   LEDATES
010400             CALL 'CEESECI' USING WS-SECONDS WS-PART (1)          LEDATES
010500                                  WS-PART (2) WS-PART (3)         LEDATES
010600                                  WS-PART (4) WS-PART (5)         LEDATES
010700                                  WS-PART (6) WS-PART (7) FC      LEDATES
010800             PERFORM 2000-RETURN-PARTS                            LEDATES
010900         WHEN 'DCOD'                                              LEDATES
011000             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
011100                                  WS-PICTURE-VSTRING              LEDATES
011200                                  WS-LILIAN FC                    LEDATES
011300             CALL 'CEEDCOD' USING FC WS-CODE (1) WS-CODE (2)      LEDATES
011400                                  WS-CODE (3) WS-CODE (4)         LEDATES
011500                                  WS-CODE (5) WS-FACILITY         LEDATES
011600                                  WS-ISINFO OMITTED               LEDATES
011700             PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5      LEDATES
011800                 MOVE WS-CODE (WS-I) TO LE-PART-OUT (WS-I)        LEDATES
011900             END-PERFORM                                          LEDATES
012000             MOVE WS-ISINFO TO LE-PART-OUT (6)                    LEDATES
012100             MOVE WS-FACILITY TO LE-TEXT-OUT                      LEDATES
012200         WHEN 'LOCT'                                              LEDATES
012300             CALL 'CEELOCT' USING WS-LILIAN WS-SECONDS            LEDATES
012400                                  WS-GREGORIAN FC                 LEDATES
012500             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
012600             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
012700             MOVE WS-GREGORIAN TO LE-TEXT-OUT                     LEDATES
012800         WHEN 'GMT '                                              LEDATES
012900             CALL 'CEEGMT' USING WS-LILIAN WS-SECONDS FC          LEDATES
013000             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
013100             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
013200         WHEN 'GMTO'                                              LEDATES
013300             CALL 'CEEGMTO' USING WS-PART (1) WS-PART (2)         LEDATES
013400                                  WS-SECONDS FC                   LEDATES
013500             PERFORM 2000-RETURN-PARTS                            LEDATES
013600             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
013700         WHEN 'ABND'                                              LEDATES
013800             MOVE LE-LILIAN-IN TO WS-ABEND-CODE                   LEDATES
013900             CALL 'CEE3ABD' USING WS-ABEND-CODE WS-TIMING         LEDATES
014000     END-EVALUATE                                                 LEDATES
014100     PERFORM 3000-CLASSIFY-FEEDBACK                               LEDATES
014200     GOBACK.                                                      LEDATES
014300                                                                  LEDATES
014400 1000-SET-STRINGS.                                                LEDATES
014500     MOVE LE-TEXT-IN TO WS-DATE-CHARS                             LEDATES
014600     MOVE LE-TEXT-LEN-IN TO WS-DATE-LEN                           LEDATES
014700     MOVE LE-PICTURE-IN TO WS-PICTURE-CHARS                       LEDATES
014800     MOVE LE-PICTURE-LEN-IN TO WS-PICTURE-LEN.                    LEDATES
014900                                                                  LEDATES
015000 2000-RETURN-PARTS.                                               LEDATES
015100     PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 7              LEDATES
015200         MOVE WS-PART (WS-I) TO LE-PART-OUT (WS-I)                LEDATES
015300     END-PERFORM.                                                 LEDATES
015400                                                                  LEDATES
015500 3000-CLASSIFY-FEEDBACK.                                          LEDATES
015600     MOVE SEVERITY TO LE-SEVERITY-OUT                             LEDATES
015700     MOVE MSG-NO TO LE-MSG-NO-OUT                                 LEDATES
015800     MOVE FC TO LE-TOKEN-OUT                                      LEDATES
015900     EVALUATE TRUE                                                LEDATES
016000         WHEN FC-CEE000  MOVE 'CEE000' TO LE-CONDITION-OUT        LEDATES
016100         WHEN FC-CEE2E9  MOVE 'CEE2E9' TO LE-CONDITION-OUT        LEDATES
016200         WHEN FC-CEE2EB  MOVE 'CEE2EB' TO LE-CONDITION-OUT        LEDATES
016300         WHEN FC-CEE2EC  MOVE 'CEE2EC' TO LE-CONDITION-OUT        LEDATES
016400         WHEN FC-CEE2EE  MOVE 'CEE2EE' TO LE-CONDITION-OUT        LEDATES
016500         WHEN FC-CEE2EF  MOVE 'CEE2EF' TO LE-CONDITION-OUT        LEDATES
016600         WHEN FC-CEE2EG  MOVE 'CEE2EG' TO LE-CONDITION-OUT        LEDATES
016700         WHEN FC-CEE2EH  MOVE 'CEE2EH' TO LE-CONDITION-OUT        LEDATES
016800         WHEN FC-CEE2EI  MOVE 'CEE2EI' TO LE-CONDITION-OUT        LEDATES
016900         WHEN FC-CEE2EL  MOVE 'CEE2EL' TO LE-CONDITION-OUT        LEDATES
017000         WHEN FC-CEE2EM  MOVE 'CEE2EM' TO LE-CONDITION-OUT        LEDATES
017100         WHEN FC-CEE2EO  MOVE 'CEE2EO' TO LE-CONDITION-OUT        LEDATES
017200         WHEN FC-CEE2ET  MOVE 'CEE2ET' TO LE-CONDITION-OUT        LEDATES
017300         WHEN OTHER      MOVE 'OTHER ' TO LE-CONDITION-OUT        LEDATES
017400     END-EVALUATE.                                                LEDATES
