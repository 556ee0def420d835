      ******************************************************************
      * LOANREC - THE CALLER'S AREA OF LOANPMT.                        *
      ******************************************************************
       01  LOAN-AREA.
      *    The amount lent.
           05  LR-PRINCIPAL            PIC 9(7)V99.
      *    For how many whole years.
           05  LR-YEARS                PIC 99.
      *    The simple interest over those years, to the cent.
           05  LR-INTEREST             PIC 9(7)V99.
