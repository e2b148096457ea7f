-- scamcheckd schema, version 3 (SQLite): answers of the URL reputation
-- services (Safe Browsing, URLhaus), kept 24 h and shared by every user, so
-- a restarted server does not ask again. Keyed by the SHA-256 of the URL:
-- the store never holds the URL itself.
CREATE TABLE url_reputations (
  url_key    BLOB PRIMARY KEY,
  reputation TEXT NOT NULL,              -- "malicious", "clean", "unknown"
  checked_at INTEGER NOT NULL            -- Unix seconds
) WITHOUT ROWID;
CREATE INDEX url_reputations_by_age ON url_reputations (checked_at);
