--**********************************************************************
--* ORDER HISTORY - NAMES WITH # @ $ _ AS DB2 ALLOWS THEM               *
--**********************************************************************
/* INPUT TO DSNTEP2; BRACKETED COMMENTS AS DB2 12 READS THEM */
CREATE TABLE SHOP.ORD#HIST
      (ORD#        INTEGER        NOT NULL,
       CUST_NO     CHAR(6)        NOT NULL,
       STATUS@     CHAR(1)        NOT NULL WITH DEFAULT 'O',
       AMOUNT$     DECIMAL(9,2)   NOT NULL,
       PRIMARY KEY (ORD#));

CREATE INDEX SHOP.X#ORD1 ON SHOP.ORD#HIST (CUST_NO, ORD#);

INSERT INTO SHOP.ORD#HIST (ORD#, CUST_NO, STATUS@, AMOUNT$)
       VALUES (5001, 'C00042', 'O', 120.50);
INSERT INTO SHOP.ORD#HIST (ORD#, CUST_NO, STATUS@, AMOUNT$)
       VALUES (5002, 'C00042', 'S', 75.00);
INSERT INTO SHOP.ORD#HIST (ORD#, CUST_NO, AMOUNT$)
       VALUES (5003, 'C00042', 19.99);
INSERT INTO SHOP.ORD#HIST VALUES (5004, 'C00077', 'O', 300.00);
