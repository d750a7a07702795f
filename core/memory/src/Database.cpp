#include "sage_memory/Database.h"

#include "PgConnection.h"
#include "PgDialect.h"
#include "SqliteConnection.h"
#include "sage_memory/DatabaseLocation.h"
#include "sage_memory/MemoryError.h"

#include <sqlite3.h>

#include <chrono>
#include <thread>

#include <cctype>
#include <cstring>
#include <fstream>

namespace sage::memory {
namespace fs = std::filesystem;

namespace {

constexpr const char* kNothingChanged = " Nothing was changed.";

[[noreturn]] void refuse(MemoryError::Code code, const fs::path& path, const std::string& what, const std::string& todo) {
    throw MemoryError(code, path.string() + ": " + what + "." + kNothingChanged + " " + todo);
}

const std::string kRestoreHint =
    "Check that --db names a SAGE memory file; if the file was damaged, restore it from a backup, or import "
    "an export (`sage memory --db NEW.db import FILE.jsonl`) into a new file.";

std::string tooNewHint() {
    return "Open it with the newer SAGE that wrote it, or export it there (`sage memory --db FILE export "
           "OUT.jsonl`) and import the JSON Lines file here.";
}

// Byte-level check, before SQLite ever sees the file. An empty file is a new database to SQLite.
// Returns false when there is nothing to probe (missing or empty file).
bool looksLikeSqlite(const fs::path& path) {
    std::error_code ec;
    const auto status = fs::status(path, ec);
    if (ec || status.type() == fs::file_type::not_found) return false;
    if (status.type() == fs::file_type::directory)
        refuse(MemoryError::Code::InvalidInput, path, "is a directory, not a database file",
               "Pass the path of a database file (a new one is created if it does not exist).");
    const auto size = fs::file_size(path, ec);
    if (ec) refuse(MemoryError::Code::Io, path, "cannot read the file size (" + ec.message() + ")", kRestoreHint);
    if (size == 0) return false;
    char header[16] = {};
    std::ifstream in(path, std::ios::binary);
    if (!in) refuse(MemoryError::Code::Io, path, "cannot be opened for reading", "Check the file permissions.");
    in.read(header, sizeof header);
    if (size < 100 || !in || std::memcmp(header, "SQLite format 3", 16) != 0)
        refuse(MemoryError::Code::NotADatabase, path,
               "is not a SQLite database (its first bytes are not the SQLite header)", kRestoreHint);
    return true;
}

// Runs a one-value query on a probe connection; a SQLite error refuses the file as damaged.
std::string probeValue(sqlite3* db, const fs::path& path, const char* sql) {
    sqlite3_stmt* stmt = nullptr;
    int rc = sqlite3_prepare_v2(db, sql, -1, &stmt, nullptr);
    std::string value;
    if (rc == SQLITE_OK) {
        rc = sqlite3_step(stmt);
        if (rc == SQLITE_ROW) {
            const auto* text = reinterpret_cast<const char*>(sqlite3_column_text(stmt, 0));
            value = text ? text : "";
            rc = SQLITE_OK;
        } else if (rc == SQLITE_DONE) {
            rc = SQLITE_OK;
        }
    }
    const std::string message = sqlite3_errmsg(db);
    sqlite3_finalize(stmt);
    if (rc == SQLITE_BUSY || rc == SQLITE_LOCKED)
        refuse(MemoryError::Code::Sqlite, path, "is locked by another process (" + message + ")",
               "Close the other program using it, or try again.");
    if (rc != SQLITE_OK)
        refuse(MemoryError::Code::NotADatabase, path, "is damaged or not a database (" + message + ")", kRestoreHint);
    return value;
}

std::string uriEscaped(const std::string& path) {
    static const char* hex = "0123456789ABCDEF";
    std::string out;
    for (const char ch : path) {
        const auto c = static_cast<unsigned char>(ch);
        if (c == '%' || c == '?' || c == '#' || c < 0x20 || c >= 0x7F) {
            out += '%';
            out += hex[c >> 4];
            out += hex[c & 15];
        } else {
            out += ch;
        }
    }
    return out;
}

int toInt(const std::string& text) { return text.empty() ? 0 : std::stoi(text); }

void tooNew(const fs::path& path, std::string_view module, int found, int known, bool refusedBeforeOpening) {
    const std::string what = "this database has schema version " + std::to_string(found) + " of module '" +
                             std::string(module) + "', but this build of SAGE understands versions up to " +
                             std::to_string(known);
    if (refusedBeforeOpening) refuse(MemoryError::Code::SchemaTooNew, path, what, tooNewHint());
    throw MemoryError(MemoryError::Code::SchemaTooNew, path.string() + ": " + what + ". " + tooNewHint());
}

// Read-only look at an existing file: is it a healthy SQLite database with schemas we know?
// Nothing is written: the connection is read-only and is closed before the real one opens.
void probe(const fs::path& path, const std::vector<SchemaModule>& modules) {
    if (!looksLikeSqlite(path)) return;
    // A cleanly closed file (no -wal/-shm beside it) is read as immutable, so the probe does not even
    // create the WAL side files; after a crash they exist and the WAL content must be read too.
    std::error_code ec;
    const bool sideFiles = fs::exists(path.string() + "-wal", ec) || fs::exists(path.string() + "-shm", ec);
    const std::string name = sideFiles ? path.string() : "file:" + uriEscaped(path.string()) + "?immutable=1";
    sqlite3* db = nullptr;
    const int rc = sqlite3_open_v2(name.c_str(), &db, SQLITE_OPEN_READONLY | SQLITE_OPEN_URI, nullptr);
    struct Closer {
        sqlite3* db;
        ~Closer() { sqlite3_close_v2(db); }
    } closer{db};
    if (rc != SQLITE_OK)
        refuse(MemoryError::Code::NotADatabase, path,
               std::string("cannot be opened (") + (db ? sqlite3_errmsg(db) : sqlite3_errstr(rc)) + ")", kRestoreHint);
    sqlite3_busy_timeout(db, Database::kBusyTimeoutMs);
    // Parsing the schema reads page 1 and every table definition; quick_check then reads every page.
    const int userTables =
        toInt(probeValue(db, path, "SELECT count(*) FROM sqlite_schema WHERE name NOT LIKE 'sqlite_%'"));
    const std::string check = probeValue(db, path, "PRAGMA quick_check(1)");
    if (check != "ok")
        refuse(MemoryError::Code::NotADatabase, path, "is damaged (integrity check: " + check + ")", kRestoreHint);
    const int userVersion = toInt(probeValue(db, path, "PRAGMA user_version"));
    const bool hasModuleTable =
        toInt(probeValue(db, path, "SELECT count(*) FROM sqlite_schema WHERE name = 'schema_module'")) > 0;
    for (const SchemaModule& module : modules) {
        int found = 0;
        if (module.name == Database::kPrimaryModule) {
            found = userVersion;
            if (userVersion == 0 && userTables > 0)
                refuse(MemoryError::Code::InvalidInput, path,
                       "is a SQLite database of another program (it has tables but no SAGE schema version)",
                       "Choose a new file name for the SAGE memory.");
        } else if (hasModuleTable) {
            const std::string sql = "SELECT version FROM schema_module WHERE name = '" + module.name + "'";
            found = toInt(probeValue(db, path, sql.c_str()));
        }
        if (found > module.latestVersion()) tooNew(path, module.name, found, module.latestVersion(), true);
    }
}

} // namespace

Database::Database(fs::path path, const std::vector<SchemaModule>& modules) : path_(std::move(path)) {
    for (const SchemaModule& module : modules)
        for (const char c : module.name)
            if (!std::isalnum(static_cast<unsigned char>(c)) && c != '_')
                throw MemoryError(MemoryError::Code::InvalidInput,
                                  "schema module name '" + module.name + "' may only hold letters, digits and '_'");
    const std::string location = path_.string();
    if (DatabaseLocation::isServerUrl(location)) {
        path_ = DatabaseLocation::redacted(location);  // the only name kept: safe to show and store
        openPostgres(location);
    } else {
        openSqlite(modules);
    }
    try {
        for (const SchemaModule& module : modules) migrate(module);
    } catch (...) {
        cache_.clear();
        throw;
    }
}

void Database::openPostgres(const std::string& url) {
    connection_ = std::make_unique<PgConnection>(url);
    // The version table and the SQLite functions the store's SQL calls, created once per database
    // under the writer lock (several shards may open a new database at the same moment).
    Transaction tx(*this);
    // A URL may choose a schema (options=-csearch_path%3DNAME), so that several memories share one
    // database; the schema is created on first use like a new SQLite file.
    {
        auto current = prepare("SELECT current_schema() IS NULL, '', split_part(current_setting('search_path'), ',', 1)");
        if (current.step() && current.int64(0) != 0) {
            std::string schema = current.text(2);
            if (schema.size() >= 2 && schema.front() == '"' && schema.back() == '"') schema = schema.substr(1, schema.size() - 2);
            std::string quoted = "\"";
            for (const char c : schema) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
            quoted += '"';
            current.reset();
            exec("CREATE SCHEMA IF NOT EXISTS " + quoted);
        }
    }
    // Only when missing: even CREATE ... IF NOT EXISTS needs the CREATE privilege on the schema, which
    // a team member granted by `sage memory team init` does not have (issue 31).
    auto present = prepare("SELECT to_regclass('schema_module') IS NOT NULL, "
                           "to_regprocedure('strftime(text,text)') IS NOT NULL");
    const bool hasVersions = present.step() && present.int64(0) != 0;
    const bool hasFunctions = present.int64(1) != 0;
    present.reset();
    if (!hasVersions) exec("CREATE TABLE IF NOT EXISTS schema_module (name TEXT PRIMARY KEY, version INTEGER NOT NULL)");
    if (!hasFunctions) exec(PgDialect::compatibilityFunctions());
    tx.commit();
}

void Database::openSqlite(const std::vector<SchemaModule>& modules) {
    probe(path_, modules);
    const int rc = sqlite3_open_v2(path_.c_str(), &db_, SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE, nullptr);
    if (rc != SQLITE_OK) {
        const std::string message = db_ ? sqlite3_errmsg(db_) : sqlite3_errstr(rc);
        sqlite3_close_v2(db_);
        db_ = nullptr;
        throw MemoryError(MemoryError::Code::Io, path_.string() + ": cannot open or create the database (" +
                                                     message + "). Check that the folder exists and is writable.");
    }
    connection_ = std::make_unique<SqliteConnection>(db_);
    try {
        sqlite3_busy_timeout(db_, kBusyTimeoutMs);
        exec("PRAGMA foreign_keys = ON");
        // Switching a new file to WAL needs an exclusive lock, and SQLite does not always call the
        // busy handler for it (deadlock avoidance): when another connection is opening the same new
        // file at this moment, retry the switch briefly instead of failing.
        bool wal = false;
        for (int attempt = 0;; ++attempt) {
            try {
                auto mode = prepare("PRAGMA journal_mode = WAL");
                wal = mode.step() && mode.text(0) == "wal";
                mode.reset();
                break;
            } catch (const MemoryError&) {
                const int code = sqlite3_errcode(db_) & 0xff;
                if ((code != SQLITE_BUSY && code != SQLITE_LOCKED) || attempt >= 200) throw;
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            }
        }
        if (!wal)
            throw MemoryError(MemoryError::Code::Sqlite,
                              path_.string() + ": cannot switch to WAL journal mode. Use a local file system.");
        exec("PRAGMA synchronous = NORMAL");
    } catch (...) {
        cache_.clear();
        connection_.reset();  // closes db_
        throw;
    }
}

Database::~Database() {
    cache_.clear();
    connection_.reset();
}

void Database::exec(const std::string& sql) { connection_->exec(sql); }

Statement::Lease Database::cached(std::string_view sql) {
    auto it = cache_.find(std::string(sql));
    if (it == cache_.end())
        it = cache_.emplace(std::string(sql), std::make_unique<Statement>(connection_->prepare(sql))).first;
    it->second->reset();
    return Statement::Lease(*it->second);
}

std::int64_t Database::lastInsertId() const { return connection_->lastInsertId(); }
int Database::changes() const { return connection_->changes(); }

int Database::schemaVersion(std::string_view module) {
    if (isPostgres()) {
        auto stmt = prepare("SELECT version FROM schema_module WHERE name = ?1");
        stmt.bind(1, module);
        return stmt.step() ? static_cast<int>(stmt.int64(0)) : 0;
    }
    if (module == kPrimaryModule) {
        auto stmt = prepare("PRAGMA user_version");
        return stmt.step() ? static_cast<int>(stmt.int64(0)) : 0;
    }
    auto exists = prepare("SELECT count(*) FROM sqlite_schema WHERE name = 'schema_module'");
    if (!exists.step() || exists.int64(0) == 0) return 0;
    auto stmt = prepare("SELECT version FROM schema_module WHERE name = ?1");
    stmt.bind(1, module);
    return stmt.step() ? static_cast<int>(stmt.int64(0)) : 0;
}

void Database::migrate(const SchemaModule& module) {
    const int current = schemaVersion(module.name);
    if (current > module.latestVersion()) tooNew(path_, module.name, current, module.latestVersion(), false);
    for (const Migration& step : module.migrations) {
        if (step.version <= current) continue;
        Transaction tx(*this);  // BEGIN IMMEDIATE: the write lock
        // Another connection may have migrated between our read and the lock (two threads
        // opening a new file at once): re-check under the lock.
        if (schemaVersion(module.name) >= step.version) {
            tx.commit();
            continue;
        }
        try {
            if (!isPostgres()) exec(step.sql);
            else exec(step.postgresSql.empty() ? PgDialect::ddl(step.sql) : step.postgresSql);
        } catch (const MemoryError& e) {
            throw MemoryError(e.code(), "migration " + std::to_string(step.version) + " of module '" + module.name +
                                            "' (" + step.description + ") failed: " + e.what());
        }
        if (module.name == kPrimaryModule && !isPostgres()) {
            exec("PRAGMA user_version = " + std::to_string(step.version));
        } else {
            exec("CREATE TABLE IF NOT EXISTS schema_module (name TEXT PRIMARY KEY, version INTEGER NOT NULL)");
            auto set = prepare("INSERT INTO schema_module(name, version) VALUES (?1, ?2) "
                               "ON CONFLICT(name) DO UPDATE SET version = excluded.version");
            set.bindAll(module.name, step.version).run();
        }
        tx.commit();
    }
}

std::vector<std::string> Database::integrityCheck() {
    if (isPostgres()) return {"ok"};  // the server keeps its own pages consistent (checksums, WAL)
    std::vector<std::string> findings;
    auto stmt = prepare("PRAGMA integrity_check");
    while (stmt.step()) findings.push_back(stmt.text(0));
    return findings;
}

} // namespace sage::memory
