      * Fixed format without sequence numbers.
       IDENTIFICATION DIVISION.
       PROGRAM-ID. EDITED-OUT.
      * Formats one amount with a selection of edited pictures.
       DATA DIVISION.
       LINKAGE SECTION.
       01  EDIT-REQUEST.
           05  AMOUNT              PIC S9(7)V99.
           05  WHEN-DATE           PIC 9(8).
      * Already edited text may be passed in, too.
           05  PRESET-TEXT         PIC Z,ZZ9.99.
       01  EDIT-RESULT.
           05  ZERO-SUPPRESSED     PIC Z,ZZZ,ZZ9.99.
           05  FLOATING-DOLLAR     PIC $$,$$$,$$9.99.
           05  TRAILING-MINUS      PIC Z(7)9.99-.
           05  LEADING-PLUS        PIC ++++++++9.99.
           05  CHECK-PROTECT       PIC ***,***,**9.99.
           05  CREDIT              PIC Z(7)9.99CR.
           05  DEBIT               PIC Z(7)9.99DB.
           05  SLASHED-DATE        PIC 99/99/9999.
           05  SPACED              PIC XXBXXBXXXX.
           05  BLANK-IF-ZERO       PIC ZZZ9.99 BLANK WHEN ZERO.
           05  IMPLIED-POINT       PIC ZZZZZZ9V99.
       PROCEDURE DIVISION USING EDIT-REQUEST EDIT-RESULT.
           MOVE AMOUNT TO ZERO-SUPPRESSED FLOATING-DOLLAR TRAILING-MINUS
                LEADING-PLUS CHECK-PROTECT CREDIT DEBIT BLANK-IF-ZERO
                IMPLIED-POINT
           MOVE WHEN-DATE TO SLASHED-DATE
           MOVE WHEN-DATE TO SPACED
           GOBACK.
