#include "PgConnector.h"

#include "sage_memory/MemoryError.h"

#include <libpq-fe.h>

#include <algorithm>
#include <chrono>
#include <cstdlib>
#include <cstring>
#include <thread>
#include <vector>

namespace sage::memory {

namespace {

std::string trimmed(const char* message) {
    std::string text = message ? message : "";
    while (!text.empty() && (text.back() == '\n' || text.back() == ' '))
        text.pop_back();
    for (char& c : text)
        if (c == '\n' || c == '\t') c = ' ';
    return text;
}

// The value libpq used for a connection option (after the URL and the environment were applied).
std::string optionOf(PGconn* conn, const char* keyword) {
    std::string value;
    PQconninfoOption* options = conn ? PQconninfo(conn) : nullptr;
    for (PQconninfoOption* o = options; o && o->keyword; ++o)
        if (std::strcmp(o->keyword, keyword) == 0 && o->val) value = o->val;
    PQconninfoFree(options);
    return value;
}

} // namespace

int PgConnector::reconnectSeconds() {
    const char* text = std::getenv("SAGE_PG_RECONNECT_SECONDS");
    if (!text || !*text) return kDefaultReconnectSeconds;
    char* end = nullptr;
    const long seconds = std::strtol(text, &end, 10);
    return end && *end == 0 && seconds >= 0 && seconds <= 86400 ? static_cast<int>(seconds)
                                                                : kDefaultReconnectSeconds;
}

PGconn* PgConnector::attempt(std::string& failure) const {
    // Defaults first, the URL after: with expand_dbname the URL's own options (and PGCONNECT_TIMEOUT,
    // which we then leave alone) take precedence over ours.
    const std::string timeout = std::to_string(kDefaultConnectTimeoutSeconds);
    std::vector<const char*> keys, values;
    if (!std::getenv("PGCONNECT_TIMEOUT")) {
        keys.push_back("connect_timeout");
        values.push_back(timeout.c_str());
    }
    for (const auto& [key, value] :
         {std::pair{"keepalives_idle", "30"}, {"keepalives_interval", "10"}, {"keepalives_count", "3"}}) {
        keys.push_back(key);
        values.push_back(value);
    }
    keys.push_back("dbname");
    values.push_back(url_.c_str());
    keys.push_back(nullptr);
    values.push_back(nullptr);
    PGconn* conn = PQconnectdbParams(keys.data(), values.data(), 1);
    if (conn && PQstatus(conn) == CONNECTION_OK) return conn;
    failure = conn ? trimmed(PQerrorMessage(conn)) : "out of memory";
    return conn;
}

void PgConnector::refuse(PGconn* conn, const std::string& failure) const {
    const std::string limit = optionOf(conn, "connect_timeout");
    PQfinish(conn);
    if (failure.find("timeout expired") != std::string::npos)
        throw MemoryError(
            MemoryError::Code::Unavailable,
            name_ + ": the PostgreSQL server did not answer within " +
                (limit.empty() ? std::string("the connect timeout") : limit + " s") +
                " (connect_timeout; libpq: " + failure +
                "). Check that host and port name a running "
                "PostgreSQL server; connect_timeout=N in the URL or PGCONNECT_TIMEOUT changes the limit.");
    // Reachable but refusing (authentication, unknown role or database) is a setting to fix, not an outage.
    const PGPing ping = PQping(url_.c_str());
    if (ping == PQPING_NO_RESPONSE || ping == PQPING_REJECT)
        throw MemoryError(MemoryError::Code::Unavailable,
                          name_ + ": cannot connect to the PostgreSQL server (" + failure +
                              "). The server is down, "
                              "starting or stopping: start it (docs/scale-out.md), or try again when it "
                              "accepts connections.");
    throw MemoryError(MemoryError::Code::Io,
                      name_ + ": cannot connect to the PostgreSQL server (" + failure +
                          "). Check that the server accepts this user and database; the password comes from "
                          "~/.pgpass or PGPASSWORD, never from the URL.");
}

PGconn* PgConnector::connect() const {
    std::string failure;
    PGconn* conn = attempt(failure);
    if (PQstatus(conn) == CONNECTION_OK) return conn;
    refuse(conn, failure);
}

PGconn* PgConnector::reconnect(const std::string& lost) const {
    using clock = std::chrono::steady_clock;
    const auto deadline = clock::now() + std::chrono::seconds(reconnectSeconds());
    auto delay = std::chrono::milliseconds(250);
    std::string failure;
    for (int attempts = 1;; ++attempts) {
        PGconn* conn = attempt(failure);
        if (PQstatus(conn) == CONNECTION_OK) return conn;
        PQfinish(conn);
        if (clock::now() + delay > deadline)
            throw MemoryError(MemoryError::Code::Unavailable,
                              name_ + ": lost the connection to the PostgreSQL server (" + lost +
                                  ") and could not connect again within " +
                                  std::to_string(reconnectSeconds()) + " s (" + std::to_string(attempts) +
                                  " attempts; last: " + failure +
                                  "). What was committed before is kept. Start the server again and rerun; "
                                  "SAGE_PG_RECONNECT_SECONDS sets how long to wait.");
        std::this_thread::sleep_for(delay);
        delay = std::min(delay * 2, std::chrono::milliseconds(5000));
    }
}

} // namespace sage::memory
