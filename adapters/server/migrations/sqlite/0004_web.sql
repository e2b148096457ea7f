-- scamcheckd schema, version 4 (SQLite): the web interface (CONTRACT §9).
-- Times are Unix seconds.

-- Browser sessions: the cookie carries a random value; only its SHA-256 is
-- kept. Every form of a session carries its csrf_secret.
CREATE TABLE web_sessions (
  id_hash      BLOB PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_secret  TEXT NOT NULL,
  created_at   INTEGER NOT NULL,
  last_seen_at INTEGER NOT NULL,
  expires_at   INTEGER NOT NULL
) WITHOUT ROWID;
CREATE INDEX web_sessions_by_user ON web_sessions (user_id);
CREATE INDEX web_sessions_by_expiry ON web_sessions (expires_at);

-- Failed sign-in attempts per key ("ip:<address>", "account:<email>") in a
-- fixed window that opens with the first failure.
CREATE TABLE login_failures (
  key          TEXT PRIMARY KEY,
  window_start INTEGER NOT NULL,
  count        INTEGER NOT NULL
) WITHOUT ROWID;

-- A user's token list is read by user.
CREATE INDEX tokens_by_user ON tokens (user_id, id DESC);
