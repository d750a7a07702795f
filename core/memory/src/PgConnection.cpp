#include "PgConnection.h"

#include "PgDialect.h"
#include "sage_memory/DatabaseLocation.h"
#include "sage_memory/MemoryError.h"

#include <libpq-fe.h>

#include <cerrno>
#include <cstdlib>
#include <cstring>
#include <optional>

namespace sage::memory {

namespace {

constexpr Oid kInt8 = 20;
constexpr Oid kText = 25;
constexpr Oid kFloat8 = 701;

std::string trimmed(const char* message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' ')) text.pop_back();
    return text;
}

// SQLSTATE class 23 (integrity constraint violation) is what SQLite reports as SQLITE_CONSTRAINT;
// class 08 (connection exception) and 57P01-57P03 (the server shuts down or is starting) mean the
// server is unavailable.
MemoryError::Code codeOf(const PGresult* result) {
    const char* state = result ? PQresultErrorField(result, PG_DIAG_SQLSTATE) : nullptr;
    if (state && (std::strncmp(state, "08", 2) == 0 || std::strncmp(state, "57P0", 4) == 0))
        return MemoryError::Code::Unavailable;
    if (state && std::strncmp(state, "23", 2) == 0) return MemoryError::Code::Conflict;
    if (state && std::strncmp(state, "22", 2) == 0) return MemoryError::Code::InvalidInput;
    return MemoryError::Code::Sqlite;
}

bool connectionLost(PGconn* conn, MemoryError::Code code) {
    return PQstatus(conn) == CONNECTION_BAD || code == MemoryError::Code::Unavailable;
}

std::string snippet(std::string_view sql) {
    std::string s(sql.substr(0, 120));
    if (sql.size() > 120) s += "...";
    return s;
}

// PostgreSQL stores UTF-8 only; SQLite takes any bytes. Text from hostile input (a compiler message,
// an LLM reply) may be invalid: each invalid byte becomes U+FFFD instead of failing the statement.
std::string utf8(std::string_view text) {
    std::string out;
    out.reserve(text.size());
    for (std::size_t i = 0; i < text.size();) {
        const auto c = static_cast<unsigned char>(text[i]);
        std::size_t length = c < 0x80 ? 1 : (c >> 5) == 6 ? 2 : (c >> 4) == 14 ? 3 : (c >> 3) == 30 ? 4 : 0;
        if (length > 1 && c < 0xC2) length = 0;  // overlong two-byte form
        if (length == 0 || i + length > text.size()) length = 0;
        for (std::size_t k = 1; k < length; ++k)
            if ((static_cast<unsigned char>(text[i + k]) >> 6) != 2) length = 0;
        if (length >= 3 && i + 1 < text.size()) {  // overlong forms, surrogates, beyond U+10FFFF
            const auto d = static_cast<unsigned char>(text[i + 1]);
            if ((c == 0xE0 && d < 0xA0) || (c == 0xED && d >= 0xA0) || (c == 0xF0 && d < 0x90) ||
                (c == 0xF4 && d >= 0x90) || c > 0xF4)
                length = 0;
        }
        if (c == 0) length = 0;  // nor a NUL byte
        if (length == 0) {
            out += "\xEF\xBF\xBD";
            ++i;
        } else {
            out.append(text.substr(i, length));
            i += length;
        }
    }
    return out;
}

class PgStatement : public StatementBackend {
public:
    PgStatement(PgConnection& connection, std::string_view sql) : connection_(connection) {
        auto translated = PgDialect::placeholders(sql);
        sql_ = std::move(translated.sql);
        values_.resize(static_cast<std::size_t>(translated.parameters));
        unused_.resize(values_.size());
        for (std::size_t i = 0; i < values_.size(); ++i) unused_[i] = i >= translated.used.size() || !translated.used[i];
        resetQuietly();
    }
    ~PgStatement() override { PQclear(result_); }

