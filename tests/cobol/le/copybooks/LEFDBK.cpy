      *----------------------------------------------------------------
      * LEFDBK   LANGUAGE ENVIRONMENT FEEDBACK CODE (CONDITION TOKEN)
      *          AS THE DATE AND TIME SERVICES RETURN IT.  LEVEL 02
      *          ITEMS: COPY IT UNDER AN 01 OF YOUR OWN.  THE 88S
      *          COMPARE THE FIRST 8 BYTES AS Z/OS WRITES THEM
      *          (FACILITY 'CEE' IN EBCDIC).
      *----------------------------------------------------------------
           02  CONDITION-TOKEN-VALUE.
               88  FC-CEE000               VALUE X'0000000000000000'.
               88  FC-CEE2E9               VALUE X'000309C959C3C5C5'.
               88  FC-CEE2EB               VALUE X'000309CB59C3C5C5'.
               88  FC-CEE2EC               VALUE X'000309CC59C3C5C5'.
               88  FC-CEE2EE               VALUE X'000309CE59C3C5C5'.
               88  FC-CEE2EF               VALUE X'000309CF59C3C5C5'.
               88  FC-CEE2EG               VALUE X'000309D059C3C5C5'.
               88  FC-CEE2EH               VALUE X'000309D159C3C5C5'.
               88  FC-CEE2EI               VALUE X'000309D259C3C5C5'.
               88  FC-CEE2EJ               VALUE X'000309D359C3C5C5'.
               88  FC-CEE2EK               VALUE X'000309D459C3C5C5'.
               88  FC-CEE2EL               VALUE X'000309D559C3C5C5'.
               88  FC-CEE2EM               VALUE X'000309D659C3C5C5'.
               88  FC-CEE2EN               VALUE X'000309D759C3C5C5'.
               88  FC-CEE2EO               VALUE X'000309D859C3C5C5'.
               88  FC-CEE2ET               VALUE X'000309DD59C3C5C5'.
               03  CASE-1-CONDITION-ID.
                   04  SEVERITY            PIC S9(4) BINARY.
                   04  MSG-NO              PIC S9(4) BINARY.
               03  CASE-2-CONDITION-ID
                         REDEFINES CASE-1-CONDITION-ID.
                   04  CLASS-CODE          PIC S9(4) BINARY.
                   04  CAUSE-CODE          PIC S9(4) BINARY.
               03  CASE-SEV-CTL            PIC X.
               03  FACILITY-ID             PIC XXX.
           02  I-S-INFO                    PIC S9(9) BINARY.
