-- scamcheckd schema, version 2 (SQLite): the check API (CONTRACT §3).
-- Times in columns ending in _ms are Unix milliseconds; other times are
-- Unix seconds.

-- Checks and their analysis jobs. A worker claims a job with one atomic
-- UPDATE ... WHERE (status processing, run_at_ms due, lease free or
-- expired) that sets claimed_by and lease_until_ms; a process that dies
-- loses its claims when their leases run out. The same statements work on
-- PostgreSQL, where several server processes share the table.
CREATE TABLE checks (
  uuid            TEXT PRIMARY KEY,
  user_id         INTEGER REFERENCES users (id) ON DELETE CASCADE,  -- NULL: anonymous
  client          TEXT NOT NULL,              -- client IP at creation
  type            TEXT NOT NULL,              -- text, email, link
  content         BLOB,                       -- cleared once analysed (unless --retain-content)
  url             TEXT,                       -- link checks
  locale          TEXT NOT NULL,
  status          TEXT NOT NULL,              -- processing, completed, failed
  webhook_status  TEXT NOT NULL,
  via_workflow    INTEGER NOT NULL DEFAULT 0,
  risk_level      TEXT,
  risk_score      INTEGER,
  explanation     TEXT,
  indicators      TEXT,                       -- JSON array of strings
  source          TEXT,                       -- local, workflow
  created_ms      INTEGER NOT NULL,
  deadline_ms     INTEGER NOT NULL,           -- created + analysis timeout
  run_at_ms       INTEGER NOT NULL,           -- the job is due from then on
  dispatched_ms   INTEGER,
  completed_ms    INTEGER,
  claimed_by      TEXT,
  lease_until_ms  INTEGER,
  attempts        INTEGER NOT NULL DEFAULT 0
);
CREATE INDEX checks_due ON checks (status, run_at_ms);

-- The anonymous daily allowance: counted check creations per client IP and
-- UTC day (signed-in users count on usage_daily, shared with the scan API).
CREATE TABLE client_usage_daily (
  client TEXT NOT NULL,
  day    TEXT NOT NULL,                       -- YYYY-MM-DD (UTC)
  count  INTEGER NOT NULL,
  PRIMARY KEY (client, day)
) WITHOUT ROWID;

-- Questionnaire sessions and their answers (a later answer to the same
-- question replaces the earlier one).
CREATE TABLE questionnaire_responses (
  uuid         TEXT PRIMARY KEY,
  slug         TEXT NOT NULL,
  user_id      INTEGER REFERENCES users (id) ON DELETE CASCADE,  -- NULL: anonymous
  locale       TEXT NOT NULL,
  started_at   INTEGER NOT NULL,
  completed_at INTEGER,
  result       TEXT                           -- JSON of the completion answer
);
CREATE TABLE questionnaire_answers (
  response_uuid TEXT NOT NULL REFERENCES questionnaire_responses (uuid) ON DELETE CASCADE,
  question_id   TEXT NOT NULL,
  value         TEXT NOT NULL,
  seq           INTEGER NOT NULL,
  PRIMARY KEY (response_uuid, question_id)
) WITHOUT ROWID;