    void bindInt64(int index, std::int64_t value) override { set(index, std::to_string(value), kInt8); }
    void bindDouble(int index, double value) override {
        char buffer[40];
        std::snprintf(buffer, sizeof buffer, "%.17g", value);
        set(index, buffer, kFloat8);
    }
    void bindText(int index, std::string_view value) override { set(index, utf8(value), kText); }
    void bindNull(int index) override { set(index, std::nullopt, 0); }

    bool step() override {
        if (!result_) execute();
        return ++row_ < PQntuples(result_);
    }
    void reset() override { resetQuietly(); }
    void resetQuietly() noexcept override {
        PQclear(result_);
        result_ = nullptr;
        row_ = -1;
        for (auto& v : values_) v.reset();
        // A NULL leaves its type to the server (inferred from where it is used); a parameter the
        // text never mentions must still have one.
        types_.resize(values_.size());
        for (std::size_t i = 0; i < types_.size(); ++i) types_[i] = unused_[i] ? kText : 0;
    }

    std::int64_t int64(int column) const override {
        const char* v = value(column);
        if (!v) return 0;
        if (v[0] == 't' && v[1] == 0) return 1;  // a boolean expression reads as 1/0, as in SQLite
        if (v[0] == 'f' && v[1] == 0) return 0;
        if (std::strchr(v, '.') || std::strchr(v, 'e')) return static_cast<std::int64_t>(std::strtod(v, nullptr));
        return std::strtoll(v, nullptr, 10);
    }
    double real(int column) const override {
        const char* v = value(column);
        return v ? std::strtod(v, nullptr) : 0.0;
    }
    std::string text(int column) const override {
        const char* v = value(column);
        return v ? std::string(v, static_cast<std::size_t>(PQgetlength(result_, row_, column))) : std::string();
    }
    bool isNull(int column) const override { return !value(column); }

private:
    void set(int index, std::optional<std::string> v, Oid type) {
        if (index < 1 || static_cast<std::size_t>(index) > values_.size())
            throw MemoryError(MemoryError::Code::InvalidInput,
                              connection_.name() + ": parameter " + std::to_string(index) + " is out of range (the "
                              "statement has " + std::to_string(values_.size()) + "): " + snippet(sql_));
        values_[static_cast<std::size_t>(index - 1)] = std::move(v);
        types_[static_cast<std::size_t>(index - 1)] = unused_[static_cast<std::size_t>(index - 1)] ? kText : type;
    }
    const char* value(int column) const {
        if (!result_ || row_ < 0 || row_ >= PQntuples(result_) || column < 0 || column >= PQnfields(result_))
            return nullptr;
        return PQgetisnull(result_, row_, column) ? nullptr : PQgetvalue(result_, row_, column);
    }
    void execute() {
        std::vector<const char*> pointers;
        pointers.reserve(values_.size());
        for (const auto& v : values_) pointers.push_back(v ? v->c_str() : nullptr);
        result_ = connection_.submit(sql_, [&](PGconn* conn) {
            return PQexecParams(conn, sql_.c_str(), static_cast<int>(values_.size()), types_.data(), pointers.data(),
                                nullptr, nullptr, 0);
        });
        const char* affected = PQcmdTuples(result_);
        connection_.setChanges(affected && *affected ? std::atoi(affected) : 0);
        row_ = -1;
    }

    PgConnection& connection_;
    std::string sql_;
    std::vector<std::optional<std::string>> values_;
    std::vector<Oid> types_;
    std::vector<bool> unused_;
    PGresult* result_ = nullptr;
    int row_ = -1;
};

void ignoreNotice(void*, const char*) {}

} // namespace

PgConnection::PgConnection(const std::string& url)
    : name_(DatabaseLocation::redacted(url)), connector_(url, name_) {
    DatabaseLocation::requireNoPassword(url);
    conn_ = connector_.connect();
    configureSession();
}

PgConnection::~PgConnection() { PQfinish(conn_); }

void PgConnection::configureSession() {
    // "NOTICE: text-search query contains only stop words" and the like are not the user's business.
    PQsetNoticeProcessor(conn_, ignoreNotice, nullptr);
    exec("SET client_min_messages = warning");
    // Writers queue for the writer lock like SQLite's busy timeout, but longer: on a shared server
    // a colleague's import or another shard's transaction is a normal reason to wait.
    exec("SET lock_timeout = " + std::to_string(kLockTimeoutMs));
}

