-- scamcheckd schema, version 2 (PostgreSQL): the web interface (CONTRACT §9),
-- as SQLite migration 0004. Times are Unix seconds.

-- Browser sessions: the cookie carries a random value; only its SHA-256 is
-- kept. Every form of a session carries its csrf_secret.
CREATE TABLE web_sessions (
  id_hash      BYTEA PRIMARY KEY,
  user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  csrf_secret  TEXT NOT NULL,
  created_at   BIGINT NOT NULL,
  last_seen_at BIGINT NOT NULL,
  expires_at   BIGINT NOT NULL
);
CREATE INDEX web_sessions_by_user ON web_sessions (user_id);
CREATE INDEX web_sessions_by_expiry ON web_sessions (expires_at);

-- Failed sign-in attempts per key ("ip:<address>", "account:<email>") in a
-- fixed window that opens with the first failure; shared by every process.
CREATE TABLE login_failures (
  key          TEXT PRIMARY KEY,
  window_start BIGINT NOT NULL,
  count        BIGINT NOT NULL
);

-- A user's token list is read by user.
CREATE INDEX tokens_by_user ON tokens (user_id, id DESC);
