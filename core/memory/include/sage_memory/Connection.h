// Connection: the seam between the experience store and a database server (issue 16). The store
// speaks one SQL dialect (SQLite's, with ?N placeholders) through Database and Statement; a
// Connection runs it on one backend:
//
//   SqliteConnection    the embedded default, one file (WAL)
//   PgConnection        a shared PostgreSQL server through libpq; placeholders and the few
//                       SQLite-isms of DDL are translated (PgDialect), full-text search and the
//                       schema of module "memory" have their own PostgreSQL text.
//
// A Connection and its statements belong to one thread at a time, like the Database that owns it.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <string_view>

namespace sage::memory {

enum class Backend { Sqlite, Postgres };

// One prepared statement on a backend. Binds are 1-based; text is copied.
class StatementBackend {
public:
    virtual ~StatementBackend() = default;
    virtual void bindInt64(int index, std::int64_t value) = 0;
    virtual void bindDouble(int index, double value) = 0;
    virtual void bindText(int index, std::string_view value) = 0;
    virtual void bindNull(int index) = 0;
    virtual bool step() = 0;           // true when a row is available
    virtual void reset() = 0;          // ready to run again, bindings dropped
    virtual void resetQuietly() noexcept = 0;
    virtual std::int64_t int64(int column) const = 0;
    virtual double real(int column) const = 0;
    virtual std::string text(int column) const = 0;
    virtual bool isNull(int column) const = 0;
};

class Connection {
public:
    virtual ~Connection() = default;
    virtual Backend backend() const = 0;
    virtual void exec(const std::string& sql) = 0;
    virtual std::unique_ptr<StatementBackend> prepare(std::string_view sql) = 0;
    virtual std::int64_t lastInsertId() = 0;
    virtual int changes() const = 0;
    virtual bool inTransaction() const = 0;
    // Starts the outermost write transaction; writers are serialised (SQLite: BEGIN IMMEDIATE;
    // PostgreSQL: BEGIN and a transaction-scoped advisory lock), so a read-modify-write of the
    // learned statistics never loses an update from another shard.
    virtual void beginWrite() = 0;
    // Rolls back the outermost transaction (savepoint empty) or to a savepoint; never throws.
    virtual void rollbackQuietly(const std::string& savepoint) noexcept = 0;
};

} // namespace sage::memory
