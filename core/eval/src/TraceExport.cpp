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

json chromeTrace(const Evaluation& ev) {
    json events = json::array();
    const auto& p = ev.profile;
    const double mhz = p.clockMhz > 0 ? p.clockMhz : 1000.0;
    auto us = [&](uint64_t cycles) { return double(cycles) / mhz; };
    std::map<uint32_t, bool> cores;
    uint64_t offset = 0;
    for (const auto& l : p.launches) {
        for (const auto& c : l.cores) cores[c.core] = true;
        std::map<int32_t, const toolchain::EventRecord*> flowSources;
        for (const auto& e : l.events) {
            const std::string op = e.op < l.ops.size() ? l.ops[e.op] : "?";
            const uint64_t start = offset + l.launchOverheadCycles + e.start;
            double dur = us(e.end - e.start);
            json args = {{"start_cycle", start}, {"end_cycle", offset + l.launchOverheadCycles + e.end},
                         {"cycles", e.end - e.start}, {"line", e.line}};
            if (e.bytes) args["bytes"] = e.bytes;
            if (e.repeats) args["repeats"] = e.repeats;
            events.push_back({{"name", op}, {"cat", kPipeNames[e.pipe % 7]}, {"ph", "X"}, {"ts", us(start)},
                              {"dur", dur > 0 ? dur : 0.001}, {"pid", e.core}, {"tid", e.pipe},
                              {"cname", kPipeColours[e.pipe % 7]}, {"args", args}});
            if (e.flow >= 0 && e.flowRole == 1) flowSources[e.flow] = &e;
            if (e.flow >= 0 && e.flowRole == 2) {
                auto it = flowSources.find(e.flow);
                if (it == flowSources.end()) continue;
                const auto& s = *it->second;
                std::string cat = op == "DeQue" ? "EnQue->DeQue" : "SetFlag->WaitFlag";
                std::string name = std::string(kPipeNames[s.pipe % 7]) + "To" + kPipeNames[e.pipe % 7];
                int64_t id = int64_t(offset) * 1000003 + e.flow;
                events.push_back({{"name", name}, {"cat", cat}, {"ph", "s"}, {"id", id}, {"pid", s.core},
                                  {"tid", s.pipe}, {"ts", us(offset + l.launchOverheadCycles + s.start)}});
                events.push_back({{"name", name}, {"cat", cat}, {"ph", "f"}, {"bp", "e"}, {"id", id},
                                  {"pid", e.core}, {"tid", e.pipe}, {"ts", us(start)}});
            }
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
