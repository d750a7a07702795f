#include "sage_memory/MemorySchema.h"

#include "PgDialect.h"

namespace sage::memory {
namespace {

// The experience table and its indexes, written once: PostgreSQL gets them through PgDialect::ddl.
// The full-text index differs: FTS5 here (kVersion1ExperienceFts), a tsvector column there.
constexpr const char* kVersion1Experience = R"sql(
CREATE TABLE experience (
  id                 INTEGER PRIMARY KEY AUTOINCREMENT,
  title              TEXT NOT NULL CHECK (length(title) > 0),
  kind               TEXT NOT NULL CHECK (kind IN ('insight','repair_rule','optimization','pitfall','api_usage','exemplar')),
  stage              TEXT NOT NULL CHECK (stage IN ('draft','repair','optimize','any')),
  trigger_category   TEXT NOT NULL DEFAULT '',
  trigger_diagnostic TEXT NOT NULL DEFAULT '',
  trigger_bottleneck TEXT NOT NULL DEFAULT '',
  content            TEXT NOT NULL,
  code_idiom         TEXT NOT NULL DEFAULT '',
  evidence_pattern   TEXT NOT NULL DEFAULT '',
  action             TEXT NOT NULL DEFAULT '' CHECK (action = '' OR json_type(action) = 'object'),
  status             TEXT NOT NULL CHECK (status IN ('pending','approved','rejected','archived')),
  origin             TEXT NOT NULL CHECK (origin IN ('seed','agent','human')),
  pinned             INTEGER NOT NULL DEFAULT 0 CHECK (pinned IN (0, 1)),
  merged_into        INTEGER REFERENCES experience(id) ON DELETE SET NULL,
  created_at         TEXT NOT NULL,
  updated_at         TEXT NOT NULL
);
CREATE INDEX experience_by_status_stage ON experience(status, stage);
CREATE INDEX experience_by_title ON experience(title);
CREATE INDEX experience_by_diagnostic ON experience(trigger_diagnostic) WHERE trigger_diagnostic <> '';
CREATE INDEX experience_by_bottleneck ON experience(trigger_bottleneck) WHERE trigger_bottleneck <> '';
CREATE INDEX experience_by_category ON experience(trigger_category) WHERE trigger_category <> '';
CREATE INDEX experience_by_trigger_action
  ON experience(trigger_category, trigger_diagnostic, trigger_bottleneck, action);
CREATE INDEX experience_by_merged_into ON experience(merged_into) WHERE merged_into IS NOT NULL;

)sql";

constexpr const char* kVersion1ExperienceFts = R"sql(
CREATE VIRTUAL TABLE experience_fts USING fts5(title, content, trigger, tokenize = 'porter unicode61');
CREATE TRIGGER experience_fts_insert AFTER INSERT ON experience BEGIN
  INSERT INTO experience_fts(rowid, title, content, trigger) VALUES (new.id, new.title, new.content,
    new.trigger_category || ' ' || new.trigger_diagnostic || ' ' || new.trigger_bottleneck);
END;
CREATE TRIGGER experience_fts_delete AFTER DELETE ON experience BEGIN
  DELETE FROM experience_fts WHERE rowid = old.id;
END;
CREATE TRIGGER experience_fts_update
AFTER UPDATE OF title, content, trigger_category, trigger_diagnostic, trigger_bottleneck ON experience BEGIN
  UPDATE experience_fts SET title = new.title, content = new.content,
    trigger = new.trigger_category || ' ' || new.trigger_diagnostic || ' ' || new.trigger_bottleneck
  WHERE rowid = new.id;
END;

)sql";

// The plain tables of version 1, written once: PostgreSQL gets them through PgDialect::ddl.
constexpr const char* kVersion1Tables = R"sql(
CREATE TABLE experience_provenance (
  experience_id INTEGER NOT NULL REFERENCES experience(id) ON DELETE CASCADE,
  seq           INTEGER NOT NULL,
  task          TEXT NOT NULL DEFAULT '',
  run           INTEGER,
  iteration     INTEGER,
  diff          TEXT NOT NULL DEFAULT '',
  note          TEXT NOT NULL DEFAULT '',
  PRIMARY KEY (experience_id, seq)
) WITHOUT ROWID;

CREATE TABLE experience_stats (
  experience_id INTEGER NOT NULL REFERENCES experience(id) ON DELETE CASCADE,
  stage         TEXT NOT NULL CHECK (stage IN ('draft','repair','optimize')),
  q             REAL NOT NULL DEFAULT 0,
  retrieved     INTEGER NOT NULL DEFAULT 0,
  adopted       INTEGER NOT NULL DEFAULT 0,
  successes     INTEGER NOT NULL DEFAULT 0,
  reward_sum    REAL NOT NULL DEFAULT 0,
  ignored       INTEGER NOT NULL DEFAULT 0,
  PRIMARY KEY (experience_id, stage)
) WITHOUT ROWID;

