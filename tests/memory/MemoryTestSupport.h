// Helpers shared by the memory test suites: temporary stores and concise entry builders.
#pragma once

#include "sage_memory/ExperienceStore.h"
#include "sage_memory/MemoryError.h"

#include <QTemporaryDir>
#include <QtTest>

#include <cctype>
#include <cstdio>
#include <cstdlib>
#include <fstream>
#include <unistd.h>
#include <sstream>
#include <string>

namespace QTest {
template <> inline char* toString(const std::string& text) { return qstrdup(text.c_str()); }
} // namespace QTest

namespace sage::memory::test {

// The PostgreSQL server the "_pg" variants of the suites run against (issue 16): a base URL
// without a password, set by ctest from the throw-away cluster (tests/memory/pg_test_server.sh).
// Empty: the suite runs on SQLite files.
// SAGE_SKIP_PG_TESTS=1 skips the PostgreSQL variants on purpose: the process exits with 77, which
// ctest reports as "Skipped" (SKIP_RETURN_CODE), never as passed.
inline std::string postgresTestUrl() {
    const char* url = std::getenv("SAGE_TEST_PG_URL");
    if (!url || !*url) return "";
    if (const char* skip = std::getenv("SAGE_SKIP_PG_TESTS"); skip && std::string(skip) == "1") {
        std::fprintf(stderr, "SKIP: SAGE_SKIP_PG_TESTS=1, the PostgreSQL variant is skipped on request\n");
        std::fflush(stderr);
        std::_Exit(77);  // at once: no destructors under a running QtTest
    }
    return url;
}

// A temporary folder per test class (mix it into the QObject): path("x.db") names a file in it.
// location("x.db") names a store: that file, or on the PostgreSQL variant a schema of its own on
// the test server (the same name gives the same schema, as the same file name gives the same file).
class ScratchDir {
protected:
    std::string path(const char* name) const { return dir_.filePath(name).toStdString(); }
    std::string root() const { return dir_.path().toStdString(); }
    std::string location(const char* name) const {
        const std::string server = postgresTestUrl();
        if (server.empty()) return path(name);
        std::string schema(1, 't');
        schema += std::to_string(::getpid());
        schema += '_';
        for (const char* c = name; *c; ++c) schema += std::isalnum(static_cast<unsigned char>(*c)) ? *c : '_';
        return server + (server.find('?') == std::string::npos ? "?" : "&") + "options=-csearch_path%3D" + schema;
    }

private:
    QTemporaryDir dir_;
};

inline Experience entry(const std::string& title, const std::string& content, Stage stage = Stage::Repair,
                        Trigger trigger = {}, ExperienceStatus status = ExperienceStatus::Approved) {
    Experience e;
    e.title = title;
    e.content = content;
    e.stage = stage;
    e.trigger = std::move(trigger);
    e.status = status;
    e.kind = ExperienceKind::RepairRule;
    e.origin = Origin::Human;
    return e;
}

inline std::string readBytes(const std::string& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream bytes;
    bytes << in.rdbuf();
    return bytes.str();
}

inline void writeBytes(const std::string& path, const std::string& bytes) {
    std::ofstream out(path, std::ios::binary | std::ios::trunc);
    out << bytes;
}

// Runs `body` and returns the MemoryError it throws; fails the test if it throws nothing.
template <class Body> MemoryError expectMemoryError(Body&& body) {
    try {
        body();
    } catch (const MemoryError& e) {
        return e;
    }
    return MemoryError(MemoryError::Code::Sqlite, "<expected a MemoryError, none was thrown>");
}

// One retrieval + outcome cycle of the agent loop for a given stage and reward.
inline CreditReport iterate(ExperienceStore& store, std::int64_t run, std::int64_t iteration, const RetrievalContext& ctx,
                            const std::vector<AdoptionSignal>& adoptions, double reward, MemoryMode mode = MemoryMode::Adoption) {
    const auto found = store.retrieve(ctx);
    store.recordRetrievals(run, iteration, ctx.stage, found);
    IterationOutcome outcome;
    outcome.reward = reward;
    outcome.success = reward > 0;
    outcome.mode = mode;
    return store.recordOutcome(run, iteration, adoptions, outcome);
}

} // namespace sage::memory::test

namespace sage::memory::test {

// The entries as if retrieval had returned them, in this order.
inline std::vector<ScoredExperience> shown(ExperienceStore& store, const std::vector<std::int64_t>& ids) {
    std::vector<ScoredExperience> out;
    for (const std::int64_t id : ids) {
        ScoredExperience s;
        s.experience = store.get(id);
        s.rank = static_cast<int>(out.size()) + 1;
        s.score = 1.0 / s.rank;
        out.push_back(std::move(s));
    }
    return out;
}

inline IterationOutcome outcomeOf(double reward, MemoryMode mode = MemoryMode::Adoption) {
    IterationOutcome outcome;
    outcome.reward = reward;
    outcome.success = reward > 0;
    outcome.mode = mode;
    return outcome;
}

} // namespace sage::memory::test
