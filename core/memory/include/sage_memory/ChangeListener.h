// ChangeListener: hears when another client changes a shared memory (issue 16). On PostgreSQL the
// store's triggers NOTIFY channel "sage_memory_<schema>" with the id of each changed entry; a
// listener holds its own connection that LISTENs there. The GUI watches socket() (QSocketNotifier)
// and calls takeChanges() when it becomes readable; nothing blocks.
//
// A SQLite file has no server to tell anyone: open() returns nullptr for it (the browser refreshes
// after its own changes only, as before).
#pragma once

#include <cstdint>
#include <memory>
#include <set>
#include <string>

namespace sage::memory {

class Database;
class PgConnection;

class ChangeListener {
public:
    // Listens on the memory at `location` (a postgresql:// URL); nullptr for a SQLite file.
    // Throws MemoryError when the server cannot be reached.
    static std::unique_ptr<ChangeListener> open(const std::string& location);
    ~ChangeListener();
    ChangeListener(const ChangeListener&) = delete;
    ChangeListener& operator=(const ChangeListener&) = delete;

    // The connection's socket: readable when notifications (may) have arrived.
    int socket() const;
    // Reads what arrived without blocking; the ids of the changed entries (empty: nothing new).
    std::set<std::int64_t> takeChanges();
    // Waits up to timeoutMs for a notification, then takes what arrived (for tests and CLIs).
    std::set<std::int64_t> waitForChanges(int timeoutMs);
    const std::string& channel() const { return channel_; }
    // Changes committed through `database` (this client's own store) are not reported: the client
    // already knows about them.
    void ignoreChangesOf(Database& database);

private:
    explicit ChangeListener(std::unique_ptr<PgConnection> connection);

    std::unique_ptr<PgConnection> connection_;
    std::string channel_;
    std::set<int> ignoredPids_;
};

} // namespace sage::memory
