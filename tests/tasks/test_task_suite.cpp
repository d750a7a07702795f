// The task suite under resources/tasks (issue 4), end to end through the evaluation pipeline:
// its shape (tasks, categories, splits, cases, tunables), then every baseline.cpp and tuned.cpp
// compiled, run on every case with 3 seeds and verified against reference.cpp; every tuned kernel
// at least 2x faster than its baseline on the perf case; the baselines' median roofline fraction
// below 0.3. The kernels are evaluated once (two at a time) in initTestCase.
#include "sage_eval/Evaluator.h"
#include "sage_eval/Task.h"
#include "sage_toolchain/ToolPaths.h"

#include <QtTest>

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <map>
#include <mutex>
#include <regex>
#include <set>
#include <thread>

using namespace sage;

namespace {

struct Outcome {
    bool present = false, pass = false;
    size_t checkedRuns = 0;  // case x seed runs that were verified
    std::string failure;     // what went wrong, for the failure message
    uint64_t cycles = 0;
    double roofline = 0;
};

Outcome summarize(const eval::Evaluation& ev) {
    Outcome o;
    o.present = true;
    o.pass = ev.success();
    o.checkedRuns = ev.verify.cases.size();
    if (!ev.compile.ok) {
        o.failure = "does not compile";
        if (!ev.compile.diagnostics.empty())
            o.failure += ": line " + std::to_string(ev.compile.diagnostics[0].line) + ": " + ev.compile.diagnostics[0].message;
    } else if (ev.run.status != toolchain::RunStatus::Ok) {
        o.failure = "run " + std::string(toString(ev.run.status)) + ": " + ev.run.message;
    } else {
        for (const auto& c : ev.verify.cases)
            for (const auto& out : c.outputs)
                if (!out.pass && o.failure.empty())
                    o.failure = c.caseName + "/seed" + std::to_string(c.seed) + ": " + out.reason;
    }
    if (ev.profile.present) {
        o.cycles = ev.profile.totalCycles;
        o.roofline = ev.profile.rooflineFraction;
    }
    return o;
}

uint64_t elements(const eval::Task& t, const eval::TaskCase& c, const eval::TensorDecl& d) {
    uint64_t n = 1;
    for (int64_t v : t.shapeOf(d, c)) n *= uint64_t(v);
    return n;
}

} // namespace

class TestTaskSuite : public QObject {
    Q_OBJECT

    eval::TaskSet set_;
    std::map<std::string, Outcome> baseline_, tuned_;
    double evalSeconds_ = 0;

private slots:
    void initTestCase() {
        // The runner of this build tree, whatever the environment says.
        qputenv("SAGE_BIN_DIR", QByteArray(SAGE_TEST_BIN_DIR));
        set_ = eval::TaskSet::load({toolchain::ToolPaths::fromEnvironment().tasksDir()});
        for (const auto& e : set_.errors) qWarning("rejected task folder: %s", e.c_str());
        QVERIFY2(set_.errors.empty(), "every folder under resources/tasks must load");
        QVERIFY(!set_.tasks.empty());

        const eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
        struct Job {
            const eval::Task* task;
            bool tuned;
        };
        std::vector<Job> jobs;
        for (const auto& t : set_.tasks) {
            jobs.push_back({&t, false});
            if (!t.tunedSource.empty()) jobs.push_back({&t, true});
        }
        // Slowest first (the GEMMs), so two workers finish together.
        std::stable_sort(jobs.begin(), jobs.end(), [](const Job& a, const Job& b) {
            return (a.task->category == "matmul") > (b.task->category == "matmul");
        });
        std::mutex mu;
        std::atomic<size_t> next{0};
        QElapsedTimer timer;
        timer.start();
        auto worker = [&] {
            for (size_t i = next++; i < jobs.size(); i = next++) {
                const Job& j = jobs[i];
                eval::EvalRequest req;
                req.source = j.tuned ? j.task->tunedSource : j.task->baselineSource;
                req.kernelName = j.tuned ? "tuned.cpp" : "baseline.cpp";
                req.seeds = 3;
                req.timeoutSeconds = 300;
                Outcome o = summarize(evaluator.evaluate(*j.task, req));
                std::lock_guard<std::mutex> lock(mu);
                (j.tuned ? tuned_ : baseline_)[j.task->name] = o;
            }
        };
        std::thread second(worker);
        worker();
        second.join();
        evalSeconds_ = timer.elapsed() / 1000.0;
        qInfo("evaluated %zu kernels in %.1f s", jobs.size(), evalSeconds_);
    }

    void suiteShape() {
        std::map<std::string, std::pair<int, int>> categories;  // train, test
        int train = 0, bf16 = 0, tuned = 0;
        for (const auto& t : set_.tasks) {
            auto& c = categories[t.category];
            (t.split == "train" ? c.first : c.second)++;
            train += t.split == "train";
            tuned += !t.tunedSource.empty();
            bool usesBf16 = false;
            for (const auto* list : {&t.inputs, &t.outputs})
                for (const auto& d : *list) usesBf16 |= d.dtype == "bfloat16";
            bf16 += usesBf16;
        }
        QVERIFY2(set_.tasks.size() >= 32, qPrintable(QString("%1 tasks, want at least 32").arg(set_.tasks.size())));
        QVERIFY2(categories.size() >= 9, qPrintable(QString("%1 categories, want at least 9").arg(categories.size())));
        for (const char* required :
             {"elementwise", "activation", "unary_math", "reduction", "normalization", "broadcast", "loss", "matmul", "fused"})
            QVERIFY2(categories.count(required), required);
        const double trainShare = double(train) / double(set_.tasks.size());
        QVERIFY2(trainShare >= 0.5 && trainShare <= 0.7, qPrintable(QString("train share %1").arg(trainShare)));
        for (const auto& [name, c] : categories)
            if (c.first + c.second >= 2)
                QVERIFY2(c.first >= 1 && c.second >= 1, qPrintable("category " + QString::fromStdString(name) +
                                                                   " must have tasks on both sides of the split"));
        QVERIFY2(bf16 >= 2, "bfloat16 in at least two tasks");
        QVERIFY2(tuned >= 6, "tuned.cpp for at least 6 tasks");
    }

