#include "sage_eval/Evaluation.h"

#include "sage_json/FieldTable.h"

#include <cmath>
#include <limits>
#include <tuple>
#include <utility>

namespace sage::eval {
using nlohmann::json;

namespace {
json num(double v) { return std::isfinite(v) ? json(v) : json(nullptr); }  // JSON has no inf/nan

// Reading back is tolerant: a missing or mistyped field takes its default, so a stored
// evaluation from an older build still opens.
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

// The profile's plain fields, read and written by one table; its hot lines are an array of their own.
using P = ProfileSummary;
constexpr auto kProfileFields = fields::table(
    fields::field("case", &P::caseName), fields::field("total_cycles", &P::totalCycles), fields::field("time_us", &P::timeUs),
    fields::field("pipes", &P::pipeRatios), fields::field("pipe_cycles", &P::pipeCycles), fields::field("core_cycles", &P::coreCycles),
    fields::field("memory_bound", &P::memoryBound), fields::field("imbalance", &P::imbalance), fields::field("pipe_overlap", &P::pipeOverlap),
    fields::field("block_dim", &P::blockDim), fields::field("cores_used", &P::coresUsed), fields::field("gm_bytes", &P::gmBytes),
    fields::field("bottleneck", &P::bottleneck), fields::field("advice", &P::advice),
    fields::field("roofline_cycles", &P::rooflineCycles), fields::field("roofline_fraction", &P::rooflineFraction));

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

// A run's status and message. An unknown status reads as error, and the message keeps its text.
std::pair<toolchain::RunStatus, std::string> statusAndMessage(const json& j) {
    std::string note;
    const auto status = toolchain::runStatusFrom(get<std::string>(j, "status", "not_run"), &note);
    std::string message = get<std::string>(j, "message");
    return {status, note.empty() ? message : note + ": " + message};
}

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
        runs.push_back({{"case", r.caseName}, {"seed", r.seed}, {"status", toString(r.status)}, {"message", r.message},
                        {"seconds", r.seconds}, {"device_us", r.deviceUs}});
    json errors = json::array();
    for (const auto& d : run.diagnostics)
        if (d.severity == toolchain::Severity::Error) errors.push_back(toolchain::toJson(d));
    j["run"] = {{"status", toString(run.status)},         {"message", run.message}, {"errors", errors},
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
            if (!o.criterion.empty()) {
                oj["criterion"] = o.criterion;
                oj["mere"] = num(o.mere);
                oj["mare"] = num(o.mare);
                oj["threshold"] = o.threshold;
            }
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
        json& out = j["profile"] = json::object();
        fields::write(out, profile, kProfileFields);
        out["hot_lines"] = std::move(lines);
    } else {
        j["profile"] = nullptr;
    }
    return j;
}

Evaluation Evaluation::withoutTimeline() const {
    Evaluation out;
    std::tie(out.task, out.device, out.kernel, out.compile, out.run, out.verify, out.seconds, out.phaseSeconds) =
        std::tie(task, device, kernel, compile, run, verify, seconds, phaseSeconds);
    static_cast<ProfileSummary&>(out.profile) = profile;  // all but the launches
    return out;
}

Evaluation Evaluation::fromJson(const json& j) {
    Evaluation ev;
    if (!j.is_object()) return ev;
    ev.task = get<std::string>(j, "task");
    ev.device = get<std::string>(j, "device");
    ev.kernel = get<std::string>(j, "kernel");
    ev.seconds = get<double>(j, "seconds");
    ev.phaseSeconds = get<std::map<std::string, double>>(j, "phase_seconds");
    if (auto c = j.find("compile"); c != j.end() && c->is_object()) {
        ev.compile.ok = get<bool>(*c, "ok");
        ev.compile.cached = get<bool>(*c, "cached");
        ev.compile.seconds = get<double>(*c, "seconds");
        ev.compile.diagnostics = diagnostics(c->value("diagnostics", json::array()));
    }
    if (auto r = j.find("run"); r != j.end() && r->is_object()) {
        std::tie(ev.run.status, ev.run.message) = statusAndMessage(*r);
        ev.run.diagnostics = diagnostics(r->value("diagnostics", json::array()));
        ev.run.seconds = get<double>(*r, "seconds");
        ev.run.networkIsolated = get<bool>(*r, "network_isolated");
        for (const auto& cr : r->value("runs", json::array())) {
            auto [status, message] = statusAndMessage(cr);
            ev.run.runs.push_back({get<std::string>(cr, "case"), get<uint64_t>(cr, "seed"), status, message,
                                   get<double>(cr, "seconds"), get<double>(cr, "device_us")});
        }
    }
    if (auto v = j.find("verify"); v != j.end() && v->is_object()) {
        ev.verify.ran = get<bool>(*v, "ran");
        ev.verify.pass = get<bool>(*v, "pass");
        for (const auto& cj : v->value("cases", json::array())) {
            CaseCheck cc;
            cc.caseName = get<std::string>(cj, "case");
            cc.seed = get<uint64_t>(cj, "seed");
            cc.pass = get<bool>(cj, "pass");
            for (const auto& oj : cj.value("outputs", json::array())) {
                OutputCheck o;
                o.name = get<std::string>(oj, "name");
                o.pass = get<bool>(oj, "pass");
                o.reason = get<std::string>(oj, "reason");
                o.maxAbsError = number(oj, "max_abs_error");
                o.maxRelError = number(oj, "max_rel_error");
                o.mismatches = get<uint64_t>(oj, "mismatches");
                o.checked = get<uint64_t>(oj, "checked");
                o.atol = get<double>(oj, "atol");
                o.rtol = get<double>(oj, "rtol");
                o.criterion = get<std::string>(oj, "criterion");
                // null: not computed (the output failed before them), not an infinite error
                const double none = std::numeric_limits<double>::quiet_NaN();
                o.mere = oj.contains("mere") && oj["mere"].is_number() ? oj["mere"].get<double>() : none;
                o.mare = oj.contains("mare") && oj["mare"].is_number() ? oj["mare"].get<double>() : none;
                o.threshold = get<double>(oj, "threshold");
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
        fields::read(*p, pr, kProfileFields);
        if (pr.timeUs > 0) pr.clockMhz = double(pr.totalCycles) / pr.timeUs;
        for (const auto& l : p->value("hot_lines", json::array()))
            pr.lines.push_back({get<int>(l, "line"), get<uint64_t>(l, "cycles"), get<uint64_t>(l, "events")});
    }
    return ev;
}

} // namespace sage::eval
