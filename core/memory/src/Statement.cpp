#include "sage_memory/Statement.h"

#include "sage_memory/MemoryError.h"

#include <sqlite3.h>

#include <utility>

namespace sage::memory {

std::string describeSqliteError(sqlite3* db, int rc) {
    std::string file = db ? sqlite3_db_filename(db, "main") : "";
    if (file.empty()) file = "(in-memory database)";
    std::string message = db ? sqlite3_errmsg(db) : sqlite3_errstr(rc);
    return file + ": " + message;
}

Statement::Statement(sqlite3* db, std::string_view sql) : db_(db) {
    const int rc = sqlite3_prepare_v3(db, sql.data(), static_cast<int>(sql.size()), SQLITE_PREPARE_PERSISTENT,
                                      &stmt_, nullptr);
    if (rc != SQLITE_OK) {
        std::string snippet(sql.substr(0, 120));
        throw MemoryError(MemoryError::Code::Sqlite, describeSqliteError(db, rc) + " (preparing: " + snippet + ")");
    }
}

Statement::~Statement() { sqlite3_finalize(stmt_); }

Statement::Statement(Statement&& other) noexcept
    : db_(std::exchange(other.db_, nullptr)), stmt_(std::exchange(other.stmt_, nullptr)) {}

Statement& Statement::operator=(Statement&& other) noexcept {
    if (this != &other) {
        sqlite3_finalize(stmt_);
        db_ = std::exchange(other.db_, nullptr);
        stmt_ = std::exchange(other.stmt_, nullptr);
    }
    return *this;
}

void Statement::fail(int rc, std::string_view what) const {
    const MemoryError::Code code = (rc == SQLITE_CORRUPT || rc == SQLITE_NOTADB) ? MemoryError::Code::NotADatabase
                                   : rc == SQLITE_CONSTRAINT ? MemoryError::Code::Conflict
                                                             : MemoryError::Code::Sqlite;
    std::string sql = stmt_ ? sqlite3_sql(stmt_) : "";
    if (sql.size() > 120) sql = sql.substr(0, 120) + "...";
    throw MemoryError(code, describeSqliteError(db_, rc) + " (" + std::string(what) + ": " + sql + ")");
}

Statement& Statement::bind(int index, std::int64_t value) {
    if (int rc = sqlite3_bind_int64(stmt_, index, value); rc != SQLITE_OK) fail(rc, "binding");
    return *this;
}

Statement& Statement::bind(int index, double value) {
    if (int rc = sqlite3_bind_double(stmt_, index, value); rc != SQLITE_OK) fail(rc, "binding");
    return *this;
}

Statement& Statement::bind(int index, std::string_view value) {
    if (int rc = sqlite3_bind_text64(stmt_, index, value.data(), value.size(), SQLITE_TRANSIENT, SQLITE_UTF8);
        rc != SQLITE_OK)
        fail(rc, "binding");
    return *this;
}

Statement& Statement::bind(int index, const std::optional<std::int64_t>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bind(int index, const std::optional<double>& value) {
    return value ? bind(index, *value) : bindNull(index);
}

Statement& Statement::bindNull(int index) {
    if (int rc = sqlite3_bind_null(stmt_, index); rc != SQLITE_OK) fail(rc, "binding");
    return *this;
}

bool Statement::step() {
    const int rc = sqlite3_step(stmt_);
    if (rc == SQLITE_ROW) return true;
    if (rc == SQLITE_DONE) return false;
    fail(rc, "running");
}

void Statement::run() {
    while (step()) {
    }
    reset();
}

void Statement::reset() {
    sqlite3_reset(stmt_);
    sqlite3_clear_bindings(stmt_);
}

void Statement::resetQuietly() noexcept {
    if (stmt_) {
        sqlite3_reset(stmt_);
        sqlite3_clear_bindings(stmt_);
    }
}

std::int64_t Statement::int64(int column) const { return sqlite3_column_int64(stmt_, column); }
double Statement::real(int column) const { return sqlite3_column_double(stmt_, column); }

std::string Statement::text(int column) const {
    const auto* data = reinterpret_cast<const char*>(sqlite3_column_text(stmt_, column));
    return data ? std::string(data, static_cast<std::size_t>(sqlite3_column_bytes(stmt_, column))) : std::string();
}

bool Statement::isNull(int column) const { return sqlite3_column_type(stmt_, column) == SQLITE_NULL; }

std::optional<std::int64_t> Statement::optionalInt64(int column) const {
    if (isNull(column)) return std::nullopt;
    return int64(column);
}

std::optional<double> Statement::optionalReal(int column) const {
    if (isNull(column)) return std::nullopt;
    return real(column);
}

} // namespace sage::memory
