// PgConnection: the shared backend — one libpq connection to a PostgreSQL server named by a
// postgresql:// URL (credentials from PGPASSWORD or ~/.pgpass, never from the URL). Statements
// are run with PQexecParams (typed text parameters) and their whole result is read at once.
//
// A lost connection (server restarted, network cut) is opened again (PgConnector: bounded retries
// with backoff) and the statement is sent again, when that is safe: the statement ran outside a
// transaction (a BEGIN, a read, a one-statement write). Inside a transaction the server has rolled
// the transaction back: the statement fails with MemoryError(Unavailable) and so does every other
// one until the outermost transaction is rolled back (rollbackQuietly("")), so nothing of the
// transaction's remainder is committed on its own; the next statement after that reconnects.
#pragma once

#include "PgConnector.h"
#include "sage_memory/Connection.h"

#include <functional>

#include <string>
#include <vector>

struct pg_result;
typedef struct pg_result PGresult;

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
    // Runs `send` on the connection and returns its successful result (the caller clears it), or
    // throws MemoryError naming `sql`. Reconnects and sends again as described above.
    PGresult* submit(std::string_view sql, const std::function<PGresult*(PGconn*)>& send);
    const std::string& name() const { return name_; }  // the redacted URL
    void setChanges(int n) { changes_ = n; }

    // Channel of the store's change notifications (LISTEN/NOTIFY).
    static constexpr const char* kChangeChannel = "sage_memory_changed";
    // The advisory lock every writer holds for its transaction (see Connection::beginWrite).
    static constexpr long long kWriterLock = 0x53414745;  // "SAGE"
    static constexpr int kLockTimeoutMs = 30000;

private:
    void configureSession();
    void reconnect(const std::string& lost);
    [[noreturn]] void failLost(std::string_view sql, const std::string& lost);

    std::string name_;
    PgConnector connector_;
    PGconn* conn_ = nullptr;
    bool transactionLost_ = false;  // the connection died inside a transaction not yet rolled back
    int changes_ = 0;
};

} // namespace sage::memory
