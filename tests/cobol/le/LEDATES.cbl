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
002400     05  WS-YEAR                 PIC S9(9) BINARY.                LEDATES
002500     05  WS-MONTH                PIC S9(9) BINARY.                LEDATES
002600     05  WS-DAY                  PIC S9(9) BINARY.                LEDATES
002700     05  WS-HOURS                PIC S9(9) BINARY.                LEDATES
002800     05  WS-MINUTES              PIC S9(9) BINARY.                LEDATES
002900     05  WS-SECS                 PIC S9(9) BINARY.                LEDATES
003000     05  WS-MILLIS               PIC S9(9) BINARY.                LEDATES
003100 01  WS-PART-TABLE REDEFINES WS-PARTS.                            LEDATES
003200     05  WS-PART                 PIC S9(9) BINARY OCCURS 7.       LEDATES
003300 01  WS-CODES.                                                    LEDATES
003400     05  WS-C1                   PIC S9(4) BINARY.                LEDATES
003500     05  WS-C2                   PIC S9(4) BINARY.                LEDATES
003600     05  WS-CASE                 PIC S9(4) BINARY.                LEDATES
003700     05  WS-SEVERITY             PIC S9(4) BINARY.                LEDATES
003800     05  WS-CONTROL              PIC S9(4) BINARY.                LEDATES
003900 01  WS-CODE-TABLE REDEFINES WS-CODES.                            LEDATES
004000     05  WS-CODE                 PIC S9(4) BINARY OCCURS 5.       LEDATES
004100 01  WS-FACILITY                 PIC X(3).                        LEDATES
004200 01  WS-ISINFO                   PIC S9(9) BINARY.                LEDATES
004300 01  WS-ABEND-CODE               PIC S9(9) BINARY.                LEDATES
004400 01  WS-TIMING                   PIC S9(9) BINARY VALUE 1.        LEDATES
004500 01  WS-I                        PIC S9(4) BINARY.                LEDATES
004600 01  FC.                                                          LEDATES
004700     COPY LEFDBK.                                                 LEDATES
004800 LINKAGE SECTION.                                                 LEDATES
004900 01  LE-REQUEST.                                                  LEDATES
005000     05  LE-SERVICE-IN           PIC X(4).                        LEDATES
005100     05  LE-TEXT-IN              PIC X(60).                       LEDATES
005200     05  LE-TEXT-LEN-IN          PIC 9(3).                        LEDATES
005300     05  LE-PICTURE-IN           PIC X(40).                       LEDATES
005400     05  LE-PICTURE-LEN-IN       PIC 9(3).                        LEDATES
005500     05  LE-LILIAN-IN            PIC S9(9).                       LEDATES
005600     05  LE-SECONDS-IN           PIC S9(12)V9(3).                 LEDATES
005700     05  LE-PART-IN              PIC S9(9) OCCURS 7.              LEDATES
005800 01  LE-REPLY.                                                    LEDATES
005900     05  LE-LILIAN-OUT           PIC S9(9).                       LEDATES
006000     05  LE-SECONDS-OUT          PIC S9(12)V9(3).                 LEDATES
006100     05  LE-TEXT-OUT             PIC X(80).                       LEDATES
006200     05  LE-PART-OUT             PIC S9(9) OCCURS 7.              LEDATES
006300     05  LE-CONDITION-OUT        PIC X(6).                        LEDATES
006400     05  LE-SEVERITY-OUT         PIC S9(4).                       LEDATES
006500     05  LE-MSG-NO-OUT           PIC S9(4).                       LEDATES
006600     05  LE-TOKEN-OUT            PIC X(12).                       LEDATES
006700 PROCEDURE DIVISION USING LE-REQUEST LE-REPLY.                    LEDATES
006800 0000-MAINLINE.                                                   LEDATES
006900     INITIALIZE LE-REPLY                                          LEDATES
007000     MOVE LOW-VALUES TO FC                                        LEDATES
007100     PERFORM 1000-SET-STRINGS                                     LEDATES
007200     EVALUATE LE-SERVICE-IN                                       LEDATES
007300         WHEN 'DAYS'                                              LEDATES
007400             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
007500                                  WS-PICTURE-VSTRING              LEDATES
007600                                  WS-LILIAN FC                    LEDATES
007700             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
007800         WHEN 'CBDY'                                              LEDATES
007900             CALL 'CEECBLDY' USING WS-DATE-VSTRING                LEDATES
008000                                   WS-PICTURE-VSTRING             LEDATES
008100                                   WS-LILIAN FC                   LEDATES
008200             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
008300         WHEN 'NOFC'                                              LEDATES
008400             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
008500                                  WS-PICTURE-VSTRING              LEDATES
008600                                  WS-LILIAN OMITTED               LEDATES
008700             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
008800         WHEN 'SECS'                                              LEDATES
008900             CALL 'CEESECS' USING WS-DATE-VSTRING                 LEDATES
009000                                  WS-PICTURE-VSTRING              LEDATES
009100                                  WS-SECONDS FC                   LEDATES
009200             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
009300         WHEN 'DATE'                                              LEDATES
009400             MOVE LE-LILIAN-IN TO WS-LILIAN                       LEDATES
009500             CALL 'CEEDATE' USING WS-LILIAN WS-PICTURE-VSTRING    LEDATES
009600                                  WS-TIMESTAMP FC                 LEDATES
009700             MOVE WS-TIMESTAMP TO LE-TEXT-OUT                     LEDATES
009800         WHEN 'DATM'                                              LEDATES
009900             COMPUTE WS-SECONDS = LE-SECONDS-IN                   LEDATES
010000             CALL 'CEEDATM' USING WS-SECONDS WS-PICTURE-VSTRING   LEDATES
010100                                  WS-TIMESTAMP FC                 LEDATES
010200             MOVE WS-TIMESTAMP TO LE-TEXT-OUT                     LEDATES
010300         WHEN 'DYWK'                                              LEDATES
010400             MOVE LE-LILIAN-IN TO WS-LILIAN                       LEDATES
010500             CALL 'CEEDYWK' USING WS-LILIAN WS-DAY-NO FC          LEDATES
010600             MOVE WS-DAY-NO TO LE-PART-OUT (1)                    LEDATES
010700         WHEN 'ISEC'                                              LEDATES
010800             PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 7      LEDATES
010900                 MOVE LE-PART-IN (WS-I) TO WS-PART (WS-I)         LEDATES
011000             END-PERFORM                                          LEDATES
011100             CALL 'CEEISEC' USING WS-YEAR WS-MONTH                LEDATES
011200                                  WS-DAY WS-HOURS                 LEDATES
011300                                  WS-MINUTES WS-SECS              LEDATES
011400                                  WS-MILLIS WS-SECONDS FC         LEDATES
011500             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
011600         WHEN 'SECI'                                              LEDATES
011700             COMPUTE WS-SECONDS = LE-SECONDS-IN                   LEDATES
011800             CALL 'CEESECI' USING WS-SECONDS WS-YEAR              LEDATES
011900                                  WS-MONTH WS-DAY                 LEDATES
012000                                  WS-HOURS WS-MINUTES             LEDATES
012100                                  WS-SECS WS-MILLIS FC            LEDATES
012200             PERFORM 2000-RETURN-PARTS                            LEDATES
012300         WHEN 'DCOD'                                              LEDATES
012400             CALL 'CEEDAYS' USING WS-DATE-VSTRING                 LEDATES
012500                                  WS-PICTURE-VSTRING              LEDATES
012600                                  WS-LILIAN FC                    LEDATES
012700             CALL 'CEEDCOD' USING FC WS-C1 WS-C2                  LEDATES
012800                                  WS-CASE WS-SEVERITY             LEDATES
012900                                  WS-CONTROL WS-FACILITY          LEDATES
013000                                  WS-ISINFO OMITTED               LEDATES
013100             PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 5      LEDATES
013200                 MOVE WS-CODE (WS-I) TO LE-PART-OUT (WS-I)        LEDATES
013300             END-PERFORM                                          LEDATES
013400             MOVE WS-ISINFO TO LE-PART-OUT (6)                    LEDATES
013500             MOVE WS-FACILITY TO LE-TEXT-OUT                      LEDATES
013600         WHEN 'LOCT'                                              LEDATES
013700             CALL 'CEELOCT' USING WS-LILIAN WS-SECONDS            LEDATES
013800                                  WS-GREGORIAN FC                 LEDATES
013900             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
014000             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
014100             MOVE WS-GREGORIAN TO LE-TEXT-OUT                     LEDATES
014200         WHEN 'GMT '                                              LEDATES
014300             CALL 'CEEGMT' USING WS-LILIAN WS-SECONDS FC          LEDATES
014400             MOVE WS-LILIAN TO LE-LILIAN-OUT                      LEDATES
014500             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
014600         WHEN 'GMTO'                                              LEDATES
014700             CALL 'CEEGMTO' USING WS-YEAR WS-MONTH                LEDATES
014800                                  WS-SECONDS FC                   LEDATES
014900             PERFORM 2000-RETURN-PARTS                            LEDATES
015000             COMPUTE LE-SECONDS-OUT ROUNDED = WS-SECONDS          LEDATES
015100         WHEN 'ABND'                                              LEDATES
015200             MOVE LE-LILIAN-IN TO WS-ABEND-CODE                   LEDATES
015300             CALL 'CEE3ABD' USING WS-ABEND-CODE WS-TIMING         LEDATES
015400     END-EVALUATE                                                 LEDATES
015500     PERFORM 3000-CLASSIFY-FEEDBACK                               LEDATES
015600     GOBACK.                                                      LEDATES
015700                                                                  LEDATES
015800 1000-SET-STRINGS.                                                LEDATES
015900     MOVE LE-TEXT-IN TO WS-DATE-CHARS                             LEDATES
016000     MOVE LE-TEXT-LEN-IN TO WS-DATE-LEN                           LEDATES
016100     MOVE LE-PICTURE-IN TO WS-PICTURE-CHARS                       LEDATES
016200     MOVE LE-PICTURE-LEN-IN TO WS-PICTURE-LEN.                    LEDATES
016300                                                                  LEDATES
016400 2000-RETURN-PARTS.                                               LEDATES
016500     PERFORM VARYING WS-I FROM 1 BY 1 UNTIL WS-I > 7              LEDATES
016600         MOVE WS-PART (WS-I) TO LE-PART-OUT (WS-I)                LEDATES
016700     END-PERFORM.                                                 LEDATES
016800                                                                  LEDATES
016900 3000-CLASSIFY-FEEDBACK.                                          LEDATES
017000     MOVE SEVERITY TO LE-SEVERITY-OUT                             LEDATES
017100     MOVE MSG-NO TO LE-MSG-NO-OUT                                 LEDATES
017200     MOVE FC TO LE-TOKEN-OUT                                      LEDATES
017300     EVALUATE TRUE                                                LEDATES
017400         WHEN FC-CEE000  MOVE 'CEE000' TO LE-CONDITION-OUT        LEDATES
017500         WHEN FC-CEE2E9  MOVE 'CEE2E9' TO LE-CONDITION-OUT        LEDATES
017600         WHEN FC-CEE2EB  MOVE 'CEE2EB' TO LE-CONDITION-OUT        LEDATES
017700         WHEN FC-CEE2EC  MOVE 'CEE2EC' TO LE-CONDITION-OUT        LEDATES
017800         WHEN FC-CEE2EE  MOVE 'CEE2EE' TO LE-CONDITION-OUT        LEDATES
017900         WHEN FC-CEE2EF  MOVE 'CEE2EF' TO LE-CONDITION-OUT        LEDATES
018000         WHEN FC-CEE2EG  MOVE 'CEE2EG' TO LE-CONDITION-OUT        LEDATES
018100         WHEN FC-CEE2EH  MOVE 'CEE2EH' TO LE-CONDITION-OUT        LEDATES
018200         WHEN FC-CEE2EI  MOVE 'CEE2EI' TO LE-CONDITION-OUT        LEDATES
018300         WHEN FC-CEE2EJ  MOVE 'CEE2EJ' TO LE-CONDITION-OUT        LEDATES
018400         WHEN FC-CEE2EK  MOVE 'CEE2EK' TO LE-CONDITION-OUT        LEDATES
018500         WHEN FC-CEE2EL  MOVE 'CEE2EL' TO LE-CONDITION-OUT        LEDATES
018600         WHEN FC-CEE2EM  MOVE 'CEE2EM' TO LE-CONDITION-OUT        LEDATES
018700         WHEN FC-CEE2EN  MOVE 'CEE2EN' TO LE-CONDITION-OUT        LEDATES
018800         WHEN FC-CEE2EO  MOVE 'CEE2EO' TO LE-CONDITION-OUT        LEDATES
018900         WHEN FC-CEE2ET  MOVE 'CEE2ET' TO LE-CONDITION-OUT        LEDATES
019000         WHEN OTHER      MOVE 'OTHER ' TO LE-CONDITION-OUT        LEDATES
019100     END-EVALUATE.                                                LEDATES
