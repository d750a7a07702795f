#include "sage_eval/Evaluation.h"

#include <cmath>

namespace sage::eval {
using nlohmann::json;

namespace {
json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }  // JSON has no inf/nan

json diagnostics(const std::vector<toolchain::Diagnostic>& ds) {
    json a = json::array();
    for (const auto& d : ds) a.push_back(toolchain::toJson(d));
    return a;
}
} // namespace

json Evaluation::toJson() const {
    json j;
    j["task"] = task;
    j["device"] = device;
    j["kernel"] = kernel;
    j["success"] = success();
    j["seconds"] = seconds;
    j["phase_seconds"] = phaseSeconds;
    j["compile"] = {{"ok", compile.ok}, {"cached", compile.cached}, {"seconds", compile.seconds},
                    {"diagnostics", diagnostics(compile.diagnostics)}};
    json runs = json::array();
    for (const auto& r : run.runs)
        runs.push_back({{"case", r.caseName}, {"seed", r.seed}, {"status", r.status}, {"message", r.message},
                        {"seconds", r.seconds}});
    json errors = json::array();
    for (const auto& d : run.diagnostics)
        if (d.severity == "error") errors.push_back(toolchain::toJson(d));
    j["run"] = {{"status", run.status},         {"message", run.message}, {"errors", errors},
                {"diagnostics", diagnostics(run.diagnostics)}, {"runs", runs}, {"seconds", run.seconds},
                {"network_isolated", run.networkIsolated}};
    json cases = json::array();
    std::map<std::string, json> worst;  // per output name, the worst case
    for (const auto& c : verify.cases) {
        json outs = json::array();
        for (const auto& o : c.outputs) {
            json mism = json::array();
            for (const auto& m : o.firstMismatches)
                mism.push_back({{"index", m.index}, {"expected", num(m.expected)}, {"actual", num(m.actual)},
                                {"abs_error", num(m.absError)}, {"rel_error", num(m.relError)}});
            json oj = {{"name", o.name},       {"pass", o.pass},
                       {"reason", o.reason},   {"max_abs_error", num(o.maxAbsError)},
                       {"max_rel_error", num(o.maxRelError)}, {"mismatches", o.mismatches},
                       {"checked", o.checked}, {"atol", o.atol}, {"rtol", o.rtol},
                       {"first_mismatches", mism}, {"histogram", o.histogram}, {"case", c.caseName}, {"seed", c.seed}};
            auto it = worst.find(o.name);
            if (it == worst.end() || (!o.pass && it->second["pass"].get<bool>()) ||
                (o.pass == it->second["pass"].get<bool>() && o.mismatches > it->second["mismatches"].get<uint64_t>()))
                worst[o.name] = oj;
            outs.push_back(std::move(oj));
        }
        cases.push_back({{"case", c.caseName}, {"seed", c.seed}, {"pass", c.pass}, {"outputs", outs}});
    }
    json outputs = json::array();
    for (auto& [name, oj] : worst) outputs.push_back(oj);
    j["verify"] = {{"ran", verify.ran}, {"pass", verify.pass}, {"outputs", outputs}, {"cases", cases}};
    if (profile.present) {
        json lines = json::array();
        for (size_t i = 0; i < profile.lines.size() && i < 50; ++i)
            lines.push_back({{"line", profile.lines[i].line}, {"cycles", profile.lines[i].cycles},
                             {"events", profile.lines[i].events}});
        json pipes;
        for (const auto& [k, v] : profile.pipeRatios) pipes[k] = v;
        j["profile"] = {{"case", profile.caseName},
                        {"total_cycles", profile.totalCycles},
                        {"time_us", profile.timeUs},
                        {"pipes", pipes},
                        {"pipe_cycles", profile.pipeCycles},
                        {"memory_bound", profile.memoryBound},
                        {"core_cycles", profile.coreCycles},
                        {"imbalance", profile.imbalance},
                        {"pipe_overlap", profile.pipeOverlap},
                        {"block_dim", profile.blockDim},
                        {"cores_used", profile.coresUsed},
                        {"gm_bytes", profile.gmBytes},
                        {"bottleneck", profile.bottleneck},
                        {"advice", profile.advice},
                        {"roofline_cycles", profile.rooflineCycles},
                        {"roofline_fraction", profile.rooflineFraction},
                        {"hot_lines", lines}};
    } else {
        j["profile"] = nullptr;
    }
    return j;
}

} // namespace sage::eval