CREATE TABLE q_history (
  id            INTEGER PRIMARY KEY,
  experience_id INTEGER NOT NULL REFERENCES experience(id) ON DELETE CASCADE,
  stage         TEXT NOT NULL CHECK (stage IN ('draft','repair','optimize')),
  q             REAL NOT NULL,
  cause         TEXT NOT NULL,
  run           INTEGER,
  iteration     INTEGER,
  at            TEXT NOT NULL
);
CREATE INDEX q_history_by_experience ON q_history(experience_id, id);

CREATE TABLE experience_revision (
  experience_id INTEGER NOT NULL REFERENCES experience(id) ON DELETE CASCADE,
  revision      INTEGER NOT NULL,
  previous      TEXT NOT NULL,
  author        TEXT NOT NULL,
  reason        TEXT NOT NULL,
  at            TEXT NOT NULL,
  PRIMARY KEY (experience_id, revision)
) WITHOUT ROWID;

CREATE TABLE retrieval (
  id              INTEGER PRIMARY KEY,
  run             INTEGER NOT NULL,
  iteration       INTEGER NOT NULL,
  experience_id   INTEGER NOT NULL REFERENCES experience(id) ON DELETE CASCADE,
  stage           TEXT NOT NULL CHECK (stage IN ('draft','repair','optimize')),
  rank            INTEGER NOT NULL,
  score           REAL NOT NULL,
  explored        INTEGER NOT NULL DEFAULT 0,
  declared        INTEGER,
  evidenced       INTEGER,
  adoption_weight REAL,
  credit_weight   REAL,
  reward          REAL,
  q_before        REAL,
  q_after         REAL,
  retrieved_at    TEXT NOT NULL,
  resolved_at     TEXT,
  UNIQUE (run, iteration, experience_id)
);
CREATE INDEX retrieval_by_experience ON retrieval(experience_id);
)sql";

// Version 2 (issue 12): applicability (a hard retrieval filter by device and category, JSON text,
// '' = anywhere) and, per retrieval record, what the evidence was judged on (EvidenceBasis).
constexpr const char* kVersion2 = R"sql(
ALTER TABLE experience ADD COLUMN applies_to TEXT NOT NULL DEFAULT ''
  CHECK (applies_to = '' OR json_type(applies_to) = 'object');
ALTER TABLE retrieval ADD COLUMN evidence_basis TEXT;
ALTER TABLE retrieval ADD COLUMN evidence_detail TEXT;
)sql";

// The experience table's full-text index on PostgreSQL: a generated tsvector column with a GIN
// index; its weights (A title, B trigger, C content) carry the BM25 column weights of the SQLite
// side into ts_rank (see Retriever). The table itself is kVersion1Experience through PgDialect::ddl.
constexpr const char* kVersion1ExperienceSearchPostgres = R"sql(
-- FTS5's 'porter unicode61': words are runs of letters and digits, stemmed, no stop words.
CREATE TEXT SEARCH DICTIONARY sage_stem (TEMPLATE = snowball, Language = english);
CREATE TEXT SEARCH CONFIGURATION sage_fts (COPY = english);
ALTER TEXT SEARCH CONFIGURATION sage_fts ALTER MAPPING
  FOR asciiword, asciihword, hword_asciipart, word, hword, hword_part, numword, numhword, hword_numpart WITH sage_stem;
ALTER TABLE experience ADD COLUMN search tsvector GENERATED ALWAYS AS (
    setweight(to_tsvector('sage_fts', regexp_replace(title, '[^[:alnum:]]+', ' ', 'g')), 'A') ||
    setweight(to_tsvector('sage_fts', regexp_replace(trigger_category || ' ' || trigger_diagnostic || ' ' ||
                                                      trigger_bottleneck, '[^[:alnum:]]+', ' ', 'g')), 'B') ||
    setweight(to_tsvector('sage_fts', regexp_replace(content, '[^[:alnum:]]+', ' ', 'g')), 'C')) STORED;
CREATE INDEX experience_search ON experience USING gin(search);
)sql";

