#include "sage_eval/TraceExport.h"

#include <map>
#include <sstream>

namespace sage::eval {
using nlohmann::json;

namespace {
const char* kPipeNames[] = {"SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP"};
const char* kPipeColours[] = {"thread_state_running", "cq_build_failed", "rail_animation", "good",
                              "thread_state_iowait", "rail_response", "yellow"};
}

std::vector<FlowLink> flowLinks(const toolchain::LaunchResult& launch) {
    std::vector<FlowLink> links;
    std::map<int32_t, size_t> sources;  // flow id -> the latest source event with that id
    for (size_t i = 0; i < launch.events.size(); ++i) {
        const auto& e = launch.events[i];
        if (e.flow < 0) continue;
        if (e.flowRole == 1) sources[e.flow] = i;
        if (e.flowRole != 2) continue;
        auto it = sources.find(e.flow);
        if (it == sources.end()) continue;
        const bool queue = e.op < launch.ops.size() && launch.ops[e.op] == "DeQue";
        links.push_back({it->second, i, queue});
    }
    return links;
}

json chromeTrace(const Evaluation& ev) {
    json events = json::array();
    const auto& p = ev.profile;
    const double mhz = p.clockMhz > 0 ? p.clockMhz : 1000.0;
    auto us = [&](uint64_t cycles) { return double(cycles) / mhz; };
    std::map<uint32_t, bool> cores;
    uint64_t offset = 0;
    for (const auto& l : p.launches) {
        for (const auto& c : l.cores) cores[c.core] = true;
        const uint64_t base = offset + l.launchOverheadCycles;
        for (const auto& e : l.events) {
            const std::string op = e.op < l.ops.size() ? l.ops[e.op] : "?";
            const uint64_t start = base + e.start;
            double dur = us(e.end - e.start);
            json args = {{"start_cycle", start}, {"end_cycle", base + e.end}, {"cycles", e.end - e.start}, {"line", e.line}};
            if (e.bytes) args["bytes"] = e.bytes;
            if (e.repeats) args["repeats"] = e.repeats;
            events.push_back({{"name", op}, {"cat", kPipeNames[e.pipe % 7]}, {"ph", "X"}, {"ts", us(start)},
                              {"dur", dur > 0 ? dur : 0.001}, {"pid", e.core}, {"tid", e.pipe},
                              {"cname", kPipeColours[e.pipe % 7]}, {"args", args}});
        }
        for (const FlowLink& link : flowLinks(l)) {
            const auto& s = l.events[link.source];
            const auto& e = l.events[link.target];
            const std::string cat = link.queue ? "EnQue->DeQue" : "SetFlag->WaitFlag";
            const std::string name = std::string(kPipeNames[s.pipe % 7]) + "To" + kPipeNames[e.pipe % 7];
            const int64_t id = int64_t(offset) * 1000003 + e.flow;
            events.push_back({{"name", name}, {"cat", cat}, {"ph", "s"}, {"id", id}, {"pid", s.core},
                              {"tid", s.pipe}, {"ts", us(base + s.start)}});
            events.push_back({{"name", name}, {"cat", cat}, {"ph", "f"}, {"bp", "e"}, {"id", id},
                              {"pid", e.core}, {"tid", e.pipe}, {"ts", us(base + e.start)}});
        }
        offset += l.totalCycles;
    }
    for (const auto& [core, _] : cores) {
        events.push_back({{"name", "process_name"}, {"ph", "M"}, {"pid", core}, {"args", {{"name", "core " + std::to_string(core)}}}});
        events.push_back({{"name", "process_sort_index"}, {"ph", "M"}, {"pid", core}, {"args", {{"sort_index", core}}}});
        for (int t = 0; t < 7; ++t) {
            events.push_back({{"name", "thread_name"}, {"ph", "M"}, {"pid", core}, {"tid", t},
                              {"args", {{"name", std::string("PIPE_") + kPipeNames[t]}}}});
            events.push_back({{"name", "thread_sort_index"}, {"ph", "M"}, {"pid", core}, {"tid", t}, {"args", {{"sort_index", t}}}});
        }
    }
    return {{"traceEvents", events},
            {"displayTimeUnit", "ns"},
            {"otherData",
             {{"generator", "sage"}, {"task", ev.task}, {"device", ev.device}, {"kernel", ev.kernel},
              {"case", p.caseName}, {"clock_mhz", mhz}, {"total_cycles", p.totalCycles},
              {"bottleneck", p.bottleneck}, {"roofline_fraction", p.rooflineFraction}}}};
}

std::string opSummaryCsv(const Evaluation& ev) {
    std::ostringstream csv;
    csv << "Op Name,OP Type,Task Type,Task Duration(us),Block Dim,total_cycles,aiv_vec_ratio,aiv_scalar_ratio,"
           "aiv_mte2_ratio,aiv_mte3_ratio,aic_mac_ratio,aic_mte1_ratio,aic_fixpipe_ratio,memory_bound,"
           "roofline_fraction,bottleneck\n";
    const auto& p = ev.profile;
    if (!p.present) return csv.str();
    auto r = [&](const char* k) {
        auto it = p.pipeRatios.find(k);
        return it == p.pipeRatios.end() ? 0.0 : it->second;
    };
    for (const auto& l : p.launches) {
        csv << l.kernel << "," << ev.task << "," << (l.cubeKernel ? "AI_CORE" : "AI_VECTOR_CORE") << ","
            << double(l.totalCycles) / p.clockMhz << "," << l.blockDim << "," << l.totalCycles << "," << r("vec_ratio")
            << "," << r("scalar_ratio") << "," << r("mte2_ratio") << "," << r("mte3_ratio") << "," << r("mac_ratio")
            << "," << r("mte1_ratio") << "," << r("fixpipe_ratio") << "," << p.memoryBound << ","
            << p.rooflineFraction << "," << p.bottleneck << "\n";
    }
    return csv.str();
}

} // namespace sage::eval
