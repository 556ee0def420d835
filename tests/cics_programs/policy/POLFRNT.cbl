       IDENTIFICATION DIVISION.
       PROGRAM-ID. POLFRNT.
      *================================================================*
      * POLFRNT - FRONT END OF THE POLICY SERVICE                      *
      *   VALIDATES THE COMMAREA (POLCOMM) AND, BY REQUEST TYPE,       *
      *   LINKS TO THE VSAM BACK END POLVSAM (THE POLICY FILE) AND     *
      *   THE DB2 BACK END POLDB2 (THE POLICY ROW AND ITS PREMIUM):    *
      *     ADDPOL  ADD A POLICY; NUMBER ZERO TAKES A NEW ONE FROM THE *
      *             NAMED COUNTER POLICYNO, OR WHEN THE COUNTER IS NOT *
      *             THERE FROM THE DB2 IDENTITY OF POLICY.POLNUMS      *
      *     INQPOL  READ A POLICY                                      *
      *     UPDPOL  CHANGE THE HOLDER NAME AND/OR THE SUM INSURED      *
      *     DELPOL  DELETE A POLICY                                    *
      *   A REFUSED REQUEST IS LOGGED TO THE TS QUEUE POLERRS. AN      *
      *   ABEND IN A BACK END IS NOTED ON CSMT AND ABENDS THE TASK     *
      *   AGAIN: EVERYTHING THE TASK DID IS BACKED OUT.                *
      *================================================================*
       DATA DIVISION.
       WORKING-STORAGE SECTION.
       01  WS-PROGRAMS.
           05  WS-VSAM-BACKEND         PIC X(8)  VALUE 'POLVSAM'.
           05  WS-DB2-BACKEND          PIC X(8)  VALUE 'POLDB2'.
       01  WS-RESP                     PIC S9(8) COMP.
       01  WS-RESP2                    PIC S9(8) COMP.
       01  WS-NEXT-NO                  PIC S9(8) COMP.
       01  WS-ABCODE                   PIC X(4).
       01  WS-ERR-QUEUE                PIC X(8)  VALUE 'POLERRS'.
       01  WS-LOG-LINE.
           05  WS-LOG-PROGRAM          PIC X(8)  VALUE 'POLFRNT'.
           05  FILLER                  PIC X     VALUE SPACE.
           05  WS-LOG-REQUEST          PIC X(6).
           05  FILLER                  PIC X     VALUE SPACE.
           05  WS-LOG-POLICY-NO        PIC 9(8).
           05  FILLER                  PIC X     VALUE SPACE.
           05  WS-LOG-RC               PIC 9(2).
           05  FILLER                  PIC X     VALUE SPACE.
           05  WS-LOG-TEXT             PIC X(40).
       01  WS-ABEND-LINE.
           05  FILLER                  PIC X(15) VALUE
               'POLFRNT ABEND '.
           05  WS-ABEND-CODE           PIC X(4).
           05  FILLER                  PIC X(9)  VALUE ' REQUEST '.
           05  WS-ABEND-REQUEST        PIC X(6).
           EXEC SQL INCLUDE SQLCA END-EXEC.
           EXEC SQL BEGIN DECLARE SECTION END-EXEC.
       01  WS-TASKN                    PIC S9(9) COMP.
       01  WS-IDENTITY                 PIC S9(9) COMP.
           EXEC SQL END DECLARE SECTION END-EXEC.
       LINKAGE SECTION.
           COPY POLCOMM.
       PROCEDURE DIVISION.
       0000-MAIN.
           IF EIBCALEN < LENGTH OF DFHCOMMAREA
               EXEC CICS ABEND ABCODE('PCAL') NODUMP END-EXEC
           END-IF
           EXEC CICS HANDLE ABEND LABEL(9900-ABEND-EXIT) END-EXEC
           MOVE 0 TO PC-RETURN-CODE PC-RESP
           MOVE SPACES TO PC-MESSAGE
           EVALUATE TRUE
               WHEN PC-REQ-ADD
                   PERFORM 1000-ADD-POLICY
               WHEN PC-REQ-INQUIRE
                   PERFORM 2000-INQUIRE-POLICY
               WHEN PC-REQ-UPDATE
                   PERFORM 3000-UPDATE-POLICY
               WHEN PC-REQ-DELETE
                   PERFORM 4000-DELETE-POLICY
               WHEN OTHER
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'UNKNOWN REQUEST TYPE' TO PC-MESSAGE
           END-EVALUATE
           IF NOT PC-OK
               PERFORM 8000-LOG-ERROR
           END-IF
           EXEC CICS RETURN END-EXEC.

       1000-ADD-POLICY.
           EVALUATE TRUE
               WHEN PC-HOLDER-NAME = SPACES
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'A HOLDER NAME IS REQUIRED' TO PC-MESSAGE
               WHEN NOT PC-PRODUCT-KNOWN
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'UNKNOWN PRODUCT' TO PC-MESSAGE
               WHEN PC-SUM-INSURED NOT > ZERO
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'THE SUM INSURED MUST BE POSITIVE' TO PC-MESSAGE
           END-EVALUATE
           IF PC-OK
               IF PC-POLICY-NO = ZERO
                   PERFORM 1100-NEW-POLICY-NO
               END-IF
               PERFORM 7000-LINK-VSAM
               IF PC-OK
                   PERFORM 7100-LINK-DB2
               END-IF
           END-IF.

       1100-NEW-POLICY-NO.
           EXEC CICS GET COUNTER('POLICYNO') POOL('POLPOOL')
                     VALUE(WS-NEXT-NO)
                     RESP(WS-RESP) RESP2(WS-RESP2)
           END-EXEC
           IF WS-RESP = DFHRESP(NORMAL)
               MOVE WS-NEXT-NO TO PC-POLICY-NO
           ELSE
               MOVE EIBTASKN TO WS-TASKN
               EXEC SQL
                   INSERT INTO POLICY.POLNUMS (TASKN)
                   VALUES (:WS-TASKN)
               END-EXEC
               IF SQLCODE NOT = 0
                   EXEC CICS ABEND ABCODE('PNUM') END-EXEC
               END-IF
               EXEC SQL
                   SET :WS-IDENTITY = IDENTITY_VAL_LOCAL()
               END-EXEC
               MOVE WS-IDENTITY TO PC-POLICY-NO
           END-IF.

       2000-INQUIRE-POLICY.
           IF PC-POLICY-NO = ZERO
               MOVE 12 TO PC-RETURN-CODE
               MOVE 'A POLICY NUMBER IS REQUIRED' TO PC-MESSAGE
           ELSE
               PERFORM 7000-LINK-VSAM
               IF PC-OK
                   PERFORM 7100-LINK-DB2
               END-IF
           END-IF.

       3000-UPDATE-POLICY.
           EVALUATE TRUE
               WHEN PC-CHG-POLICY-NO = ZERO
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'A POLICY NUMBER IS REQUIRED' TO PC-MESSAGE
               WHEN PC-CHG-HOLDER-NAME = SPACES
                AND PC-CHG-SUM-INSURED = ZERO
                   MOVE 12 TO PC-RETURN-CODE
                   MOVE 'NOTHING TO CHANGE' TO PC-MESSAGE
               WHEN OTHER
                   PERFORM 7000-LINK-VSAM
                   IF PC-OK
                       PERFORM 7100-LINK-DB2
                   END-IF
           END-EVALUATE.

       4000-DELETE-POLICY.
           IF PC-KEY-POLICY-NO = ZERO
               MOVE 12 TO PC-RETURN-CODE
               MOVE 'A POLICY NUMBER IS REQUIRED' TO PC-MESSAGE
           ELSE
               PERFORM 7000-LINK-VSAM
               IF PC-OK
                   PERFORM 7100-LINK-DB2
               END-IF
           END-IF.

       7000-LINK-VSAM.
           EXEC CICS LINK PROGRAM(WS-VSAM-BACKEND)
                     COMMAREA(DFHCOMMAREA)
                     LENGTH(LENGTH OF DFHCOMMAREA)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               EXEC CICS ABEND ABCODE('PLNK') END-EXEC
           END-IF.

       7100-LINK-DB2.
           EXEC CICS LINK PROGRAM(WS-DB2-BACKEND)
                     COMMAREA(DFHCOMMAREA)
                     LENGTH(LENGTH OF DFHCOMMAREA)
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               EXEC CICS ABEND ABCODE('PLNK') END-EXEC
           END-IF.

       8000-LOG-ERROR.
           MOVE PC-REQUEST-ID TO WS-LOG-REQUEST
           MOVE PC-KEY-POLICY-NO TO WS-LOG-POLICY-NO
           MOVE PC-RETURN-CODE TO WS-LOG-RC
           MOVE PC-MESSAGE TO WS-LOG-TEXT
           EXEC CICS WRITEQ TS QUEUE(WS-ERR-QUEUE)
                     FROM(WS-LOG-LINE)
                     LENGTH(LENGTH OF WS-LOG-LINE)
                     AUXILIARY
                     RESP(WS-RESP)
           END-EXEC
           IF WS-RESP NOT = DFHRESP(NORMAL)
               EXEC CICS WRITEQ TD QUEUE('CSMT')
                         FROM(WS-LOG-LINE)
                         LENGTH(LENGTH OF WS-LOG-LINE)
               END-EXEC
           END-IF.

       9900-ABEND-EXIT.
           EXEC CICS ASSIGN ABCODE(WS-ABCODE) END-EXEC
           MOVE WS-ABCODE TO WS-ABEND-CODE
           MOVE PC-REQUEST-ID TO WS-ABEND-REQUEST
           EXEC CICS WRITEQ TD QUEUE('CSMT')
                     FROM(WS-ABEND-LINE)
                     LENGTH(LENGTH OF WS-ABEND-LINE)
           END-EXEC
           EXEC CICS ABEND ABCODE(WS-ABCODE) NODUMP END-EXEC.
