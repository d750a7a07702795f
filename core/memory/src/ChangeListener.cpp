#include "sage_memory/ChangeListener.h"

#include "PgConnection.h"
#include "sage_memory/Database.h"
#include "sage_memory/DatabaseLocation.h"
#include "sage_memory/MemoryError.h"

#include <libpq-fe.h>

#include <poll.h>

#include <cstdlib>

namespace sage::memory {

std::unique_ptr<ChangeListener> ChangeListener::open(const std::string& location) {
    if (!DatabaseLocation::isServerUrl(location)) return nullptr;
    return std::unique_ptr<ChangeListener>(new ChangeListener(std::make_unique<PgConnection>(location)));
}

ChangeListener::ChangeListener(std::unique_ptr<PgConnection> connection) : connection_(std::move(connection)) {
    // The same channel name the triggers use: per schema, so two memories in one database stay apart.
    auto statement = connection_->prepare("SELECT 'sage_memory_' || current_schema()");
    if (!statement->step() || statement->isNull(0))
        throw MemoryError(MemoryError::Code::InvalidInput,
                          connection_->name() + ": the URL's search_path names no schema that exists yet; open the "
                                                "memory once (e.g. `sage memory --db URL stats`) before listening");
    channel_ = statement->text(0);
    std::string quoted = "\"";
    for (const char c : channel_) quoted += c == '"' ? std::string("\"\"") : std::string(1, c);
    connection_->exec("LISTEN " + quoted + "\"");
}

ChangeListener::~ChangeListener() = default;

void ChangeListener::ignoreChangesOf(Database& database) {
    if (!database.isPostgres()) return;
    auto statement = database.prepare("SELECT pg_backend_pid()");
    if (statement.step()) ignoredPids_.insert(static_cast<int>(statement.int64(0)));
}

int ChangeListener::socket() const { return PQsocket(connection_->handle()); }

std::set<std::int64_t> ChangeListener::takeChanges() {
    std::set<std::int64_t> ids;
    PGconn* conn = connection_->handle();
    if (!PQconsumeInput(conn))
        throw MemoryError(MemoryError::Code::Unavailable, connection_->name() + ": lost the connection to the server (" +
                                                     std::string(PQerrorMessage(conn)) +
                                                     "). Reopen the memory to see other clients' changes again.");
    while (PGnotify* n = PQnotifies(conn)) {
        if (n->relname == channel_ && n->extra && !ignoredPids_.count(n->be_pid))
            ids.insert(std::strtoll(n->extra, nullptr, 10));
        PQfreemem(n);
    }
    return ids;
}

std::set<std::int64_t> ChangeListener::waitForChanges(int timeoutMs) {
    auto ids = takeChanges();
    if (!ids.empty()) return ids;
    pollfd fd{socket(), POLLIN, 0};
    if (::poll(&fd, 1, timeoutMs) > 0) ids = takeChanges();
    return ids;
}

} // namespace sage::memory
