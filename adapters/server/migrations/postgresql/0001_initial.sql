-- scamcheckd schema, version 1 (PostgreSQL). Applied once by PgStore::migrate()
-- under an advisory lock, so several processes may start at once; applied
-- versions are recorded in schema_migrations. The tables are those of the
-- SQLite migrations 0001-0003, plus what several processes share: the
-- minute windows and the notifications that empty every token cache.
-- Times are Unix seconds, or Unix milliseconds in columns ending in _ms.

CREATE TABLE plans (
  name           TEXT PRIMARY KEY,
  display_name   TEXT NOT NULL,
  checks_per_day BIGINT                      -- NULL: unlimited_checks
);
INSERT INTO plans (name, display_name, checks_per_day) VALUES
  ('free', 'Free', 10),
  ('pro', 'Pro', NULL),
  ('business', 'Business', NULL);

CREATE TABLE users (
  id                BIGSERIAL PRIMARY KEY,
  email             TEXT NOT NULL,
  name              TEXT NOT NULL,
  password_hash     TEXT,                     -- Argon2id (libsodium string format)
  plan              TEXT NOT NULL REFERENCES plans (name),
  email_verified_at BIGINT,
  created_at        BIGINT NOT NULL
);
CREATE UNIQUE INDEX users_by_email ON users (lower(email));

-- API tokens: only the SHA-256 of the value is kept (CONTRACT §4).
CREATE TABLE tokens (
  id           BIGSERIAL PRIMARY KEY,
  user_id      BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  name         TEXT NOT NULL,
  token_hash   BYTEA NOT NULL UNIQUE,
  abilities    TEXT NOT NULL,                 -- comma-separated
  created_at   BIGINT NOT NULL,
  last_used_at BIGINT,
  expires_at   BIGINT,
  revoked_at   BIGINT
);
CREATE INDEX tokens_by_user_name ON tokens (user_id, name);

CREATE TABLE reports (
  seq         BIGSERIAL PRIMARY KEY,
  public_id   TEXT NOT NULL UNIQUE,
  user_id     BIGINT NOT NULL REFERENCES users (id) ON DELETE CASCADE,
  kind        TEXT NOT NULL,
  verdict     TEXT NOT NULL,
  created_at  TEXT NOT NULL,
  report_json TEXT NOT NULL,
  content     BYTEA                           -- only with --retain-content
);
CREATE INDEX reports_by_user ON reports (user_id, seq DESC);

-- The daily allowance: counted scans and check creations per user and UTC
-- day, counted when reserved (before the analysis), given back on failure.
CREATE TABLE usage_daily (
  user_id BIGINT NOT NULL,
  day     TEXT NOT NULL,                      -- YYYY-MM-DD (UTC)
  count   BIGINT NOT NULL,
  PRIMARY KEY (user_id, day)
);

CREATE TABLE url_cache (
  user_id     BIGINT NOT NULL,
  content_key BYTEA NOT NULL,
  reputations TEXT NOT NULL,
  created_at  BIGINT NOT NULL,
  PRIMARY KEY (user_id, content_key)
);
CREATE INDEX url_cache_by_age ON url_cache (created_at);

CREATE TABLE settings (
  key   TEXT PRIMARY KEY,
  value TEXT NOT NULL
);

-- Checks and their analysis jobs, claimed with a lease (FOR UPDATE SKIP
-- LOCKED): a process that dies loses its claims when their leases run out.
CREATE TABLE checks (
  uuid            TEXT PRIMARY KEY,
  user_id         BIGINT REFERENCES users (id) ON DELETE CASCADE,
  client          TEXT NOT NULL,
  type            TEXT NOT NULL,
  content         BYTEA,
  url             TEXT,
  locale          TEXT NOT NULL,
  status          TEXT NOT NULL,
  webhook_status  TEXT NOT NULL,
  via_workflow    BOOLEAN NOT NULL DEFAULT false,
  risk_level      TEXT,
  risk_score      INTEGER,
  explanation     TEXT,
  indicators      TEXT,
  source          TEXT,
  created_ms      BIGINT NOT NULL,
  deadline_ms     BIGINT NOT NULL,
  run_at_ms       BIGINT NOT NULL,
  dispatched_ms   BIGINT,
  completed_ms    BIGINT,
  claimed_by      TEXT,
  lease_until_ms  BIGINT,
  attempts        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checks_due ON checks (run_at_ms) WHERE status = 'processing';

CREATE TABLE client_usage_daily (
  client TEXT NOT NULL,
  day    TEXT NOT NULL,
  count  BIGINT NOT NULL,
  PRIMARY KEY (client, day)
);

CREATE TABLE questionnaire_responses (
  uuid         TEXT PRIMARY KEY,
  slug         TEXT NOT NULL,
  user_id      BIGINT REFERENCES users (id) ON DELETE CASCADE,
  locale       TEXT NOT NULL,
  started_at   BIGINT NOT NULL,
  completed_at BIGINT,
  result       TEXT
);
CREATE TABLE questionnaire_answers (
  response_uuid TEXT NOT NULL REFERENCES questionnaire_responses (uuid) ON DELETE CASCADE,
  question_id   TEXT NOT NULL,
  value         TEXT NOT NULL,
  seq           INTEGER NOT NULL,
  PRIMARY KEY (response_uuid, question_id)
);

CREATE TABLE url_reputations (
  url_key    BYTEA PRIMARY KEY,
  reputation TEXT NOT NULL,
  checked_at BIGINT NOT NULL
);
CREATE INDEX url_reputations_by_age ON url_reputations (checked_at);

-- Per-minute windows (CONTRACT §2, §3) counted for every process at once.
-- Unlogged: a crash of the database forgets at most a minute of counts.
CREATE UNLOGGED TABLE minute_windows (
  key          TEXT NOT NULL,                 -- e.g. "api:u:42", "v1scan:u:42"
  window_start BIGINT NOT NULL,               -- Unix second, a multiple of 60
  count        BIGINT NOT NULL,
  PRIMARY KEY (key, window_start)
);

-- Every process caches looked-up tokens; a change to what a token lookup
-- returns (a revocation, a plan change) notifies them all to forget theirs.
CREATE FUNCTION scamcheck_auth_changed() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('scamcheck_auth', TG_TABLE_NAME);
  RETURN NULL;
END
$$;
CREATE TRIGGER tokens_changed AFTER UPDATE OF revoked_at, expires_at, abilities, user_id OR DELETE
  ON tokens FOR EACH STATEMENT EXECUTE FUNCTION scamcheck_auth_changed();
CREATE TRIGGER users_changed AFTER UPDATE OF plan, email, name OR DELETE
  ON users FOR EACH STATEMENT EXECUTE FUNCTION scamcheck_auth_changed();
CREATE TRIGGER plans_changed AFTER UPDATE OR DELETE
  ON plans FOR EACH STATEMENT EXECUTE FUNCTION scamcheck_auth_changed();
