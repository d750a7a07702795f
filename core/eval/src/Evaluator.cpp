#include "sage_eval/Evaluator.h"

#include "sage_eval/ProfileAnalyzer.h"
#include "sage_eval/RunCache.h"
#include "sage_eval/RunPool.h"
#include "RunSummary.h"
#include "sage_eval/TensorData.h"
#include "sage_eval/Verifier.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/Hash.h"
#include "sage_toolchain/SourcePolicy.h"

#include <algorithm>
#include <chrono>
#include <filesystem>
#include <fstream>
#include <functional>
#include <future>
#include <mutex>
#include <set>
#include <unistd.h>

namespace sage::eval {
namespace fs = std::filesystem;
using Clock = std::chrono::steady_clock;
using toolchain::RunStatus;

namespace {

double since(Clock::time_point t0) { return std::chrono::duration<double>(Clock::now() - t0).count(); }


// A run whose kernel tried to leave the sandbox or whose result did not come from the device.
bool isViolationOrAnomaly(RunStatus status) {
    return status == RunStatus::SandboxViolation || status == RunStatus::UnaccountedOutput ||
           status == RunStatus::ImpossibleResult;
}

// A name no other thread or process uses for its half-written file.
std::string partSuffix() {
    static std::atomic<uint64_t> counter{0};
    return ".part" + std::to_string(::getpid()) + "." + std::to_string(counter++);
}

using CaseSeed = std::pair<std::string, uint64_t>;             // Evaluator::RefKey
using OutputTensors = std::map<std::string, toolchain::Blob>;  // Evaluator::Tensors

// Every case of the task on the first `req.seeds` of its seeds (at least one), in run order.
std::vector<CaseSeed> caseSeeds(const Task& task, const EvalRequest& req) {
    std::vector<CaseSeed> keys;
    size_t nSeeds = std::clamp<size_t>(req.seeds, 1, task.seeds.size());
    for (const auto& c : task.cases)
        for (size_t s = 0; s < nSeeds; ++s) keys.push_back({c.name, task.seeds[s]});
    return keys;
}

// The sandbox input of every run; the perf case's first seed records the timeline when profiling.
std::vector<toolchain::SandboxInput> sandboxInputs(
    const Task& task, const std::vector<CaseSeed>& keys, const EvalRequest& req,
    const std::function<toolchain::SandboxInput(const TaskCase&, uint64_t)>& inputFor) {
    std::vector<toolchain::SandboxInput> inputs;
    for (const auto& [caseName, seed] : keys) {
        const TaskCase& c = *task.findCase(caseName);
        toolchain::SandboxInput in = inputFor(c, seed);
        in.spec.timeline = req.profile && c.perf && seed == task.seeds[0];
        if (auto l = req.caseLaunch.find(caseName); l != req.caseLaunch.end()) in.spec.extra = l->second;
        inputs.push_back(std::move(in));
    }
    return inputs;
}

// Every output of the first `runs` runs against the reference outputs of its case and seed.
void verifyRuns(VerifySection& verify, const Task& task, const std::vector<CaseSeed>& keys, size_t runs,
                const std::vector<OutputTensors>& outputs, std::map<CaseSeed, OutputTensors>& refs) {
    for (size_t i = 0; i < runs; ++i) {
        const TaskCase& c = *task.findCase(keys[i].first);
        CaseCheck cc;
        cc.caseName = c.name;
        cc.seed = keys[i].second;
        cc.pass = true;
        for (const auto& o : task.outputs) {
            if (!o.verified) continue;  // undefined for these inputs (TensorDecl::verified)
            auto tol = task.toleranceFor(o.dtype);
            auto it = outputs[i].find(o.name);
            const toolchain::Blob actual = it == outputs[i].end() ? toolchain::Blob() : it->second;
            const toolchain::Blob& expected = refs[keys[i]][o.name];
            auto check = verifyOutput(o.name, o.dtype, task.shapeOf(o, c), expected.data(), expected.size(), actual.data(),
                                      actual.size(), tol.atol, tol.rtol);
            cc.pass &= check.pass;
            cc.outputs.push_back(std::move(check));
        }
        verify.pass &= cc.pass;
        verify.cases.push_back(std::move(cc));
    }
}

// The profile of the perf case's first seed. A race does not stop the kernel, and its timeline is
// where the engineer sees the two pipes that were not synchronised.
void profilePerfCase(ProfileSection& profile, const Task& task, const std::vector<CaseSeed>& keys,
                     const toolchain::SandboxReport& report, const npu::DeviceProfile& device) {
    const TaskCase& perf = task.perfCase();
    for (size_t i = 0; i < report.runs.size(); ++i) {
        if (keys[i].first != perf.name || keys[i].second != task.seeds[0] || !toolchain::ranToEnd(report.runs[i].status)) continue;
        uint64_t bytes = 0;
        for (const auto& t : task.tensorsFor(perf)) bytes += toolchain::elementCount(t.shape) * toolchain::dtypeBytes(t.dtype);
        profile = analyzeProfile(report.runs[i].launches, device, bytes, perf.name);
    }
}

} // namespace

struct Evaluator::Lazy {
    std::once_flag once;
    std::string runtimeDigest;
};

Evaluator::Evaluator(toolchain::ToolPaths paths, toolchain::DeviceCatalog devices)
    : paths_(paths), devices_(std::move(devices)), compiler_(paths), sandbox_(paths), lazy_(std::make_shared<Lazy>()) {}

nlohmann::json Evaluator::deviceJson(const std::string& id) const {
    std::ifstream in(paths_.devicesDir() + "/" + id + ".json");
    return nlohmann::json::parse(in);
}

const std::string& Evaluator::runtimeDigest() const {
    std::call_once(lazy_->once, [this] {
        lazy_->runtimeDigest = toolchain::ContentHash()
                                   .add(toolchain::fileDigest(paths_.libDir + "/libsage_npu.so"))
                                   .add(toolchain::fileDigest(paths_.binDir + "/sage-runner"))
                                   .hex();
    });
    return lazy_->runtimeDigest;
}

Evaluator Evaluator::fromEnvironment() {
    auto paths = toolchain::ToolPaths::fromEnvironment();
    return Evaluator(paths, toolchain::DeviceCatalog::loadDirectory(paths.devicesDir()));
}

std::string Evaluator::inputFile(const Task& task, const TaskCase& c, uint64_t seed, const TensorDecl& t) const {
    // The case's dims too: a Task built or changed in code keeps the JSON text it was loaded from.
    std::string dims;
    for (const auto& [name, value] : c.dims) dims += name + "=" + std::to_string(value) + ";";
    std::string key = toolchain::ContentHash()
                          .add(task.taskJsonText)
                          .add(c.name)
                          .add(dims)
                          .add(std::to_string(seed))
                          .add(t.name)
                          .add("input-v1")
                          .hex();
    fs::path path = fs::path(paths_.cacheDir) / "inputs" / (key + ".bin");
    std::error_code ec;
    if (fs::exists(path, ec)) {
        toolchain::markUsed(path);
        return path.string();
    }
    fs::create_directories(path.parent_path(), ec);
    auto bytes = generateInput(task, c, seed, t);
    fs::path tmp = path.string() + partSuffix();
    toolchain::writeFile(tmp.string(), bytes.data(), bytes.size());
    fs::rename(tmp, path, ec);  // atomic: concurrent evaluations never see a half-written file
    toolchain::trimCacheFolderSometimes(path.parent_path());
    return path.string();
}

toolchain::SandboxInput Evaluator::sandboxInput(const Task& task, const TaskCase& c, uint64_t seed) const {
    toolchain::SandboxInput in;
    in.spec.id = c.name + "/seed" + std::to_string(seed);
    in.spec.tensors = task.tensorsFor(c);
    in.spec.dims = c.dims;
    in.spec.attrs = task.attrs;
    for (const auto& t : task.inputs) in.inputFiles[t.name] = inputFile(task, c, seed, t);
    return in;
}

std::map<Evaluator::RefKey, Evaluator::Tensors> Evaluator::references(const Task& task, const std::vector<RefKey>& runs,
                                                                      const EvalRequest& req,
                                                                      const std::atomic<bool>& stop,
                                                                      std::string& error) const {
    std::map<RefKey, Tensors> out;
    std::vector<toolchain::SandboxInput> missing;
    std::vector<RefKey> missingKeys;
    std::vector<fs::path> missingDirs;
    for (const auto& key : runs) {
        if (out.count(key)) continue;
        const TaskCase& c = *task.findCase(key.first);
        std::string hash = toolchain::ContentHash()
                               .add(task.referenceSource)
                               .add(task.taskJsonText)
                               .add(c.name)
                               .add(std::to_string(key.second))
                               .add("reference-v3")
                               .hex();
        fs::path dir = fs::path(paths_.cacheDir) / "reference" / hash;
        bool cached = true;
        for (const auto& o : task.outputs) {
            // Raw output-dtype bytes, mapped in place: a cached reference costs no copy or decode.
            auto blob = toolchain::Blob::map((dir / (o.name + ".bin")).string());
            if (!blob.valid() ||
                blob.size() != toolchain::elementCount(task.shapeOf(o, c)) * toolchain::dtypeBytes(o.dtype)) {
                cached = false;
                break;
            }
            out[key][o.name] = std::move(blob);
        }
        if (cached) {
            toolchain::markUsed(dir);
            continue;
        }
        out.erase(key);
        missing.push_back(sandboxInput(task, c, key.second));
        missingKeys.push_back(key);
        missingDirs.push_back(dir);
    }
    if (missing.empty() || stop) return out;
    toolchain::CompileRequest cr;
    cr.source = task.referenceSource;
    cr.displayName = "reference.cpp";
    cr.deviceId = "host";
    cr.isReference = true;
    auto compiled = compiler_.compile(cr);
    if (!compiled.ok) {
        error = "the task's reference.cpp does not compile: " +
                (compiled.diagnostics.empty() ? std::string("?")
                                              : "line " + std::to_string(compiled.diagnostics[0].line) + ": " +
                                                    compiled.diagnostics[0].message);
        return {};
    }
    if (stop) return out;
    toolchain::RunJob job;
    job.mode = "reference";
    job.sharedObject = compiled.sharedObject;
    job.device = deviceJson(req.deviceId);
    toolchain::SandboxOptions opts;
    opts.timeoutSeconds = std::max(120.0, req.timeoutSeconds);
    opts.cancel = req.cancel;
    auto report = runSpread(sandbox_, job, missing, opts, req.runProcesses ? req.runProcesses : availableCores());
    for (size_t i = 0; i < report.runs.size(); ++i) {
        auto& r = report.runs[i];
        if (r.status != RunStatus::Ok) {
            error = "the task's reference failed (" + std::string(toString(r.status)) + "): " + r.message;
            return {};
        }
        fs::create_directories(missingDirs[i]);
        for (const auto& o : task.outputs) {
            auto it = r.outputs.find(o.name);
            if (it == r.outputs.end()) {
                error = "the task's reference wrote no output '" + o.name + "'";
                return {};
            }
            // The runner computed in double and stored the output cast to its dtype. Written
            // under a private name and renamed, so a concurrent reader never maps a partial file.
            const fs::path file = missingDirs[i] / (o.name + ".bin");
            const std::string tmp = file.string() + partSuffix();
            std::error_code ec;
            try {
                toolchain::writeFile(tmp, it->second.data(), it->second.size());
                fs::rename(tmp, file, ec);
            } catch (const std::exception&) {
                fs::remove(tmp, ec);  // not cached this time; the output itself is in memory
            }
            out[missingKeys[i]][o.name] = it->second;
        }
    }
    if (!missingDirs.empty()) toolchain::trimCacheFolderSometimes(missingDirs.front().parent_path());
    return out;
}

toolchain::SandboxReport Evaluator::runKernel(const toolchain::CompileResult& compiled, const toolchain::RunJob& job,
                                              const std::vector<toolchain::SandboxInput>& inputs,
                                              const EvalRequest& req, std::vector<Tensors>& outputs) const {
    const RunCache cache((fs::path(paths_.cacheDir) / "runs").string());
    outputs.assign(inputs.size(), {});
    toolchain::SandboxReport report;
    report.runs.resize(inputs.size());
    report.networkIsolated = true;
    std::vector<std::string> keys(inputs.size());
    std::vector<toolchain::SandboxInput> missing;
    std::vector<size_t> missingAt;
    std::string binary;
    if (req.reuseRuns)
        binary = toolchain::ContentHash().add(toolchain::fileDigest(compiled.sharedObject)).add(runtimeDigest()).hex();
    for (size_t i = 0; i < inputs.size(); ++i) {
        if (req.reuseRuns) {
            keys[i] = RunCache::key(binary, job, inputs[i]);
            if (auto hit = cache.load(keys[i])) {
                report.runs[i] = std::move(hit->result);
                report.runs[i].id = inputs[i].spec.id;
                report.networkIsolated &= hit->networkIsolated;
                outputs[i] = std::move(hit->outputs);
                continue;
            }
        }
        missing.push_back(inputs[i]);
        missingAt.push_back(i);
    }
    if (missing.empty()) return report;
    toolchain::SandboxOptions opts;
    opts.timeoutSeconds = req.timeoutSeconds;
    opts.cancel = req.cancel;
    // Cached runs: the runner's output files are moved next to the cache and hard-linked into
    // their entries (RunCache::store), so tens of MB per evaluation are neither read nor copied.
    if (req.reuseRuns) opts.keepOutputsIn = cache.outputsStagingDir();
    auto fresh = runSpread(sandbox_, job, missing, opts, req.runProcesses ? req.runProcesses : availableCores());
    report.networkIsolated &= fresh.networkIsolated;
    report.stderrTail = fresh.stderrTail;
    // One forged or impossible run taints the whole batch: its kernel shared their process.
    bool tainted = false;
    for (size_t k = 0; k < fresh.runs.size(); ++k) {
        rejectImpossibleResult(fresh.runs[k], missing[k].spec, devices_.get(req.deviceId));
        tainted |= isViolationOrAnomaly(fresh.runs[k].status);
    }
    for (size_t k = 0; k < fresh.runs.size(); ++k) {
        const size_t i = missingAt[k];
        auto& r = fresh.runs[k];
        outputs[i] = std::move(r.outputs);
        r.outputs.clear();
        if (req.reuseRuns && !tainted && RunCache::cacheable(r.status)) cache.store(keys[i], r, outputs[i], fresh.networkIsolated);
        report.runs[i] = std::move(r);
    }
    std::error_code ec;
    if (!opts.keepOutputsIn.empty()) fs::remove_all(opts.keepOutputsIn, ec);  // the mappings and the cache's links stay
    return report;
}

toolchain::CompileRequest Evaluator::compileRequest(const Task& task, const EvalRequest& req) const {
    const npu::DeviceProfile& device = devices_.get(req.deviceId);
    toolchain::CompileRequest cr;
    cr.source = req.source;
    cr.displayName = req.kernelName;
    cr.prelude = req.prelude ? *req.prelude : task.preludeFor(req.source);
    cr.extraFlags = req.extraFlags;
    cr.staged = req.staged;
    cr.stagedDir = req.stagedDir;
    cr.npuArch = device.npuArch;
    cr.deviceId = device.id;
    return cr;
}

bool Evaluator::precompile(const Task& task, const EvalRequest& req) const {
    if (task.bench) return false;  // its binaries are per case variant, known once the goldens ran
    if (!toolchain::SourcePolicy::check(req.source, req.kernelName, req.localHeaders).empty()) return false;
    try {
        toolchain::CompileRequest cr = compileRequest(task, req);
        cr.background = true;
        cr.cancel = req.cancel;
        return compiler_.compile(cr).ok;
    } catch (const std::exception&) {
        return false;  // the evaluation proper reports whatever went wrong
    }
}

Evaluation Evaluator::evaluate(const Task& task, const EvalRequest& req) const {
    const auto t0 = Clock::now();
    Evaluation ev;
    ev.task = task.name;
    ev.device = req.deviceId;
    ev.kernel = req.kernelName;
    const npu::DeviceProfile& device = devices_.get(req.deviceId);

    // 1. Check the source against the kernel policy.
    auto phase = Clock::now();
    auto lap = [&](const char* name) {
        ev.phaseSeconds[name] += since(phase);
        phase = Clock::now();
    };
    auto rejected = toolchain::SourcePolicy::check(req.source, req.kernelName, req.localHeaders);
    lap("check");
    if (!rejected.empty()) {
        ev.compile.diagnostics = rejected;
        ev.run.status = RunStatus::Rejected;
        ev.run.message = rejected.front().message;
        ev.seconds = since(t0);
        return ev;
    }
    if (task.bench) return evaluateWithGolden(task, req, std::move(ev));
    // The case x seed list, then, on a second thread while the kernel compiles and runs: the
    // inputs (generated once, then cached) and the reference outputs (cached after the first time).
    const std::vector<RefKey> keys = caseSeeds(task, req);
    std::atomic<bool> stopReferences{false};
    std::promise<std::vector<toolchain::SandboxInput>> inputsPromise;
    auto inputsReady = inputsPromise.get_future();
    std::string refError;
    std::future<std::map<RefKey, Tensors>> refsFuture;
    if (!req.compileOnly)
        refsFuture = std::async(std::launch::async, [&] {
            try {
                inputsPromise.set_value(sandboxInputs(task, keys, req, [&](const TaskCase& c, uint64_t seed) {
                    return sandboxInput(task, c, seed);
                }));
            } catch (...) {
                inputsPromise.set_exception(std::current_exception());
                throw;
            }
            return references(task, keys, req, stopReferences, refError);
        });
    // Whatever happens below, a started reference computation stops early and is waited for.
    struct StopGuard {
        std::atomic<bool>& stop;
        std::future<std::map<RefKey, Tensors>>& f;
        ~StopGuard() {
            if (f.valid()) {
                stop = true;
                f.wait();
            }
        }
    } stopGuard{stopReferences, refsFuture};

    // 2. Compile.
    auto compiled = compiler_.compile(compileRequest(task, req));
    lap("compile");
    ev.compile.ok = compiled.ok;
    ev.compile.cached = compiled.cached;
    ev.compile.seconds = compiled.seconds;
    ev.compile.diagnostics = compiled.diagnostics;
    if (!compiled.ok) {
        ev.run.message = "not run: the kernel does not compile";
        ev.seconds = since(t0);
        return ev;
    }
    if (req.compileOnly) {
        ev.run.message = "not run: compile only";
        ev.seconds = since(t0);
        return ev;
    }
    // 3. Run every case on `seeds` seeds.
    const auto tRun = Clock::now();
    std::vector<toolchain::SandboxInput> inputs = inputsReady.get();
    lap("inputs");
    toolchain::RunJob job;
    job.mode = "kernel";
    job.sharedObject = compiled.sharedObject;
    job.device = deviceJson(req.deviceId);
    job.launch = task.launch;
    job.maxEvents = req.maxEvents;
    std::vector<Tensors> outputs;
    const auto report = runKernel(compiled, job, inputs, req, outputs);
    summariseRuns(ev.run, report, keys, device.clockMhz);
    ev.run.seconds = since(tRun);
    lap("run");

    // 4. Verify every run that completed.
    auto refs = refsFuture.get();
    lap("reference");
    if (!refError.empty()) {
        if (ev.run.status == RunStatus::Ok) ev.run.status = RunStatus::Error;
        ev.run.message = refError;
    }
    ev.verify.ran = ev.run.status == RunStatus::Ok && refError.empty();
    ev.verify.pass = ev.verify.ran;
    if (ev.verify.ran) verifyRuns(ev.verify, task, keys, report.runs.size(), outputs, refs);
    lap("verify");
    // 5. Profile the perf case.
    if (req.profile) profilePerfCase(ev.profile, task, keys, report, device);
    lap("profile");
    ev.seconds = since(t0);
    return ev;
}

} // namespace sage::eval
