#include "ui/EvaluationJsonReader.h"

#include <cmath>
#include <limits>

namespace sage::ui {

namespace {
using nlohmann::json;

template <class T> T get(const json& j, const char* key, T fallback = {}) {
    auto it = j.find(key);
    if (it == j.end() || it->is_null()) return fallback;
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        return fallback;
    }
}

double number(const json& j, const char* key) {  // null means NaN/inf in the JSON (it has none)
    auto it = j.find(key);
    if (it == j.end()) return 0;
    if (it->is_null()) return std::numeric_limits<double>::infinity();
    return it->is_number() ? it->get<double>() : 0;
}

std::vector<toolchain::Diagnostic> diagnostics(const json& j) {
    std::vector<toolchain::Diagnostic> out;
    if (!j.is_array()) return out;
    for (const auto& d : j) {
        try {
            out.push_back(toolchain::diagnosticFromJson(d));
        } catch (const std::exception&) {
        }
    }
    return out;
}
} // namespace

eval::Evaluation EvaluationJsonReader::read(const json& j) {
    eval::Evaluation ev;
    if (!j.is_object()) return ev;
    ev.task = get<std::string>(j, "task");
    ev.device = get<std::string>(j, "device");
    ev.kernel = get<std::string>(j, "kernel");
    ev.seconds = get<double>(j, "seconds");
    if (auto c = j.find("compile"); c != j.end() && c->is_object()) {
        ev.compile.ok = get<bool>(*c, "ok");
        ev.compile.cached = get<bool>(*c, "cached");
        ev.compile.seconds = get<double>(*c, "seconds");
        ev.compile.diagnostics = diagnostics(c->value("diagnostics", json::array()));
    }
    if (auto r = j.find("run"); r != j.end() && r->is_object()) {
        ev.run.status = get<std::string>(*r, "status", "not_run");
        ev.run.message = get<std::string>(*r, "message");
        ev.run.diagnostics = diagnostics(r->value("diagnostics", json::array()));
        ev.run.seconds = get<double>(*r, "seconds");
        for (const auto& cr : r->value("runs", json::array()))
            ev.run.runs.push_back({get<std::string>(cr, "case"), get<uint64_t>(cr, "seed"), get<std::string>(cr, "status"),
                                   get<std::string>(cr, "message"), get<double>(cr, "seconds")});
    }
    if (auto v = j.find("verify"); v != j.end() && v->is_object()) {
        ev.verify.ran = get<bool>(*v, "ran");
        ev.verify.pass = get<bool>(*v, "pass");
        for (const auto& cj : v->value("cases", json::array())) {
            eval::CaseCheck cc;
            cc.caseName = get<std::string>(cj, "case");
            cc.seed = get<uint64_t>(cj, "seed");
            cc.pass = get<bool>(cj, "pass");
            for (const auto& oj : cj.value("outputs", json::array())) {
                eval::OutputCheck o;
                o.name = get<std::string>(oj, "name");
                o.pass = get<bool>(oj, "pass");
                o.reason = get<std::string>(oj, "reason");
                o.maxAbsError = number(oj, "max_abs_error");
                o.maxRelError = number(oj, "max_rel_error");
                o.mismatches = get<uint64_t>(oj, "mismatches");
                o.checked = get<uint64_t>(oj, "checked");
                o.atol = get<double>(oj, "atol");
                o.rtol = get<double>(oj, "rtol");
                o.histogram = get<std::vector<uint64_t>>(oj, "histogram");
                for (const auto& mj : oj.value("first_mismatches", json::array()))
                    o.firstMismatches.push_back({get<std::vector<int64_t>>(mj, "index"), number(mj, "expected"),
                                                 number(mj, "actual"), number(mj, "abs_error"), number(mj, "rel_error")});
                cc.outputs.push_back(std::move(o));
            }
            ev.verify.cases.push_back(std::move(cc));
        }
    }
    if (auto p = j.find("profile"); p != j.end() && p->is_object()) {
        auto& pr = ev.profile;
        pr.present = true;
        pr.caseName = get<std::string>(*p, "case");
        pr.totalCycles = get<uint64_t>(*p, "total_cycles");
        pr.timeUs = get<double>(*p, "time_us");
        pr.pipeRatios = get<std::map<std::string, double>>(*p, "pipes");
        pr.pipeCycles = get<std::map<std::string, uint64_t>>(*p, "pipe_cycles");
        pr.memoryBound = get<double>(*p, "memory_bound");
        pr.coreCycles = get<std::vector<uint64_t>>(*p, "core_cycles");
        pr.imbalance = get<double>(*p, "imbalance");
        pr.pipeOverlap = get<double>(*p, "pipe_overlap");
        pr.blockDim = get<uint32_t>(*p, "block_dim");
        pr.coresUsed = get<uint32_t>(*p, "cores_used");
        pr.gmBytes = get<uint64_t>(*p, "gm_bytes");
        pr.bottleneck = get<std::string>(*p, "bottleneck");
        pr.advice = get<std::string>(*p, "advice");
        pr.rooflineCycles = get<uint64_t>(*p, "roofline_cycles");
        pr.rooflineFraction = get<double>(*p, "roofline_fraction");
        if (pr.timeUs > 0) pr.clockMhz = double(pr.totalCycles) / pr.timeUs;
        for (const auto& l : p->value("hot_lines", json::array()))
            pr.lines.push_back({get<int>(l, "line"), get<uint64_t>(l, "cycles"), get<uint64_t>(l, "events")});
    }
    return ev;
}

} // namespace sage::ui
