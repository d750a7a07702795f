// bench_memory: how fast is the experience memory at the scale of a long-lived workbench?
//
//   bench_memory [--entries N] [--queries Q] [--iterations I] [--budget B] [--db FILE]
//
// Builds (or reuses, with --db) a store of N synthetic experiences (default 100000) whose words,
// triggers, stages and statuses look like real entries, then measures
//   1. retrieval: median latency of ExperienceStore::retrieve (limit 5) over Q varied contexts;
//   2. recording: median time of one iteration's recordRetrievals + recordOutcome (5 entries).
// Targets (issue 5): retrieval <= 10 ms, recording <= 2 ms.
#include "sage_memory/ExperienceStore.h"
#include "sage_memory/TriggerVocabulary.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <filesystem>
#include <random>
#include <string>
#include <vector>

using namespace sage::memory;
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;

namespace {

const std::vector<std::string> kDomainWords{
    "DataCopy", "DataCopyPad", "InitBuffer", "TQue", "TBuf", "TPipe", "AllocTensor", "FreeTensor", "EnQue", "DeQue",
    "GetBlockIdx", "GetBlockNum", "ReduceSum", "WholeReduceSum", "Cast", "Add", "Mul", "Muls", "Adds", "Exp", "Ln",
    "SetFlag", "WaitFlag", "PipeBarrier", "Mmad", "LoadData", "Fixpipe", "Nd2Nz", "tile", "tiling", "buffer", "queue",
    "depth", "aligned", "alignment", "bytes", "UB", "L1", "L0A", "L0C", "GM", "core", "cores", "tail", "remainder",
    "vector", "cube", "repeat", "mask", "float", "half", "bf16", "overflow", "capacity", "double", "latency",
    "bandwidth", "sync", "event", "hazard", "race", "pipe", "MTE2", "MTE3", "scalar", "loop", "offset", "block",
    "length", "split", "reduce", "row", "column", "kernel", "host", "launch", "shape", "stride", "workspace"};

template <class Words> std::string pick(std::mt19937_64& rng, const Words& words) {
    return std::string(words[rng() % words.size()]);
}
constexpr auto& kCategories = TriggerVocabulary::categories;
constexpr auto& kDiagnostics = TriggerVocabulary::diagnostics;
constexpr auto& kBottlenecks = TriggerVocabulary::bottlenecks;

// Domain words plus a long tail of rarer tokens, like real notes.
std::string sentence(std::mt19937_64& rng, int words) {
    std::string out;
    for (int i = 0; i < words; ++i) {
        if (i) out += ' ';
        if (rng() % 3 == 0) {
            out += 'w';
            out += std::to_string(rng() % 20000);
        } else {
            out += pick(rng, kDomainWords);
        }
    }
    return out;
}

Experience synthetic(std::mt19937_64& rng, int index) {
    Experience e;
    e.title = "synthetic-" + std::to_string(index) + " " + sentence(rng, 4);
    e.content = sentence(rng, 45);
    e.kind = static_cast<ExperienceKind>(rng() % 6);
    e.stage = static_cast<Stage>(rng() % 4);
    if (rng() % 2) e.trigger.category = pick(rng, kCategories);
    if (rng() % 3 == 0) e.trigger.diagnostic = pick(rng, kDiagnostics);
    if (rng() % 4 == 0) e.trigger.bottleneck = pick(rng, kBottlenecks);
    e.evidencePattern = pick(rng, kDomainWords);
    const unsigned status = rng() % 10;
    e.status = status < 8 ? ExperienceStatus::Approved : status < 9 ? ExperienceStatus::Pending : ExperienceStatus::Archived;
    e.origin = Origin::Agent;
    return e;
}

RetrievalContext context(std::mt19937_64& rng) {
    RetrievalContext ctx;
    ctx.stage = kLearningStages[rng() % 3];
    ctx.category = pick(rng, kCategories);
    ctx.description = "Implement " + ctx.category + " kernel: " + sentence(rng, 20);
    if (ctx.stage == Stage::Repair)
        for (unsigned i = 0; i < 1 + rng() % 2; ++i) {
            const std::string kind = pick(rng, kDiagnostics);
            ctx.diagnostics.push_back({kind, "kernel.cpp:" + std::to_string(rng() % 200) + ": " + sentence(rng, 8)});
        }
    if (ctx.stage == Stage::Optimize) ctx.bottleneck = pick(rng, kBottlenecks);
    ctx.limit = 5;
    ctx.seed = rng();
    return ctx;
}

struct Figures {
    double median = 0, p90 = 0, max = 0;
};

Figures summarise(std::vector<double> ms) {
    std::sort(ms.begin(), ms.end());
    return {ms[ms.size() / 2], ms[ms.size() * 9 / 10], ms.back()};
}

double since(Clock::time_point start) {
    return std::chrono::duration<double, std::milli>(Clock::now() - start).count();
}

long argument(int argc, char** argv, const char* name, long fallback) {
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == name) return std::atol(argv[i + 1]);
    return fallback;
}

} // namespace

