// Statement: a RAII prepared statement with typed binds and column reads, on whichever backend
// the Database runs (see Connection). Errors throw MemoryError naming the database, the SQL and
// the backend's message.
#pragma once

#include "sage_memory/Connection.h"

#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

struct sqlite3;

namespace sage::memory {

class Statement {
public:
    Statement() = default;
    explicit Statement(std::unique_ptr<StatementBackend> backend) : impl_(std::move(backend)) {}
    ~Statement();
    Statement(Statement&& other) noexcept = default;
    Statement& operator=(Statement&& other) noexcept = default;
    Statement(const Statement&) = delete;
    Statement& operator=(const Statement&) = delete;

    // Binds are 1-based like SQLite's. Text is copied.
    Statement& bind(int index, std::int64_t value);
    Statement& bind(int index, int value) { return bind(index, static_cast<std::int64_t>(value)); }
    Statement& bind(int index, double value);
    Statement& bind(int index, std::string_view value);
    Statement& bind(int index, const std::string& value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const char* value) { return bind(index, std::string_view(value)); }
    Statement& bind(int index, const std::optional<std::int64_t>& value);
    Statement& bind(int index, const std::optional<double>& value);
    Statement& bindNull(int index);

    // Binds every argument in order starting at 1.
    template <class... Args> Statement& bindAll(const Args&... args) {
        int index = 0;
        (bind(++index, args), ...);
        return *this;
    }

    // Advances; true when a row is available, false when done.
    bool step();
    // Steps a statement that returns no rows (INSERT/UPDATE/DELETE) and resets it.
    void run();
    // Makes the statement ready to run again and drops its bindings.
    void reset();

    std::int64_t int64(int column) const;
    double real(int column) const;
    std::string text(int column) const;
    bool isNull(int column) const;
    std::optional<std::int64_t> optionalInt64(int column) const;
    std::optional<double> optionalReal(int column) const;

    // A borrowed cached statement that is reset (bindings cleared) when the lease ends, so a
    // half-read SELECT never keeps a read transaction open. See Database::cached().
    class Lease {
    public:
        explicit Lease(Statement& statement) : statement_(&statement) {}
        ~Lease() { statement_->resetQuietly(); }
        Lease(const Lease&) = delete;
        Lease& operator=(const Lease&) = delete;
        Statement* operator->() const { return statement_; }
        Statement& operator*() const { return *statement_; }

    private:
        Statement* statement_;
    };

private:
    void resetQuietly() noexcept;

    std::unique_ptr<StatementBackend> impl_;
};

// "<file>: <sqlite message>" for an error on connection `db`.
std::string describeSqliteError(sqlite3* db, int rc);

} // namespace sage::memory
