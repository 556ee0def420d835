--**********************************************************************
--* ACCOUNTS - CREATED BY THE DBA UNDER THE SCHEMA IBMUSER             *
--**********************************************************************
SET CURRENT SQLID = 'IBMUSER';

CREATE TABLE IBMUSER.ACCOUNT
      (ACCT_NO     CHAR(8)        NOT NULL,
       BALANCE     DECIMAL(11,2)  NOT NULL,
       PRIMARY KEY (ACCT_NO));

INSERT INTO IBMUSER.ACCOUNT VALUES ('A0000001', 1500.00);
INSERT INTO IBMUSER.ACCOUNT VALUES ('A0000002', 20.25);