    void everyTaskHasSmallTailAndPerfCases() {
        for (const auto& t : set_.tasks) {
            const QString name = QString::fromStdString(t.name);
            QVERIFY2(t.cases.size() >= 3, qPrintable(name + ": at least 3 cases"));
            const eval::TaskCase& perf = t.perfCase();
            QVERIFY2(perf.perf, qPrintable(name + ": a case marked perf"));
            if (t.category == "matmul") {
                const int64_t mkn = perf.dims.at("M") * perf.dims.at("K") * perf.dims.at("N");
                QVERIFY2(mkn >= int64_t(1024) * 1024 * 1024, qPrintable(name + ": GEMM perf case >= 1024^3"));
            } else {
                uint64_t biggest = 0;
                for (const auto& d : t.inputs) biggest = std::max(biggest, elements(t, perf, d));
                QVERIFY2(biggest >= 1024 * 1024, qPrintable(name + ": perf case >= 1 M elements"));
            }
            // A tail case: some tensor whose innermost extent is not a multiple of 32 bytes.
            bool tail = false;
            for (const auto& c : t.cases)
                for (const auto* list : {&t.inputs, &t.outputs})
                    for (const auto& d : *list) {
                        const int64_t inner = t.shapeOf(d, c).back();
                        const int bytes = d.dtype == "float32" || d.dtype == "int32" ? 4 : d.dtype == "int8" ? 1 : 2;
                        tail |= (inner * bytes) % 32 != 0;
                    }
            QVERIFY2(tail, qPrintable(name + ": a case whose rows/vectors are not a multiple of 32 bytes"));
        }
    }

    void baselinesDeclareTunables() {
        const std::regex marker(R"(constexpr\s+\w+\s+(\w+)\s*=\s*[^;]+;\s*//\s*@tunable\s+\w+\s+\{[^}]+\})");
        for (const auto& t : set_.tasks) {
            std::set<std::string> names;
            for (std::sregex_iterator it(t.baselineSource.begin(), t.baselineSource.end(), marker), end; it != end; ++it)
                names.insert((*it)[1].str());
            QVERIFY2(names.size() >= 2, qPrintable(QString::fromStdString(t.name) + ": baseline.cpp declares its tunables"));
            QVERIFY2(names.count("BUFFER_NUM") && names.count("BLOCK_DIM"),
                     qPrintable(QString::fromStdString(t.name) + ": BUFFER_NUM and BLOCK_DIM are tunable"));
        }
    }

    void baselinesVerify() {
        QStringList failures;
        for (const auto& t : set_.tasks) {
            const Outcome& o = baseline_.at(t.name);
            if (!o.pass) failures << QString::fromStdString(t.name + ": " + o.failure);
            else if (o.checkedRuns != t.cases.size() * 3)
                failures << QString::fromStdString(t.name) + QString(": verified %1 runs").arg(o.checkedRuns);
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    void tunedVerifyAndAreTwiceAsFast() {
        QStringList failures;
        for (const auto& t : set_.tasks) {
            if (t.tunedSource.empty()) continue;
            const Outcome& b = baseline_.at(t.name);
            const Outcome& o = tuned_.at(t.name);
            const QString name = QString::fromStdString(t.name);
            if (!o.pass) failures << name + ": " + QString::fromStdString(o.failure);
            else if (o.checkedRuns != t.cases.size() * 3) failures << name + QString(": verified %1 runs").arg(o.checkedRuns);
            else if (!b.pass || !o.cycles || double(b.cycles) < 2.0 * double(o.cycles))
                failures << name + QString(": baseline %1 cycles, tuned %2: less than 2x").arg(b.cycles).arg(o.cycles);
            else
                qInfo("%-16s baseline %10llu cycles, tuned %8llu cycles: %.1fx", t.name.c_str(),
                      (unsigned long long)b.cycles, (unsigned long long)o.cycles, double(b.cycles) / double(o.cycles));
        }
        QVERIFY2(failures.isEmpty(), qPrintable(failures.join("\n")));
    }

    void baselinesLeaveRoomToOptimise() {
        std::vector<double> fractions;
        for (const auto& [name, o] : baseline_) {
            QVERIFY2(o.cycles > 0, qPrintable(QString::fromStdString(name) + ": the perf case was profiled"));
            fractions.push_back(o.roofline);
        }
        std::sort(fractions.begin(), fractions.end());
        const size_t n = fractions.size();
        const double median = n % 2 ? fractions[n / 2] : 0.5 * (fractions[n / 2 - 1] + fractions[n / 2]);
        qInfo("median baseline roofline fraction %.4f", median);
        QVERIFY2(median < 0.3, qPrintable(QString("median baseline roofline fraction %1").arg(median)));
    }
};

QTEST_GUILESS_MAIN(TestTaskSuite)
#include "test_task_suite.moc"
