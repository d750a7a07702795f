// Two threads (the workbench's memory browser and the agent) opening the same brand-new database
// at once must both succeed: the migration re-checks the schema version under the write lock.
#include "sage_agent/RunStore.h"
#include "sage_memory/Database.h"
#include "sage_memory/MemorySchema.h"

#include <QtTest>
#include <atomic>
#include <thread>

class TestMemoryConcurrentOpen : public QObject {
    Q_OBJECT
private slots:
    void twoThreadsOpenANewFileTogether() {
        QTemporaryDir dir;
        std::vector<sage::memory::SchemaModule> modules = {sage::memory::MemorySchema::module(),
                                                          sage::agent::AgentSchema::module()};
        for (int round = 0; round < 25; ++round) {
            const std::string path = (dir.path() + QString("/db%1.sqlite").arg(round)).toStdString();
            std::atomic<int> failures{0};
            std::atomic<bool> go{false};
            std::string errors[2];  // one per thread: no shared string written concurrently
            auto open = [&](int who) {
                while (!go) std::this_thread::yield();
                try {
                    sage::memory::Database db(path, modules);
                    if (db.schemaVersion("agent") != sage::agent::AgentSchema::module().latestVersion()) ++failures;
                } catch (const std::exception& e) {
                    errors[who] = e.what();
                    ++failures;
                }
            };
            std::thread a(open, 0), b(open, 1);
            go = true;
            a.join();
            b.join();
            const std::string error = errors[0] + (errors[0].empty() || errors[1].empty() ? "" : "; ") + errors[1];
            QVERIFY2(failures == 0, error.c_str());
        }
    }
};

QTEST_GUILESS_MAIN(TestMemoryConcurrentOpen)
#include "test_memory_concurrent_open.moc"
