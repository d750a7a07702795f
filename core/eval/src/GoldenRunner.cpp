#include "sage_eval/GoldenRunner.h"

#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"
#include "sage_toolchain/Process.h"

#include <nlohmann/json.hpp>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <mutex>
#include <unistd.h>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string runnerDir(const toolchain::ToolPaths& paths) { return paths.resources + "/cann-bench"; }

// What changes every golden's result: the runner and its shims.
const std::string& runnerDigest(const toolchain::ToolPaths& paths) {
    static std::once_flag once;
    static std::string digest;
    std::call_once(once, [&] {
        digest = toolchain::ContentHash()
                     .add(toolchain::readTextFile(runnerDir(paths) + "/golden_runner.py"))
                     .add(toolchain::readTextFile(runnerDir(paths) + "/golden_shims.py"))
                     .add("golden-v1")
                     .hex();
    });
    return digest;
}

json caseJson(const cannbench::BenchCase& c, uint64_t seed) {
    return {{"case_id", c.id}, {"seed", seed}, {"shapes", c.inputShapes}, {"dtypes", c.dtypes}, {"attrs", c.attrs},
            {"value_range", c.valueRange}};
}

std::vector<int64_t> shapeOf(const json& j) {
    std::vector<int64_t> s;
    if (j.is_array())
        for (const auto& d : j) s.push_back(d.is_number_integer() ? d.get<int64_t>() : 0);
    return s;
}

GoldenCase readManifest(const fs::path& dir) {
    GoldenCase g;
    json m;
    try {
        std::ifstream in(dir / "manifest.json");
        m = json::parse(in);
    } catch (const std::exception& e) {
        g.error = "the golden's manifest " + (dir / "manifest.json").string() + " is unreadable: " + e.what();
        return g;
    }
    if (m.contains("error")) {
        g.error = m.value("error", "") + (m.contains("where") ? " (" + m.value("where", "") + ")" : "");
        return g;
    }
    auto tensors = [&](const char* key, std::vector<GoldenTensor>& out) {
        for (const auto& t : m.value(key, json::array())) {
            GoldenTensor gt;
            gt.name = t.value("name", "");
            gt.dtype = t.value("dtype", "");
            gt.shape = shapeOf(t.value("shape", json::array()));
            gt.file = (dir / (gt.name + ".bin")).string();
            if (t.value("native", false)) gt.nativeFile = (dir / (gt.name + ".native.bin")).string();
            out.push_back(std::move(gt));
        }
    };
    tensors("inputs", g.inputs);
    tensors("outputs", g.outputs);
    for (const auto& n : m.value("notes", json::array()))
        if (n.is_string()) g.notes.push_back(n);
    g.goldenSeconds = m.value("golden_seconds", 0.0);
    g.ok = !g.outputs.empty();
    if (!g.ok) g.error = "the golden returned no tensor output";
    return g;
}

std::string endedHow(const toolchain::ProcessResult& r) {
    if (!r.startError.empty()) return r.startError;
    if (r.timedOut) return "it ran out of time";
    if (r.memoryLimitHit) return "it ran out of memory";
    if (r.signal) return "it was killed by " + toolchain::signalName(r.signal);
    std::string tail = r.err.size() > 600 ? r.err.substr(r.err.size() - 600) : r.err;
    return "it exited with code " + std::to_string(r.exitCode) + (tail.empty() ? "" : ": " + tail);
}

} // namespace

std::string GoldenRunner::pythonPath() {
    const char* p = std::getenv("SAGE_PYTHON");
    return p && *p ? p : "/usr/bin/python3";
}

std::string GoldenRunner::pythonProblem() const {
    static std::once_flag once;
    static std::string problem;
    std::call_once(once, [&] {
        const std::string python = pythonPath();
        toolchain::ProcessSpec ps;
        ps.argv = {python, "-c", "import torch, yaml"};
        ps.timeoutSeconds = 120;
        const auto r = toolchain::runProcess(ps);
        if (!r.started || r.exitCode != 0)
            problem = "CANN Bench's goldens run with PyTorch, which " + python +
                      " cannot import (" + (r.startError.empty() ? r.err.substr(0, 200) : r.startError) +
                      "): install Debian's packages with `apt-get install python3-torch python3-yaml` "
                      "(scripts/install-deps.sh installs them), or set SAGE_PYTHON to an interpreter that has torch";
    });
    return problem;
}

