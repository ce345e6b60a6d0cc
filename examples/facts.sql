-- The app's own database for the example coin app (com.example.coins), as Reckon's SQLite fact
-- source reads it. Build it with:   sqlite3 examples/facts.sqlite < examples/facts.sql
-- The queries in examples/reckon.json turn these rows into facts.
--
-- Times are UNIX milliseconds, as Apple writes them. Money is in cents with a currency. Tables
-- looked up by a text key are WITHOUT ROWID, so a lookup is one B-tree descent, not two.

PRAGMA journal_mode = WAL;

CREATE TABLE customers (
  account_token        TEXT PRIMARY KEY,      -- the appAccountToken the app sets at purchase, lower-case
  created_at           INTEGER NOT NULL,      -- when the account was created
  consented_to_share   INTEGER,               -- 1 yes, 0 no, NULL never asked
  lifetime_spent_cents INTEGER NOT NULL DEFAULT 0,
  currency             TEXT NOT NULL DEFAULT 'USD',
  vip                  INTEGER NOT NULL DEFAULT 0
) WITHOUT ROWID;

CREATE TABLE purchases (
  transaction_id   TEXT PRIMARY KEY,
  account_token    TEXT NOT NULL REFERENCES customers (account_token),
  product_id       TEXT NOT NULL,
  purchased_at     INTEGER NOT NULL,
  units_granted    INTEGER NOT NULL,          -- coins credited for the purchase
  delivered        INTEGER NOT NULL,          -- 1 when the coins reached the account
  delivery_problem TEXT,                      -- an Apple DeliveryStatus when not delivered
  sample_offered   INTEGER NOT NULL DEFAULT 0 -- a free sample or clear preview was offered
) WITHOUT ROWID;
CREATE INDEX purchases_by_account ON purchases (account_token);

CREATE TABLE usage (
  transaction_id TEXT PRIMARY KEY REFERENCES purchases (transaction_id),
  units_used     INTEGER NOT NULL,
  last_used_at   INTEGER
) WITHOUT ROWID;

CREATE TABLE refunds (
  account_token TEXT NOT NULL REFERENCES customers (account_token),
  refunded_at   INTEGER NOT NULL,
  amount_cents  INTEGER NOT NULL,
  currency      TEXT NOT NULL DEFAULT 'USD'
);
CREATE INDEX refunds_by_account ON refunds (account_token, refunded_at, amount_cents);

-- Set by the support team for one customer: GRANT_FULL, GRANT_PRORATED, DECLINE, NO_PREFERENCE
-- or DO_NOT_RESPOND.
CREATE TABLE support_overrides (
  account_token TEXT PRIMARY KEY REFERENCES customers (account_token),
  preference    TEXT NOT NULL,
  note          TEXT,
  set_by        TEXT NOT NULL,
  set_at        INTEGER NOT NULL
) WITHOUT ROWID;

INSERT INTO customers VALUES
  ('7e3fb20b-4cdb-47cc-936d-99d65f608138', 1758703200000, 1, 5994, 'USD', 0), -- the request in examples/eval
  ('0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10', 1704067200000, 1, 48950, 'USD', 1),
  ('5a1c9e7d-0f3b-4d2a-9b8e-6c4f2a1d7e33', 1790000000000, 0, 999, 'USD', 0),
  ('c4e2a9f1-7b6d-4e3c-8a1f-2d9b5c7e0a44', 1735689600000, NULL, 2997, 'EUR', 0),
  ('e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 1767225600000, 1, 19980, 'USD', 0);

INSERT INTO purchases VALUES
  ('2000000812345678', '7e3fb20b-4cdb-47cc-936d-99d65f608138', 'com.example.coins.pack500', 1793263200000, 500, 1, NULL, 0),
  ('2000000812340001', '7e3fb20b-4cdb-47cc-936d-99d65f608138', 'com.example.coins.pack100', 1780000000000, 100, 1, NULL, 0),
  ('2000000800000101', '0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10', 'com.example.coins.pack1000', 1793000000000, 1000, 1, NULL, 1),
  ('2000000800000102', '0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10', 'com.example.coins.pack500', 1793100000000, 500, 0, 'UNDELIVERED_SERVER_OUTAGE', 0),
  ('2000000800000201', '5a1c9e7d-0f3b-4d2a-9b8e-6c4f2a1d7e33', 'com.example.coins.pack100', 1793200000000, 100, 1, NULL, 0),
  ('2000000800000301', 'c4e2a9f1-7b6d-4e3c-8a1f-2d9b5c7e0a44', 'com.example.coins.pack500', 1793150000000, 500, 1, NULL, 0),
  ('2000000800000401', 'e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 'com.example.coins.pack1000', 1793180000000, 1000, 1, NULL, 0);

INSERT INTO usage VALUES
  ('2000000812345678', 500, 1793350000000),
  ('2000000812340001', 100, 1780500000000),
  ('2000000800000101', 250, 1793400000000),
  ('2000000800000301', 0, NULL),
  ('2000000800000401', 1000, 1793300000000);

INSERT INTO refunds VALUES
  ('e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 1790000000000, 999, 'USD'),
  ('e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 1791000000000, 1999, 'USD'),
  ('e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 1792000000000, 999, 'USD'),
  ('0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10', 1720000000000, 499, 'USD');

INSERT INTO support_overrides VALUES
  ('0b9d6c1e-52a4-4f0e-8a77-3c2d1e9f4a10', 'GRANT_FULL', 'Long-time VIP, lost coins in the November outage', 'maria', 1793200000000),
  ('e8f7d6c5-b4a3-4921-8f7e-6d5c4b3a2910', 'DECLINE', 'Fourth refund request this quarter', 'sam', 1793190000000);
