IDENTIFICATION DIVISION.
PROGRAM-ID. format-currency.
*> Format an amount as US dollars through a COBOL edited PICTURE: a floating
*> dollar sign, thousands separators, zero suppression and two decimals,
*> rounded half away from zero to the cent (COMPUTE ROUNDED).
*> 1234.56 gives $1,234.56 and -1234.5 gives -$1,234.50. An amount that
*> does not fit $999,999,999,999,999,999.99 sets RETURN-CODE 8.
DATA DIVISION.
WORKING-STORAGE SECTION.
01 WS-CENTS PIC S9(18)V99.
01 WS-EDITED PIC $,$$$,$$$,$$$,$$$,$$$,$$9.99.
LINKAGE SECTION.
01 FORMAT-CURRENCY-IN.
   *> The amount in dollars: up to 18 integer digits and 8 decimal places.
   05 AMOUNT PIC S9(18)V9(8).
01 FORMAT-CURRENCY-OUT.
   *> The amount as dollars and cents, e.g. $1,234.56 or -$0.50.
   05 FORMATTED PIC X(40).
PROCEDURE DIVISION USING FORMAT-CURRENCY-IN FORMAT-CURRENCY-OUT.
    MOVE SPACES TO FORMATTED
    COMPUTE WS-CENTS ROUNDED MODE NEAREST-AWAY-FROM-ZERO = AMOUNT
        ON SIZE ERROR
            MOVE "beyond $999,999,999,999,999,999.99" TO FORMATTED
            MOVE 8 TO RETURN-CODE
            GOBACK
    END-COMPUTE
    MOVE WS-CENTS TO WS-EDITED
    IF WS-CENTS < ZERO
        STRING "-" DELIMITED BY SIZE
               FUNCTION TRIM(WS-EDITED) DELIMITED BY SIZE
               INTO FORMATTED
    ELSE
        MOVE FUNCTION TRIM(WS-EDITED) TO FORMATTED
    END-IF
    GOBACK.