std::vector<GoldenCase> GoldenRunner::prepare(const cannbench::Operator& op,
                                              const std::vector<std::pair<const cannbench::BenchCase*, uint64_t>>& runs,
                                              const GoldenOptions& options) const {
    std::vector<GoldenCase> out(runs.size());
    std::vector<size_t> missing;
    std::vector<fs::path> dirs(runs.size());
    const fs::path root = fs::path(paths_.cacheDir) / "golden";
    for (size_t i = 0; i < runs.size(); ++i) {
        const auto& [c, seed] = runs[i];
        dirs[i] = root / toolchain::ContentHash()
                             .add(op.contentHash)
                             .add(runnerDigest(paths_))
                             .add(caseJson(*c, seed).dump())
                             .hex();
        if (fs::exists(dirs[i] / "manifest.json")) {
            out[i] = readManifest(dirs[i]);
            out[i].cached = true;
            toolchain::markUsed(dirs[i]);
        } else {
            missing.push_back(i);
        }
    }
    if (missing.empty()) return out;
    if (const std::string problem = pythonProblem(); !problem.empty()) {
        for (size_t i : missing) out[i].error = problem;
        return out;
    }
    // One process for every missing case: PyTorch's import costs seconds. It writes into one private
    // work folder ("*.tmp.*": cache trimming leaves it alone however long the goldens take); each case
    // that finished is renamed into the cache afterwards, so a reader never sees half a case.
    const fs::path work = root / ("job-" + toolchain::ContentHash().add(op.contentHash).add(dirs[missing[0]].string()).hex() +
                                  ".tmp." + std::to_string(::getpid()));
    std::error_code ec;
    fs::remove_all(work, ec);
    fs::create_directories(work);
    json job = {{"golden", op.goldenFile}, {"function", op.proto.function}, {"operator", op.proto.name},
                {"inputs", json::array()}, {"outputs", json::array()}, {"cases", json::array()}};
    for (const auto& t : op.proto.inputs) job["inputs"].push_back(t.name);
    for (const auto& t : op.proto.outputs) job["outputs"].push_back(t.name);
    for (size_t k = 0; k < missing.size(); ++k) {
        json c = caseJson(*runs[missing[k]].first, runs[missing[k]].second);
        c["out"] = (work / ("case" + std::to_string(k))).string();
        job["cases"].push_back(c);
    }
    toolchain::writeFile((work / "job.json").string(), job.dump());
    toolchain::ProcessSpec ps;
    ps.argv = {pythonPath(), runnerDir(paths_) + "/golden_runner.py", (work / "job.json").string()};
    ps.workDir = work.string();
    ps.timeoutSeconds = options.timeoutSeconds;
    ps.cancel = options.cancel;
    ps.isolateNetwork = true;
    ps.limits.groupMemoryBytes = options.memoryBytes;
    ps.limits.addressSpaceBytes = options.memoryBytes + (8ull << 30);  // PyTorch reserves address space it never touches
    ps.limits.groupProcesses = 256;
    ps.confine.enabled = true;
    ps.confine.procfs = true;  // PyTorch reads /proc/cpuinfo
    ps.confine.tmpBytes = 1ull << 30;
    // /etc/alternatives: Debian resolves libblas.so.3, which torch links, through it.
    ps.confine.readOnly = {op.dir, runnerDir(paths_), "/etc/alternatives"};
    ps.confine.writable = {work.string()};
    ps.env = {"HOME=/tmp", "PYTHONDONTWRITEBYTECODE=1", "OMP_NUM_THREADS=2", "SAGE_GOLDEN_THREADS=2"};
    const auto r = toolchain::runProcess(ps);
    for (size_t k = 0; k < missing.size(); ++k) {
        const size_t i = missing[k];
        const fs::path done = work / ("case" + std::to_string(k));
        if (!fs::exists(done / "manifest.json")) {
            out[i].error = "the golden process of " + op.folder + " ended before case " + std::to_string(runs[i].first->id) + ": " + endedHow(r);
            continue;
        }
        fs::rename(done, dirs[i], ec);  // another process may have stored the same case first: keep either
        if (fs::exists(dirs[i] / "manifest.json")) out[i] = readManifest(dirs[i]);
        else out[i].error = "could not store the golden's results of case " + std::to_string(runs[i].first->id) + " in " +
                            dirs[i].string() + ": " + ec.message() + " (is the cache folder writable?)";
    }
    fs::remove_all(work, ec);
    toolchain::trimCacheFolderSometimes(root);
    return out;
}

} // namespace sage::eval