void PgConnection::reconnect(const std::string& lost) {
    PQfinish(conn_);
    conn_ = nullptr;
    conn_ = connector_.reconnect(lost);
    configureSession();
}

void PgConnection::failLost(std::string_view sql, const std::string& lost) {
    transactionLost_ = true;
    throw MemoryError(MemoryError::Code::Unavailable,
                      name_ + ": lost the connection to the PostgreSQL server inside a transaction (" + lost +
                          "); the server rolled the transaction back, nothing of it was saved (running: " +
                          snippet(sql) + ").");
}

PGresult* PgConnection::submit(std::string_view sql, const std::function<PGresult*(PGconn*)>& send) {
    if (transactionLost_) failLost(sql, "lost earlier in this transaction");
    if (!conn_ || PQstatus(conn_) == CONNECTION_BAD) reconnect("found closed");
    // Outside a transaction nothing is lost with the connection: the statement can be sent again.
    const bool idle = PQtransactionStatus(conn_) == PQTRANS_IDLE;
    for (int sent = 0;; ++sent) {
        PGresult* result = send(conn_);
        const ExecStatusType status = PQresultStatus(result);
        if (status == PGRES_TUPLES_OK || status == PGRES_COMMAND_OK) return result;
        const std::string message = trimmed(PQerrorMessage(conn_));
        const MemoryError::Code code = codeOf(result);
        PQclear(result);
        const std::string what = name_ + ": " + message + " (running: " + snippet(sql) + ")";
        if (!connectionLost(conn_, code)) throw MemoryError(code, what);
        if (!idle) failLost(sql, message);
        if (sent > 0) throw MemoryError(MemoryError::Code::Unavailable, what);  // lost again at once: give up
        reconnect(message);
    }
}

void PgConnection::exec(const std::string& sql) {
    PQclear(submit(sql, [&](PGconn* conn) { return PQexec(conn, sql.c_str()); }));
}

std::unique_ptr<StatementBackend> PgConnection::prepare(std::string_view sql) {
    return std::make_unique<PgStatement>(*this, sql);
}

std::int64_t PgConnection::lastInsertId() {
    PgStatement stmt(*this, "SELECT lastval()");
    return stmt.step() ? stmt.int64(0) : 0;
}

bool PgConnection::inTransaction() const {
    if (transactionLost_) return true;  // until the outermost transaction is rolled back
    const PGTransactionStatusType status = PQtransactionStatus(conn_);
    return status == PQTRANS_ACTIVE || status == PQTRANS_INTRANS || status == PQTRANS_INERROR;
}

void PgConnection::beginWrite() {
    exec("BEGIN");
    try {
        // One writer per memory (schema), not per server: other memories on the server don't wait.
        exec("SELECT pg_advisory_xact_lock(" + std::to_string(kWriterLock) + ", hashtext(current_schema()))");
    } catch (const MemoryError& e) {
        rollbackQuietly("");
        if (e.code() == MemoryError::Code::Unavailable) throw;
        throw MemoryError(e.code(), name_ + ": the memory is locked by another writer (no turn within the lock "
                                            "timeout; " + std::string(e.what()) + "). Try again when the other "
                                            "client (an import, a bench shard) has finished its transaction.");
    }
}

void PgConnection::rollbackQuietly(const std::string& savepoint) noexcept {
    if (transactionLost_) {  // the server rolled it back already; the outermost rollback ends the state
        if (savepoint.empty()) transactionLost_ = false;
        return;
    }
    if (!conn_ || PQstatus(conn_) == CONNECTION_BAD) return;
    const std::string sql = savepoint.empty() ? std::string("ROLLBACK")
                                              : "ROLLBACK TO SAVEPOINT " + savepoint + "; RELEASE SAVEPOINT " + savepoint;
    PQclear(PQexec(conn_, sql.c_str()));
}

} // namespace sage::memory
