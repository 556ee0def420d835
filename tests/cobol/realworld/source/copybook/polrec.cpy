000100*    POLICY DATA PASSED BY THE CALLER (POLICY ADMIN LAYOUT 3)
000200 01  LS-POLICY-IN.
000300*        Policy number, as printed on the schedule
000400     05  LS-POLICY-NO          PIC X(10).
000500*        Annual premium rate before age and discount factors
000600     05  LS-ANNUAL-RATE        PIC S9(7)V99 COMP-3.
000700*        Age of the insured in whole years
000800     05  LS-AGE                PIC 9(3).
000900*        N: none, L: loyalty, M: multi-policy
001000     05  LS-DISCOUNT-CODE      PIC X.
001100         88  LS-NO-DISCOUNT    VALUE 'N'.
001200         88  LS-LOYALTY        VALUE 'L'.
001300         88  LS-MULTI-POLICY   VALUE 'M'.                         * ADDED
