// PgConnector: opens libpq connections to a memory's server with SAGE's defaults, and opens them
// again after the server went away (issue 31).
//
//   connect_timeout   10 s unless the URL (connect_timeout=N) or PGCONNECT_TIMEOUT says otherwise:
//                     a host that accepts the connection and never answers fails within it, with a
//                     message naming the limit, instead of hanging the command.
//   keepalives        TCP keepalives after 30 s idle, every 10 s, 3 lost = dead (URL may override),
//                     so a server that vanished mid-query is noticed in about a minute.
//   reconnect         after a lost connection: attempts with backoff 0.25 s, 0.5 s, 1 s, ... 5 s for
//                     at most SAGE_PG_RECONNECT_SECONDS (default 60 s); a restart of the server
//                     (a few seconds) is ridden out, a server that stays down ends in Unavailable.
//
// Failures are MemoryError: Code::Unavailable when the server cannot be reached or does not answer
// (the CLI exits 6), Code::Io when it answers but refuses (wrong user, database, password).
#pragma once

#include <string>

struct pg_conn;
typedef struct pg_conn PGconn;

namespace sage::memory {

class PgConnector {
  public:
    static constexpr int kDefaultConnectTimeoutSeconds = 10;
    static constexpr int kDefaultReconnectSeconds = 60;

    // `url` carries no password (checked by the caller); `name` is its redacted form for messages.
    PgConnector(std::string url, std::string name) : url_(std::move(url)), name_(std::move(name)) {}

    // One attempt; throws MemoryError (Unavailable or Io) saying what is wrong and what to do.
    PGconn* connect() const;
    // Attempts with backoff until one succeeds or the reconnect budget is spent (then Unavailable,
    // naming `lost`, what happened to the old connection).
    PGconn* reconnect(const std::string& lost) const;

    // SAGE_PG_RECONNECT_SECONDS, or the default.
    static int reconnectSeconds();

  private:
    PGconn* attempt(std::string& failure) const;
    [[noreturn]] void refuse(PGconn* conn, const std::string& failure) const;

    std::string url_;
    std::string name_;
};

} // namespace sage::memory
