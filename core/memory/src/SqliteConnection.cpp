#include "SqliteConnection.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/Statement.h"

#include <sqlite3.h>

namespace sage::memory {

std::string describeSqliteError(sqlite3* db, int rc) {
    std::string file = db ? sqlite3_db_filename(db, "main") : "";
    if (file.empty()) file = "(in-memory database)";
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    return file + ": " + message;
}

namespace {

class SqliteStatement : public StatementBackend {
public:
    SqliteStatement(sqlite3* db, std::string_view sql) : db_(db) {
        const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                          &stmt_, nullptr);
        if (rc != SQLITE_OK) {
            std::string snippet(sql.substr(0, 120));
            throw MemoryError(MemoryError::Code::Sqlite, describeSqliteError(db, rc) + " (preparing: " + snippet + ")");
        }
    }
    ~SqliteStatement() override { sqlite3_finalize(stmt_); }

    void bindInt64(int index, std::int64_t value) override { check(sqlite3_bind_int64(stmt_, index, value)); }
    void bindDouble(int index, double value) override { check(sqlite3_bind_double(stmt_, index, value)); }
    void bindText(int index, std::string_view value) override {
        check(sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8));
    }
    void bindNull(int index) override { check(sqlite3_bind_null(stmt_, index)); }

    bool step() override {
        const int rc = sqlite3_step(stmt_);
        if (rc == SQLITE_ROW) return true;
        if (rc == SQLITE_DONE) return false;
        fail(rc, "running");
    }
    void reset() override { resetQuietly(); }
    void resetQuietly() noexcept override {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }

    std::int64_t int64(int column) const override { return sqlite3_column_int64(stmt_, column); }
    double real(int column) const override { return sqlite3_column_double(stmt_, column); }
    std::string text(int column) const override {
        const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
        return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
    }
    bool isNull(int column) const override { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

private:
    void check(int rc) const {
        if (rc != SQLITE_OK) fail(rc, "binding");
    }
    [[noreturn]] void fail(int rc, std::string_view what) const {
        const MemoryError::Code code = (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB) ? MemoryError::Code::NotADatabase
                                       : rc == SQLITE_CONSTRAINT ? MemoryError::Code::Conflict
                                                                 : MemoryError::Code::Sqlite;
        std::string sql = stmt_ ? sqlite3_sql(stmt_) : "";
        if (sql.size() > 120) sql = sql.substr(0, 120) + "...";
        throw MemoryError(code, describeSqliteError(db_, rc) + " (" + std::string(what) + ": " + sql + ")");
    }

    sqlite3* db_;
    sqlite3_stmt* stmt_ = nullptr;
};

} // namespace

SqliteConnection::~SqliteConnection() { sqlite3_close_v2(db_); }

void SqliteConnection::exec(const std::string& sql) {
    char* error = nullptr;
    const int rc = sqlite3_exec(db_, sql.c_str(), nullptr, nullptr, &error);
    if (rc != SQLITE_OK) {
        std::string message = describeSqliteError(db_, rc);
        sqlite3_free(error);
        throw MemoryError(rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB ? MemoryError::Code::NotADatabase
                                                                      : MemoryError::Code::Sqlite,
                          message + " (running: " + sql.substr(0, 120) + ")");
    }
}

std::unique_ptr<StatementBackend> SqliteConnection::prepare(std::string_view sql) {
    return std::make_unique<SqliteStatement>(db_, sql);
}

std::int64_t SqliteConnection::lastInsertId() { return sqlite3_last_insert_rowid(db_); }
int SqliteConnection::changes() const { return sqlite3_changes(db_); }
bool SqliteConnection::inTransaction() const { return !sqlite3_get_autocommit(db_); }

void SqliteConnection::rollbackQuietly(const std::string& savepoint) noexcept {
    if (savepoint.empty())
        sqlite3_exec(db_, "ROLLBACK", nullptr, nullptr, nullptr);
    else
        sqlite3_exec(db_, ("ROLLBACK TO " + savepoint + "; RELEASE " + savepoint).c_str(), nullptr, nullptr, nullptr);
}

} // namespace sage::memory