// Version 3 (issue 16): the audit log of curation — who approved, rejected, edited, merged or
// deleted which entry, when and why. Not tied to the entry by a foreign key: a deletion stays on record.
// memory_meta: facts about the whole memory (e.g. which bench learning phase filled it).
constexpr const char* kVersion3 = R"sql(
CREATE TABLE memory_audit (
  id            INTEGER PRIMARY KEY AUTOINCREMENT,
  experience_id INTEGER NOT NULL,
  revision      INTEGER NOT NULL,
  action        TEXT NOT NULL,
  author        TEXT NOT NULL,
  reason        TEXT NOT NULL,
  at            TEXT NOT NULL
);
CREATE INDEX memory_audit_by_experience ON memory_audit(experience_id, id);
CREATE TABLE memory_meta (key TEXT PRIMARY KEY, value TEXT NOT NULL);
)sql";

// PostgreSQL only (after the translated kVersion3): a notification on every change of an entry, its
// learned values or the audit log: channel "sage_memory_<schema>", payload the entry id. Another
// client's browser LISTENs and refreshes (ChangeListener). PostgreSQL delivers them at commit, once
// per distinct payload.
constexpr const char* kVersion3Notify = R"sql(
CREATE FUNCTION sage_memory_notify() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  PERFORM pg_notify('sage_memory_' || TG_TABLE_SCHEMA,
                    CASE WHEN TG_OP = 'DELETE' THEN to_jsonb(OLD) ELSE to_jsonb(NEW) END ->> TG_ARGV[0]);
  RETURN NULL;
END $$;
CREATE TRIGGER experience_notify AFTER INSERT OR UPDATE OR DELETE ON experience
  FOR EACH ROW EXECUTE FUNCTION sage_memory_notify('id');
CREATE TRIGGER experience_stats_notify AFTER INSERT OR UPDATE ON experience_stats
  FOR EACH ROW EXECUTE FUNCTION sage_memory_notify('experience_id');
CREATE TRIGGER memory_audit_notify AFTER INSERT ON memory_audit
  FOR EACH ROW EXECUTE FUNCTION sage_memory_notify('experience_id');
)sql";

// Version 4 (issue 31): who made a curation change as the system knows it, next to the declared
// author: the OS account of the process on SQLite; on PostgreSQL the session_user, set by a
// trigger whatever the client sends, so a team member cannot write another's name there.
// Existing lines keep '' (who it was is not known after the fact).
constexpr const char* kVersion4 = R"sql(
ALTER TABLE memory_audit ADD COLUMN account TEXT NOT NULL DEFAULT '';
)sql";

constexpr const char* kVersion4Postgres = R"sql(
ALTER TABLE memory_audit ADD COLUMN account TEXT NOT NULL DEFAULT '';
CREATE FUNCTION sage_audit_account() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.account := session_user;
  RETURN NEW;
END $$;
CREATE TRIGGER memory_audit_account BEFORE INSERT OR UPDATE ON memory_audit
  FOR EACH ROW EXECUTE FUNCTION sage_audit_account();
)sql";

// Version 5: the `trial` status (lessons the agent learned, retrieved by automated runs with a lower
// prior until their learned value promotes or retires them). SQLite cannot alter a CHECK
// constraint; widening one that every stored row already satisfies is the documented
// writable_schema edit, and RESET reloads the schema in this connection.
constexpr const char* kVersion5 = R"sql(
PRAGMA writable_schema = ON;
UPDATE sqlite_schema SET sql = replace(sql, '''archived'')', '''archived'',''trial'')')
  WHERE type = 'table' AND name = 'experience';
PRAGMA writable_schema = RESET;
)sql";

constexpr const char* kVersion5Postgres = R"sql(
ALTER TABLE experience DROP CONSTRAINT IF EXISTS experience_status_check;
ALTER TABLE experience ADD CONSTRAINT experience_status_check
  CHECK (status IN ('pending','approved','rejected','archived','trial'));
)sql";

} // namespace

const SchemaModule& MemorySchema::module() {
    static const SchemaModule schema{
        std::string(Database::kPrimaryModule),
        {Migration{1, "experience store: entries, FTS5 index, provenance, stats, Q history, revisions, retrievals",
                   std::string(kVersion1Experience) + kVersion1ExperienceFts + kVersion1Tables,
                   PgDialect::ddl(kVersion1Experience) + kVersion1ExperienceSearchPostgres +
                       PgDialect::ddl(kVersion1Tables)},
         Migration{2, "applicability filter (applies_to) and the evidence basis of each adoption record", kVersion2,
                   PgDialect::ddl(kVersion2)},
         Migration{3, "audit log of curation (and change notifications on PostgreSQL)", kVersion3,
                   PgDialect::ddl(kVersion3) + kVersion3Notify},
         Migration{4, "the account (PostgreSQL session_user, or OS account) of each audit line", kVersion4,
                   kVersion4Postgres},
         Migration{5, "the trial status of agent-learned lessons", kVersion5, kVersion5Postgres}},
    };
    return schema;
}

} // namespace sage::memory
