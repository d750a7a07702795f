#include "sage_toolchain/RunJob.h"

#include <cmath>
#include <limits>
#include <stdexcept>

#include "sage_json/FieldTable.h"

namespace sage::toolchain {
using nlohmann::json;

namespace {
// A run's attributes may be infinite or NaN (CANN Bench passes scale = inf): JSON has neither, so
// they travel as the strings "inf", "-inf" and "nan".
json attrsJson(const std::map<std::string, double>& attrs) {
    json j = json::object();
    for (const auto& [name, v] : attrs) {
        if (std::isnan(v)) j[name] = "nan";
        else if (std::isinf(v)) j[name] = v > 0 ? "inf" : "-inf";
        else j[name] = v;
    }
    return j;
}

std::map<std::string, double> attrsFrom(const json& j) {
    std::map<std::string, double> out;
    if (!j.is_object()) return out;
    for (const auto& [name, v] : j.items()) {
        if (v.is_number()) out[name] = v.get<double>();
        else if (v == "inf") out[name] = std::numeric_limits<double>::infinity();
        else if (v == "-inf") out[name] = -std::numeric_limits<double>::infinity();
        else if (v == "nan") out[name] = std::numeric_limits<double>::quiet_NaN();
        else throw std::runtime_error("attribute '" + name + "' is " + v.dump() + ", not a number");
    }
    return out;
}
} // namespace

uint32_t dtypeBytes(const std::string& d) {
    if (d == "float16" || d == "bfloat16" || d == "int16") return 2;
    if (d == "float32" || d == "int32") return 4;
    if (d == "int8" || d == "uint8" || d == "bool") return 1;
    if (d == "int64") return 8;
    return 0;
}

uint64_t elementCount(const std::vector<int64_t>& shape) {
    uint64_t n = 1;
    for (int64_t s : shape) n *= uint64_t(s < 0 ? 0 : s);
    return n;
}

json toJson(const RunJob& j) {
    json runs = json::array();
    for (const auto& r : j.runs) {
        json tensors = json::array();
        for (const auto& t : r.tensors)
            tensors.push_back({{"name", t.name}, {"dtype", t.dtype}, {"shape", t.shape}, {"output", t.output},
                               {"file", t.file}});
        json run = {{"id", r.id}, {"tensors", tensors}, {"dims", r.dims}, {"attrs", attrsJson(r.attrs)}, {"timeline", r.timeline}};
        if (!r.extra.is_null()) run["extra"] = r.extra;
        runs.push_back(std::move(run));
    }
    json tiling = json::array();
    for (size_t i = 0; i < j.launch.tiling.size(); ++i)
        tiling.push_back({{"type", j.launch.tiling[i].first}, {"value", j.launch.tiling[i].second},
                          {"name", i < j.launch.tilingNames.size() ? j.launch.tilingNames[i] : ""}});
    return {{"mode", j.mode},
            {"shared_object", j.sharedObject},
            {"device", j.device},
            {"max_events", j.maxEvents},
            {"launch",
             {{"present", j.launch.present}, {"entry", j.launch.entry}, {"args", j.launch.args},
              {"block_dim", j.launch.blockDim}, {"tiling_key", j.launch.tilingKey}, {"tiling", tiling},
              {"workspace_bytes", j.launch.workspaceBytes}}},
            {"runs", runs}};
}

RunJob runJobFromJson(const json& j) {
    RunJob r;
    r.mode = j.at("mode").get<std::string>();
    r.sharedObject = j.at("shared_object").get<std::string>();
    r.device = j.at("device");
    r.maxEvents = j.value("max_events", size_t(2'000'000));
    const json& l = j.at("launch");
    r.launch.present = l.value("present", false);
    r.launch.entry = l.value("entry", "");
    r.launch.args = l.value("args", std::vector<std::string>{});
    r.launch.blockDim = l.value("block_dim", "1");
    r.launch.tilingKey = l.value("tiling_key", uint64_t(0));
    r.launch.workspaceBytes = l.value("workspace_bytes", uint64_t(1 << 20));
    for (const auto& t : l.value("tiling", json::array())) {
        r.launch.tiling.emplace_back(t.at("type").get<std::string>(), t.at("value").get<std::string>());
        r.launch.tilingNames.push_back(t.value("name", ""));
    }
    for (const auto& run : j.at("runs")) {
        RunSpec s;
        s.id = run.at("id").get<std::string>();
        s.dims = run.value("dims", std::map<std::string, int64_t>{});
        s.attrs = attrsFrom(run.value("attrs", json::object()));
        s.timeline = run.value("timeline", false);
        s.extra = run.value("extra", json());
        for (const auto& t : run.at("tensors"))
            s.tensors.push_back({t.at("name").get<std::string>(), t.at("dtype").get<std::string>(),
                                 t.at("shape").get<std::vector<int64_t>>(), t.value("output", false),
                                 t.at("file").get<std::string>()});
        r.runs.push_back(std::move(s));
    }
    return r;
}

namespace {
// A launch's plain fields, read and written by one table; cores, diagnostics and events are arrays.
using L = LaunchResult;
constexpr auto kLaunchFields = fields::table(
    fields::field("kernel", &L::kernel), fields::field("block_dim", &L::blockDim), fields::field("cores_used", &L::coresUsed),
    fields::field("cube_kernel", &L::cubeKernel), fields::field("aborted", &L::aborted), fields::field("events_truncated", &L::eventsTruncated),
    fields::field("total_cycles", &L::totalCycles), fields::field("launch_overhead_cycles", &L::launchOverheadCycles),
    fields::field("gm_bytes_read", &L::gmBytesRead), fields::field("gm_bytes_written", &L::gmBytesWritten),
    fields::field("vector_repeats", &L::vectorRepeats), fields::field("cube_fractals", &L::cubeFractals), fields::field("ops", &L::ops),
    fields::field("gm_footprint_bytes", &L::gmFootprintBytes), fields::field("l2_share", &L::l2Share));
} // namespace

json toJson(const LaunchResult& l, bool withEvents) {
    json cores = json::array();
    for (const auto& c : l.cores) {
        json busy = json::array(), instr = json::array();
        for (int p = 0; p < 7; ++p) {
            busy.push_back(c.busy[p]);
            instr.push_back(c.instructions[p]);
        }
        cores.push_back({{"core", c.core}, {"blocks", c.blocks}, {"cycles", c.cycles}, {"busy", busy}, {"instructions", instr}});
    }
    json diags = json::array();
    for (const auto& d : l.diagnostics) diags.push_back(toJson(d));
    json out = {{"cores", cores}, {"diagnostics", diags}};
    fields::write(out, l, kLaunchFields);
    if (withEvents) {
        json ev = json::array();
        for (const auto& e : l.events)
            ev.push_back({e.core, e.pipe, e.start, e.end, e.op, e.bytes, e.repeats, e.line, e.flow, e.flowRole});
        out["events"] = std::move(ev);
    }
    return out;
}

LaunchResult launchResultFromJson(const json& j) {
    LaunchResult l;
    fields::read(j, l, kLaunchFields);
    for (const auto& c : j.value("cores", json::array())) {
        CoreRecord r;
        r.core = c.value("core", 0u);
        r.blocks = c.value("blocks", 0u);
        r.cycles = c.value("cycles", uint64_t(0));
        for (int p = 0; p < 7; ++p) {
            r.busy[p] = c["busy"][size_t(p)].get<uint64_t>();
            r.instructions[p] = c["instructions"][size_t(p)].get<uint64_t>();
        }
        l.cores.push_back(r);
    }
    for (const auto& d : j.value("diagnostics", json::array())) l.diagnostics.push_back(diagnosticFromJson(d));
    if (j.contains("events"))
        for (const auto& e : j["events"])
            l.events.push_back({e[0].get<uint32_t>(), e[1].get<uint8_t>(), e[2].get<uint64_t>(), e[3].get<uint64_t>(),
                                e[4].get<uint16_t>(), e[5].get<uint64_t>(), e[6].get<uint32_t>(), e[7].get<uint32_t>(),
                                e[8].get<int32_t>(), e[9].get<uint8_t>()});
    return l;
}

} // namespace sage::toolchain
