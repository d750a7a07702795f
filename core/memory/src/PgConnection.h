// PgConnection: the shared backend — one libpq connection to a PostgreSQL server named by a
// postgresql:// URL (credentials from PGPASSWORD or ~/.pgpass, never from the URL). Statements
// are run with PQexecParams (typed text parameters) and their whole result is read at once.
#pragma once

#include "sage_memory/Connection.h"

#include <string>
#include <vector>

struct pg_conn;
typedef struct pg_conn PGconn;

namespace sage::memory {

class PgConnection : public Connection {
public:
    // Connects; throws MemoryError naming the redacted URL and what to do.
    explicit PgConnection(const std::string& url);
    ~PgConnection() override;

    Backend backend() const override { return Backend::Postgres; }
    void exec(const std::string& sql) override;
    std::unique_ptr<StatementBackend> prepare(std::string_view sql) override;
    std::int64_t lastInsertId() override;
    int changes() const override { return changes_; }
    bool inTransaction() const override;
    void beginWrite() override;
    void rollbackQuietly(const std::string& savepoint) noexcept override;

    PGconn* handle() const { return conn_; }
    const std::string& name() const { return name_; }  // the redacted URL
    void setChanges(int n) { changes_ = n; }

    // Channel of the store's change notifications (LISTEN/NOTIFY).
    static constexpr const char* kChangeChannel = "sage_memory_changed";
    // The advisory lock every writer holds for its transaction (see Connection::beginWrite).
    static constexpr long long kWriterLock = 0x53414745;  // "SAGE"
    static constexpr int kLockTimeoutMs = 30000;

private:
    PGconn* conn_ = nullptr;
    std::string name_;
    int changes_ = 0;
};

} // namespace sage::memory
