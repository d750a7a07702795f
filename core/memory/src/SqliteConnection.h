// SqliteConnection: the embedded backend — one SQLite file opened by Database (which probes it
// first). Statements are SQLite's own prepared statements.
#pragma once

#include "sage_memory/Connection.h"

struct sqlite3;

namespace sage::memory {

class SqliteConnection : public Connection {
public:
    // Takes ownership of an open handle.
    explicit SqliteConnection(sqlite3* db) : db_(db) {}
    ~SqliteConnection() override;

    Backend backend() const override { return Backend::Sqlite; }
    void exec(const std::string& sql) override;
    std::unique_ptr<StatementBackend> prepare(std::string_view sql) override;
    std::int64_t lastInsertId() override;
    int changes() const override;
    bool inTransaction() const override;
    void beginWrite() override { exec("BEGIN IMMEDIATE"); }
    void rollbackQuietly(const std::string& savepoint) noexcept override;

    sqlite3* handle() const { return db_; }

private:
    sqlite3* db_;
};

} // namespace sage::memory
