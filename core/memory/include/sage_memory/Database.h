// Database: one connection — to a SQLite file (WAL, foreign keys, busy timeout, synchronous=NORMAL)
// or, when the location is a postgresql:// URL, to a PostgreSQL server (issue 16; see Connection
// and DatabaseLocation) — with schema versioning. Each module that keeps tables in the file brings a SchemaModule (an ordered
// list of migrations); the experience store is the module "memory" and its version is
// PRAGMA user_version on SQLite (on PostgreSQL every module's version is in schema_module). Other modules (the agent's runs and iterations) keep their version in
// table schema_module, so they add tables without touching the memory schema:
//
//     Database db(path, {MemorySchema::module(), AgentSchema::module()});
//     // or later, on an open connection: db.migrate(AgentSchema::module());
//
// Opening is safe: before anything is written, a read-only probe refuses a file that is not
// SQLite, is damaged, or carries a schema newer than this build understands (MemoryError with
// the path, what is wrong and what to do); such a file is left byte-for-byte unchanged.
//
// Threads: a Database (and every ExperienceStore on it) belongs to one thread at a time;
// each thread opens its own connection to the same file. WAL lets readers run beside a writer.
#pragma once

#include "sage_memory/Connection.h"
#include "sage_memory/Statement.h"
#include "sage_memory/Transaction.h"

#include <filesystem>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

struct sqlite3;

namespace sage::memory {

struct Migration {
    int version = 0;           // 1, 2, 3 ... in order
    std::string description;   // one line, shown in errors
    std::string sql;           // one or more statements, run in one transaction
    // The same step for PostgreSQL; empty: `sql` translated by PgDialect::ddl (enough for plain
    // tables and indexes, not for FTS5 or triggers).
    std::string postgresSql = {};
};

struct SchemaModule {
    std::string name;                 // "memory" owns PRAGMA user_version
    std::vector<Migration> migrations;
    int latestVersion() const { return migrations.empty() ? 0 : migrations.back().version; }
};

class Database {
public:
    static constexpr std::string_view kPrimaryModule = "memory";
    static constexpr int kBusyTimeoutMs = 5000;

    // Opens (creating when missing) and brings every module up to date. `path` is a file, or a
    // postgresql:// URL without a password (MemoryError otherwise; the message never shows one).
    Database(std::filesystem::path path, const std::vector<SchemaModule>& modules);
    ~Database();
    Database(const Database&) = delete;
    Database& operator=(const Database&) = delete;

    // Applies the module's pending migrations (each in its own transaction). Throws
    // MemoryError(SchemaTooNew) when the file has a newer version of that module.
    void migrate(const SchemaModule& module);
    // The version of a module recorded in the file (0 when it has none).
    int schemaVersion(std::string_view module);

    // The SQLite handle; nullptr on PostgreSQL.
    sqlite3* handle() const { return db_; }
    // The file, or the server URL with any password masked: safe to show and to store.
    const std::filesystem::path& path() const { return path_; }
    Backend backend() const { return connection_->backend(); }
    bool isPostgres() const { return backend() == Backend::Postgres; }
    Connection& connection() { return *connection_; }

    void exec(const std::string& sql);
    Statement prepare(std::string_view sql) const { return Statement(connection_->prepare(sql)); }
    // A statement prepared once per connection and reused; reset when the lease ends.
    Statement::Lease cached(std::string_view sql);
    std::int64_t lastInsertId() const;
    int changes() const;

    // PRAGMA integrity_check: {"ok"} for a healthy file, otherwise SQLite's findings.
    std::vector<std::string> integrityCheck();

    std::string nextSavepointName() { return "sage_sp" + std::to_string(++savepointCounter_); }

private:
    void openSqlite(const std::vector<SchemaModule>& modules);
    void openPostgres(const std::string& url);

    std::filesystem::path path_;
    std::unique_ptr<Connection> connection_;
    sqlite3* db_ = nullptr;  // owned by connection_ when SQLite
    std::unordered_map<std::string, std::unique_ptr<Statement>> cache_;
    int savepointCounter_ = 0;
};

} // namespace sage::memory