int main(int argc, char** argv) {
    const long entries = argument(argc, argv, "--entries", 100000);
    const long queries = argument(argc, argv, "--queries", 300);
    const long iterations = argument(argc, argv, "--iterations", 300);
    const long budget = argument(argc, argv, "--budget", ScoreWeights{}.postingBudget);
    fs::path file = fs::temp_directory_path() / ("sage_bench_memory_" + std::to_string(::getpid()) + ".db");
    bool temporary = true;
    for (int i = 1; i + 1 < argc; ++i)
        if (std::string(argv[i]) == "--db") {
            file = argv[i + 1];
            temporary = false;
        }
    if (entries < 1 || queries < 1 || iterations < 1 || budget < 1) {
        std::fprintf(stderr, "usage: bench_memory [--entries N] [--queries Q] [--iterations I] [--budget B] [--db FILE]\n");
        return 2;
    }
    try {
        std::mt19937_64 rng(20240601);
        double buildSeconds = 0;
        {
            ExperienceStore store(file);
            const auto start = Clock::now();
            for (long made = store.count(); made < entries;) {
                Transaction batch(store.database());
                for (int i = 0; i < 5000 && made < entries; ++i, ++made) {
                    const std::int64_t id = store.add(synthetic(rng, static_cast<int>(made)));
                    if (rng() % 3 == 0) {  // a third have learned something
                        StageStats s;
                        s.stage = kLearningStages[rng() % 3];
                        s.q = static_cast<double>(rng() % 2001) / 1000.0 - 1.0;
                        s.retrieved = static_cast<std::int64_t>(rng() % 20);
                        s.adopted = s.retrieved / 2;
                        store.repository().saveStageStats(id, s);
                    }
                }
                batch.commit();
            }
            buildSeconds = since(start) / 1000.0;
        }
        const auto openStart = Clock::now();
        ExperienceStore store(file);
        const double openMs = since(openStart);
        const double sizeMb = static_cast<double>(fs::file_size(file)) / (1024.0 * 1024.0);
        std::printf("memory benchmark: %lld experiences in %s (%.1f MB, built in %.1f s; open incl. probe %.1f ms)\n",
                    static_cast<long long>(store.count()), file.c_str(), sizeMb, buildSeconds, openMs);

        std::vector<RetrievalContext> contexts;
        for (long i = 0; i < queries; ++i) {
        contexts.push_back(context(rng));
        contexts.back().weights.postingBudget = static_cast<int>(budget);
    }
        for (int i = 0; i < 20; ++i) store.retrieve(contexts[static_cast<std::size_t>(i) % contexts.size()]);  // warm-up
        std::vector<double> retrieval;
        std::size_t returned = 0;
        for (const RetrievalContext& ctx : contexts) {
            const auto start = Clock::now();
            returned += store.retrieve(ctx).size();
            retrieval.push_back(since(start));
        }
        const Figures r = summarise(retrieval);
        std::printf("retrieval (limit 5, posting budget %ld, %ld contexts, %.1f results avg):   median %6.3f ms  p90 %6.3f ms  max %6.3f ms"
                    "   target <= 10 ms: %s\n",
                    budget, queries, static_cast<double>(returned) / static_cast<double>(queries), r.median, r.p90, r.max,
                    r.median <= 10.0 ? "PASS" : "FAIL");

        std::vector<double> recording;
        const std::string added = "pipe.InitBuffer(inQueueX, 2, tileLength * sizeof(half));\nAscendC::DataCopy(x, y, n);";
        std::int64_t run = 1;  // a run id not used by an earlier benchmark on the same --db
        {
            auto stmt = store.database().prepare("SELECT coalesce(max(run), 0) + 1 FROM retrieval");
            if (stmt.step()) run = stmt.int64(0);
        }
        for (long i = 0; i < iterations; ++i) {
            const RetrievalContext& ctx = contexts[static_cast<std::size_t>(i) % contexts.size()];
            const auto found = store.retrieve(ctx);
            std::vector<std::int64_t> declared;
            if (!found.empty()) declared.push_back(found.front().experience.id);
            const auto adoptions = AdoptionLedger::assess(found, declared, added);
            IterationOutcome outcome;
            outcome.reward = (i % 3 == 0) ? -1.0 : 1.0;
            outcome.success = outcome.reward > 0;
            const auto start = Clock::now();
            store.recordRetrievals(run, i, ctx.stage, found);
            store.recordOutcome(run, i, adoptions, outcome);
            recording.push_back(since(start));
        }
        const Figures w = summarise(recording);
        std::printf("record one iteration (5 retrievals + adoptions, %ld iterations): median %6.3f ms  p90 %6.3f ms  "
                    "max %6.3f ms   target <= 2 ms: %s\n",
                    iterations, w.median, w.p90, w.max, w.median <= 2.0 ? "PASS" : "FAIL");
    } catch (const std::exception& e) {
        std::fprintf(stderr, "bench_memory: error: %s\n", e.what());
        return 1;
    }
    if (temporary) {
        std::error_code ignored;
        for (const char* suffix : {"", "-wal", "-shm"}) fs::remove(file.string() + suffix, ignored);
    }
    return 0;
}
