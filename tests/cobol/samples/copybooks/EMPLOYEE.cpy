      * Employee identification, shared by payroll programs.
           05  :PFX:-ID            PIC 9(6).
      * Family name, then given name.
           05  :PFX:-NAME.
               10  :PFX:-LAST      PIC X(20).
               10  :PFX:-FIRST     PIC X(15).
           05  :PFX:-PAY-TYPE      PIC X      VALUE "H".
               88  HOURLY          VALUE "H".
               88  SALARIED        VALUE "S".
