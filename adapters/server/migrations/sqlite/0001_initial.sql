-- scamcheckd schema, version 1 (SQLite). Applied once by SqliteStore::migrate();
-- applied versions are recorded in schema_migrations. Times are Unix seconds
-- unless the column holds an API value (reports.created_at, ISO 8601).

-- Plans (CONTRACT §3): checks_per_day NULL means unlimited_checks.
CREATE TABLE plans (
  name           TEXT PRIMARY KEY,
  display_name   TEXT NOT NULL,
  checks_per_day INTEGER
);
INSERT INTO plans (name, display_name, checks_per_day) VALUES
  ('free', 'Free', 10),
  ('pro', 'Pro', NULL),
  ('business', 'Business', NULL);

CREATE TABLE users (
  id                INTEGER PRIMARY KEY,
  email             TEXT NOT NULL UNIQUE COLLATE NOCASE,
  name              TEXT NOT NULL,
  password_hash     TEXT,              -- Argon2id (libsodium string format)
  plan              TEXT NOT NULL REFERENCES plans (name),
  email_verified_at INTEGER,
  created_at        INTEGER NOT NULL
);

-- API tokens: only the SHA-256 of the value is kept (CONTRACT §4).
CREATE TABLE tokens (
  id           INTEGER PRIMARY KEY,
  user_id      INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  token_hash   BLOB NOT NULL UNIQUE,
  abilities    TEXT NOT NULL,          -- comma-separated
  created_at   INTEGER NOT NULL,
  last_used_at INTEGER,
  expires_at   INTEGER,
  revoked_at   INTEGER
);
CREATE INDEX tokens_by_user_name ON tokens (user_id, name);

-- Reports: the Report JSON as answered; `seq` orders them (newest first).
-- `content` is only kept with --retain-content.
CREATE TABLE reports (
  seq         INTEGER PRIMARY KEY,
  public_id   TEXT NOT NULL UNIQUE,
  user_id     INTEGER NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL,
  verdict     TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  report_json TEXT NOT NULL,
  content     BLOB
);
CREATE INDEX reports_by_user ON reports (user_id, seq DESC);

-- The daily allowance: counted scans per user and UTC day.
CREATE TABLE usage_daily (
  user_id INTEGER NOT NULL,
  day     TEXT NOT NULL,                -- YYYY-MM-DD (UTC)
  count   INTEGER NOT NULL,
  PRIMARY KEY (user_id, day)
) WITHOUT ROWID;

-- URL scan cache (24 h): key is the SHA-256 of the trimmed content (and locale).
CREATE TABLE url_cache (
  user_id     INTEGER NOT NULL,
  content_key BLOB NOT NULL,
  reputations TEXT NOT NULL,            -- JSON array, one entry per report URL
  created_at  INTEGER NOT NULL,
  PRIMARY KEY (user_id, content_key)
) WITHOUT ROWID;

-- Server-wide settings (e.g. webhook secrets).
CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);
