#include "cli/tasks_report.h"

#include <algorithm>
#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <map>
#include <mutex>
#include <optional>
#include <set>
#include <sstream>
#include <thread>

namespace sage::cli {
namespace {

std::string fixed(double v, int digits) {
    char buf[64];
    std::snprintf(buf, sizeof buf, "%.*f", digits, v);
    return buf;
}

std::string withThousands(uint64_t v) {
    std::string s = std::to_string(v), out;
    for (size_t i = 0; i < s.size(); ++i) {
        if (i && (s.size() - i) % 3 == 0) out += ',';
        out += s[i];
    }
    return out;
}

double median(std::vector<double> v) {
    if (v.empty()) return 0;
    std::sort(v.begin(), v.end());
    size_t n = v.size();
    return n % 2 ? v[n / 2] : 0.5 * (v[n / 2 - 1] + v[n / 2]);
}

std::string casesText(const eval::Task& t) {
    std::string out;
    for (const auto& c : t.cases) {
        if (!out.empty()) out += "; ";
        out += c.name + (c.perf ? "\\*" : "");
        for (const auto& [k, v] : c.dims) out += " " + k + "=" + std::to_string(v);
    }
    return out;
}

KernelOutcome evaluateKernel(const eval::Evaluator& evaluator, const eval::Task& task, const std::string& source,
                             const std::string& file, const std::string& device, size_t seeds) {
    if (source.empty()) return {};
    eval::EvalRequest req;
    req.source = source;
    req.kernelName = file;
    req.deviceId = device;
    req.seeds = seeds;
    req.timeoutSeconds = 300;  // the GEMM perf case takes a few seconds per seed
    return summarize(evaluator.evaluate(task, req));
}

} // namespace

double TaskOutcome::speedup() const {
    if (!baseline.pass || !tuned.pass || !tuned.cycles) return 0;
    return double(baseline.cycles) / double(tuned.cycles);
}

double SuiteReport::medianBaselineRoofline() const {
    std::vector<double> v;
    for (const auto& t : tasks)
        if (t.baseline.pass) v.push_back(t.baseline.roofline);
    return median(v);
}

bool SuiteReport::allPass() const {
    return std::all_of(tasks.begin(), tasks.end(), [](const TaskOutcome& t) {
        return t.baseline.pass && (!t.tuned.present || t.tuned.pass);
    });
}

KernelOutcome summarize(const eval::Evaluation& ev) {
    KernelOutcome k;
    k.present = true;
    k.pass = ev.success();
    k.seconds = ev.seconds;
    if (!ev.compile.ok) {
        k.status = "does not compile";
        if (!ev.compile.diagnostics.empty())
            k.status += " (line " + std::to_string(ev.compile.diagnostics.front().line) + ": " +
                        ev.compile.diagnostics.front().message + ")";
    } else if (ev.run.status != toolchain::RunStatus::Ok) {
        k.status = "run " + std::string(toString(ev.run.status)) + (ev.run.message.empty() ? "" : ": " + ev.run.message);
    } else if (!ev.verify.pass) {
        k.status = "wrong result";
        bool named = false;  // the first failing output is named
        for (const auto& c : ev.verify.cases)
            for (const auto& o : c.outputs)
                if (!o.pass && !named) {
                    k.status += " (" + c.caseName + ", seed " + std::to_string(c.seed) + ": " + o.reason + ")";
                    named = true;
                }
    } else {
        k.status = "pass";
    }
    if (ev.profile.present) {
        k.cycles = ev.profile.totalCycles;
        k.roofline = ev.profile.rooflineFraction;
        k.bottleneck = ev.profile.bottleneck;
    }
    return k;
}

SuiteReport evaluateSuite(const eval::TaskSet& set, const eval::Evaluator& evaluator, const std::string& device,
                          size_t seeds, unsigned jobs, const std::function<void(const TaskOutcome&)>& progress) {
    SuiteReport report;
    report.device = device;
    report.seeds = seeds;
    const size_t n = set.tasks.size();
    std::vector<std::optional<TaskOutcome>> done(n);
    std::mutex mu;
    std::condition_variable cv;
    std::atomic<size_t> next{0};
    auto worker = [&] {
        for (size_t i = next++; i < n; i = next++) {
            const eval::Task& t = set.tasks[i];
            TaskOutcome o;
            o.task = &t;
            o.baseline = evaluateKernel(evaluator, t, t.baselineSource, "baseline.cpp", device, seeds);
            o.tuned = evaluateKernel(evaluator, t, t.tunedSource, "tuned.cpp", device, seeds);
            std::lock_guard<std::mutex> lock(mu);
            done[i] = std::move(o);
            cv.notify_all();
        }
    };
    std::vector<std::thread> pool;
    for (unsigned j = 0; j < std::max(1u, jobs); ++j) pool.emplace_back(worker);
    for (size_t i = 0; i < n; ++i) {
        std::unique_lock<std::mutex> lock(mu);
        cv.wait(lock, [&] { return done[i].has_value(); });
        TaskOutcome o = *done[i];
        lock.unlock();
        if (progress) progress(o);
        report.tasks.push_back(std::move(o));
    }
    for (auto& th : pool) th.join();
    return report;
}

namespace {

// The guide to adding a task, after the tables (the page is generated, so the guide lives here).
const char* const kHowToAddATask = R"(
## How to add a task

A task is a folder `resources/tasks/<name>/`; `sage tasks`, `sage eval`, the agent and this report
pick it up without any code change (`--tasks DIR` adds folders from elsewhere).

```
resources/tasks/<name>/
  task.json       what to compute: tensors, cases, value ranges, tolerance, launch
  reference.cpp   plain C++ reference on doubles
  baseline.cpp    naive but correct kernel + host side (what the agent starts from)
  tuned.cpp       optional: an optimised kernel (the report and test_task_suite compare it)
```

### task.json

| field | meaning |
|---|---|
| `name` | identifier, equal to the folder name |
| `category` | one of `elementwise`, `activation`, `unary_math`, `reduction`, `normalization`, `broadcast`, `loss`, `matmul`, `fused` (or a new one) |
| `description` | prose for the agent and the engineer: the formula, shapes, value ranges, what is hard |
| `split` | `train` (the agent may learn from it) or `test` (held out); keep about 60/40 per category |
| `inputs`, `outputs` | `[{name, dtype, shape}]`; dtype `float16`, `bfloat16`, `float32`, `int32`, `int8`; shape entries are integers or symbols/expressions (`"N"`, `"M"`, `"N/2"`) |
| `attrs` | optional named scalars, e.g. `{"alpha": 1.5}` (shape expressions and tiling values may use them) |
| `cases` | `[{name, dims, perf}]`: give at least a `small` case, a `tail` case whose length is not a multiple of the natural tile and whose row/vector byte size is not a multiple of 32, and one `"perf": true` case of at least 1 M elements (GEMM: 1024 x 1024 x 1024) |
| `init` | per input: `{"dist": "uniform", "low", "high"}`, `{"dist": "normal", "mean", "std"}`, `{"dist": "randint", "low", "high"}` (inclusive) or `{"dist": "constant", "value"}` |
| `tolerance` | optional `{atol, rtol}`; defaults: float32 1e-4, float16/bfloat16 1e-2, integers exact. An element fails only if its absolute error exceeds atol **and** its relative error exceeds rtol |
| `seeds` | optional list of input seeds (default `[0, 1, 2]`) |
| `launch` | optional: `{entry, args, block_dim, tiling: {struct, fields: [{name, type, value}]}}`, how to launch a kernel file that has no `SAGE_HOST`; `args` are tensor names, `"tiling"` or `"workspace"` |

### reference.cpp

```cpp
#include "sage_reference.h"
SAGE_REFERENCE(ctx) {
    const int64_t M = ctx.dim("M"), N = ctx.dim("N");   // shape symbols of the case
    auto x = ctx.in("x");                                // std::span<const double>, row-major
    auto y = ctx.out("y");                               // std::span<double>
    const double eps = ctx.attr("eps");                  // task attribute
    ...                                                  // ctx.shape("x") gives a tensor's shape
}
```

The inputs arrive already rounded to their dtype; compute in double. The result is rounded to
the output's dtype, as a kernel would store it, and the verifier compares the kernel's output
with it element by element within the tolerance (and rejects an all-zero or constant output
where the reference varies).

### Kernel files (baseline.cpp, tuned.cpp)

An AscendC kernel (`#include "kernel_operator.h"`, see `docs/kernel-api.md`) plus its host side:

```cpp
SAGE_HOST(ctx) {
    MyTiling t{(uint32_t)ctx.numel("x"), (float)ctx.attr("alpha")};   // also ctx.dim("N"), ctx.shape("x", 0)
    ICPU_RUN_KF(my_kernel, BLOCK_DIM, ctx.gm("x"), ctx.gm("y"), ctx.gm("z"), ctx.tiling(t));
}
```

`ctx.gm(name)` is a tensor in GM, `ctx.workspace(bytes)` zeroed scratch GM (outputs are not
zeroed), `ctx.tiling(struct)` a GM copy of a tiling struct; several `ICPU_RUN_KF` calls run in
order (their cycles add up). The baseline is a naive first draft — one block, one buffer per
queue, small tiles — that is correct for any size: copy tails with `DataCopyPad`.

**Tunables.** Declare every knob the agent's built-in policy may turn as a constant with a marker
listing the values it may take:

```cpp
constexpr uint32_t TILE_LENGTH = 256;  // @tunable tile_length {128, 256, 512, 1024, 2048, 4096, 8192}
constexpr int32_t BUFFER_NUM = 1;      // @tunable buffer_num {1, 2}
constexpr uint32_t BLOCK_DIM = 1;      // @tunable block_dim {1, 2, 4, 8, 16, 24, 32, 48}
```

(row tasks use `ROWS_PER_TILE`, GEMMs `BASE_M`, `BASE_N`, `BASE_K`). The kernel must stay correct
for **every** value of every set, alone and combined: check that the largest tile times the
buffers times the queues (plus temporaries) fits the 184 KB of UB (L1 512 KB, L0A/L0B 64 KB, L0C
128 KB), or shrink the set.

### Check it

```
sage eval --task <name>                          # baseline: compile, run, verify, profile
sage eval --task <name> --kernel resources/tasks/<name>/tuned.cpp
sage tasks --report                              # re-evaluate the suite, rewrite docs/tasks.md
ctest -R test_task_suite                         # all kernels verify; tuned >= 2x baseline
```

A tuned kernel must verify on every case and seed and be at least 2x faster than the baseline
in simulated cycles on the perf case; the baselines' median roofline fraction must stay below 0.3.
)";

struct SuiteCounts {
    std::map<std::string, std::pair<int, int>> categories;  // category -> (train, test)
    size_t train = 0, tuned = 0, tunedPass = 0, baselinePass = 0;
    std::vector<double> speedups;
};

SuiteCounts countSuite(const SuiteReport& r) {
    SuiteCounts n;
    for (const auto& t : r.tasks) {
        auto& c = n.categories[t.task->category];
        (t.task->split == "train" ? c.first : c.second)++;
        n.train += t.task->split == "train";
        n.baselinePass += t.baseline.pass;
        if (t.tuned.present) {
            ++n.tuned;
            n.tunedPass += t.tuned.pass;
            if (t.speedup() > 0) n.speedups.push_back(t.speedup());
        }
    }
    return n;
}

void writeSummary(std::ostringstream& md, const SuiteReport& r, const SuiteCounts& n) {
    md << "## Summary\n\n";
    md << "- **" << r.tasks.size() << " tasks** in **" << n.categories.size() << " categories**: " << n.train
       << " train, " << r.tasks.size() - n.train << " test.\n";
    md << "- Verification: " << n.baselinePass << " of " << r.tasks.size() << " baselines and " << n.tunedPass << " of "
       << n.tuned << " tuned kernels pass on every case and seed"
       << (r.allPass() ? "." : " — **failures are listed in the table**.") << "\n";
    md << "- Median baseline roofline fraction: **" << fixed(r.medianBaselineRoofline(), 3)
       << "** (the naive baselines leave room to optimise).\n";
    if (!n.speedups.empty()) {
        md << "- Tuned kernels: " << n.speedups.size() << ", speedup over the baseline on the perf case from "
           << fixed(*std::min_element(n.speedups.begin(), n.speedups.end()), 1) << "x to "
           << fixed(*std::max_element(n.speedups.begin(), n.speedups.end()), 1) << "x (median "
           << fixed(median(n.speedups), 1) << "x).\n";
    }
    md << "\n| category | train | test |\n|---|---:|---:|\n";
    for (const auto& [name, c] : n.categories) md << "| " << name << " | " << c.first << " | " << c.second << " |\n";
}

void writeTaskTable(std::ostringstream& md, const SuiteReport& r) {
    md << "\n## Tasks\n\n"
       << "Cases: `*` marks the perf case. Bottleneck: the profiler's class for the perf case "
       << "(baseline, then tuned).\n\n"
       << "| task | category | split | cases | baseline cycles | tuned cycles | speedup | roofline baseline | "
          "roofline tuned | bottleneck |\n"
       << "|---|---|---|---|---:|---:|---:|---:|---:|---|\n";
    std::vector<const TaskOutcome*> rows;
    for (const auto& t : r.tasks) rows.push_back(&t);
    std::stable_sort(rows.begin(), rows.end(), [](const TaskOutcome* a, const TaskOutcome* b) {
        return a->task->category < b->task->category;
    });
    auto cyclesCell = [](const KernelOutcome& k) -> std::string {
        if (!k.present) return "—";
        if (!k.pass) return "FAIL: " + k.status;
        return withThousands(k.cycles);
    };
    for (const auto* t : rows) {
        const auto& b = t->baseline;
        const auto& u = t->tuned;
        std::string bottleneck = b.pass ? b.bottleneck : "—";
        if (u.present && u.pass) bottleneck += " → " + u.bottleneck;
        md << "| " << t->task->name << " | " << t->task->category << " | " << t->task->split << " | "
           << casesText(*t->task) << " | " << cyclesCell(b) << " | " << cyclesCell(u) << " | "
           << (t->speedup() > 0 ? fixed(t->speedup(), 1) + "x" : "—") << " | "
           << (b.pass ? fixed(b.roofline, 3) : "—") << " | " << (u.present && u.pass ? fixed(u.roofline, 3) : "—")
           << " | " << bottleneck << " |\n";
    }
}

} // namespace

std::string renderTasksMarkdown(const SuiteReport& r) {
    std::ostringstream md;
    md << "# Task suite\n\n"
       << "Generated by `sage tasks --report` on device `" << r.device << "`: every task's `baseline.cpp` and "
       << "`tuned.cpp` were compiled, run on every case with " << r.seeds << " seeds, verified against "
       << "`reference.cpp` and profiled on the perf case. Cycles are simulated cycles of the perf case "
       << "(launch overhead included); the roofline fraction is the least time the whole device could need "
       << "for the perf case's data movement and arithmetic divided by the kernel's time. Do not edit this "
       << "file by hand: change the tasks and run the command again.\n\n";
    writeSummary(md, r, countSuite(r));
    writeTaskTable(md, r);
    md << kHowToAddATask;
    return md.str();
}

} // namespace sage::cli
