#include "sage_toolchain/DeviceCatalog.h"

#include "sage_json/BoundedJson.h"

#include <algorithm>
#include <filesystem>
#include <sstream>
#include <fstream>
#include <nlohmann/json.hpp>

namespace sage::toolchain {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// Reads a numeric field at a dotted path and checks its range; every failure names the field.
class FieldReader {
public:
    FieldReader(const json& root, std::string origin) : root_(root), origin_(std::move(origin)) {}

    double number(const std::string& path, double lo, double hi, const char* unit) const {
        const json* node = find(path);
        if (!node) fail(path, std::string("missing (expected a number") + unit + ")");
        if (!node->is_number()) fail(path, "must be a number, got " + node->dump());
        double v = node->get<double>();
        if (v < lo || v > hi)
            fail(path, "value " + node->dump() + " is out of range [" + fmt(lo) + ", " + fmt(hi) + "]" + unit);
        return v;
    }
    std::string text(const std::string& path) const {
        const json* node = find(path);
        if (!node) fail(path, "missing (expected a string)");
        if (!node->is_string() || node->get<std::string>().empty()) fail(path, "must be a non-empty string");
        return node->get<std::string>();
    }
    bool has(const std::string& path) const { return find(path) != nullptr; }
    bool flag(const std::string& path) const {
        const json* node = find(path);
        if (!node) fail(path, "missing (expected true or false)");
        if (!node->is_boolean()) fail(path, "must be true or false, got " + node->dump());
        return node->get<bool>();
    }
    [[noreturn]] void fail(const std::string& path, const std::string& what) const {
        throw ProfileError(origin_ + ": field '" + path + "': " + what);
    }

private:
    const json* find(const std::string& path) const {
        const json* node = &root_;
        size_t start = 0;
        while (start <= path.size()) {
            size_t dot = path.find('.', start);
            std::string key = path.substr(start, dot == std::string::npos ? std::string::npos : dot - start);
            if (!node->is_object() || !node->contains(key)) return nullptr;
            node = &(*node)[key];
            if (dot == std::string::npos) break;
            start = dot + 1;
        }
        return node;
    }
    static std::string fmt(double v) {
        std::string s = std::to_string(v);
        s.erase(s.find_last_not_of('0') + 1);
        if (!s.empty() && s.back() == '.') s.pop_back();
        return s;
    }
    const json& root_;
    std::string origin_;
};

} // namespace

npu::DeviceProfile DeviceCatalog::fromJson(const json& j, const std::string& origin) {
    FieldReader f(j, origin);
    if (!j.is_object()) f.fail("(top level)", "must be a JSON object");
    npu::DeviceProfile p;
    p.id = f.text("id");
    p.name = f.text("name");
    p.soc = f.text("soc");
    p.npuArch = int(f.number("npu_arch", 1000, 9999, ""));
    p.clockMhz = f.number("clock_mhz", 100, 5000, " MHz");
    p.vectorCores = int(f.number("cores.vector", 1, 1024, ""));
    p.cubeCores = int(f.number("cores.cube", 1, 1024, ""));
    std::string layout = f.text("cores.layout");
    if (layout != "split" && layout != "coupled") f.fail("cores.layout", "must be \"split\" or \"coupled\"");
    p.splitArch = layout == "split";
    p.ubBytes = uint32_t(f.number("memory_bytes.ub", 16384, 16777216, " bytes"));
    p.ubUsableBytes = uint32_t(f.number("memory_bytes.ub_usable", 16384, p.ubBytes, " bytes (at most ub)"));
    p.l1Bytes = uint32_t(f.number("memory_bytes.l1", 16384, 67108864, " bytes"));
    p.l0aBytes = uint32_t(f.number("memory_bytes.l0a", 4096, 16777216, " bytes"));
    p.l0bBytes = uint32_t(f.number("memory_bytes.l0b", 4096, 16777216, " bytes"));
    p.l0cBytes = uint32_t(f.number("memory_bytes.l0c", 4096, 16777216, " bytes"));
    const double ghz = p.clockMhz / 1000.0;
    p.gmToUbBytesPerCycle = f.number("bandwidth.gm_to_ub_gbps", 0.1, 10000, " GB/s") / ghz;
    p.ubToGmBytesPerCycle = f.number("bandwidth.ub_to_gm_gbps", 0.1, 10000, " GB/s") / ghz;
    p.gmToL1BytesPerCycle = f.number("bandwidth.gm_to_l1_gbps", 0.1, 10000, " GB/s") / ghz;
    p.l0cToGmBytesPerCycle = f.number("bandwidth.l0c_to_gm_gbps", 0.1, 10000, " GB/s") / ghz;
    p.l1ToL0aBytesPerCycle = f.number("bandwidth.l1_to_l0a_bytes_per_cycle", 1, 65536, " B/cycle");
    p.l1ToL0bBytesPerCycle = f.number("bandwidth.l1_to_l0b_bytes_per_cycle", 1, 65536, " B/cycle");
    p.ubToUbBytesPerCycle = f.number("bandwidth.ub_to_ub_bytes_per_cycle", 1, 65536, " B/cycle");
    p.chipGmBytesPerCycle = f.number("bandwidth.chip_gm_tbps", 0.001, 100, " TB/s") * 1000.0 / ghz;
    p.gmReadLatencyCycles = uint32_t(f.number("latency_cycles.gm_read", 0, 100000, " cycles"));
    p.gmWriteLatencyCycles = uint32_t(f.number("latency_cycles.gm_write", 0, 100000, " cycles"));
    p.dmaIssueCycles = uint32_t(f.number("latency_cycles.dma_issue", 0, 10000, " cycles"));
    if (f.has("l2")) {  // optional: a profile without it has no L2 (every GM access pays HBM)
        p.l2Bytes = uint64_t(f.number("l2.bytes", 1024, 1e12, " bytes"));
        p.l2BytesPerCycle = f.number("l2.chip_tbps", 0.001, 100, " TB/s") * 1000.0 / ghz;
        p.l2ReadLatencyCycles = uint32_t(f.number("l2.read_latency_cycles", 0, 100000, " cycles"));
        p.l2WriteLatencyCycles = uint32_t(f.number("l2.write_latency_cycles", 0, 100000, " cycles"));
    }
    p.vectorBytesPerRepeat = uint32_t(f.number("vector.bytes_per_repeat", 32, 4096, " bytes"));
    if (p.vectorBytesPerRepeat != 256) f.fail("vector.bytes_per_repeat", "must be 256 (8 blocks of 32 bytes)");
    p.maxRepeat = uint32_t(f.number("vector.max_repeat", 1, 65535, ""));
    p.vectorIssueCycles = uint32_t(f.number("vector.issue_cycles", 0, 1000, " cycles"));
    p.vectorTailCycles = uint32_t(f.number("vector.tail_cycles", 0, 1000, " cycles"));
    p.cyclesPerRepeatSimple = f.number("vector.cycles_per_repeat.simple", 0.01, 1000, " cycles");
    p.cyclesPerRepeatCast = f.number("vector.cycles_per_repeat.cast", 0.01, 1000, " cycles");
    p.cyclesPerRepeatDivF32 = f.number("vector.cycles_per_repeat.div_f32", 0.01, 1000, " cycles");
    p.cyclesPerRepeatDivF16 = f.number("vector.cycles_per_repeat.div_f16", 0.01, 1000, " cycles");
    p.cyclesPerRepeatReduce = f.number("vector.cycles_per_repeat.reduce", 0.01, 1000, " cycles");
    p.cyclesPerRepeatComposite = f.number("vector.cycles_per_repeat.composite", 0.01, 1000, " cycles");
    p.cubeM0 = uint32_t(f.number("cube.m0", 16, 16, ""));
    p.cubeK0 = uint32_t(f.number("cube.k0", 16, 16, ""));
    p.cubeN0 = uint32_t(f.number("cube.n0", 16, 16, ""));
    p.cubeCyclesPerFractal = f.number("cube.cycles_per_fractal", 0.01, 1000, " cycles");
    p.mmadOverheadCycles = uint32_t(f.number("cube.mmad_overhead_cycles", 0, 100000, " cycles"));
    p.scalarIssueCycles = uint32_t(f.number("scalar.issue_cycles", 0, 1000, " cycles"));
    p.scalarUbAccessCycles = uint32_t(f.number("scalar.ub_access_cycles", 0, 10000, " cycles"));
    p.scalarGmHitCycles = uint32_t(f.number("scalar.gm_hit_cycles", 0, 10000, " cycles"));
    p.scalarGmMissCycles = uint32_t(f.number("scalar.gm_miss_cycles", 0, 100000, " cycles"));
    p.dcacheLineBytes = uint32_t(f.number("scalar.dcache_line_bytes", 8, 4096, " bytes"));
    p.dcacheLines = uint32_t(f.number("scalar.dcache_lines", 1, 1 << 20, ""));
    p.flagCycles = uint32_t(f.number("scalar.flag_cycles", 0, 1000, " cycles"));
    p.eventIds = int(f.number("sync.event_ids", 1, 8, ""));
    p.maxAllocPerPosition = int(f.number("sync.max_alloc_per_position", 1, 64, ""));
    p.dataCopyPad = f.flag("features.data_copy_pad");
    p.bfloat16 = f.flag("features.bfloat16");
    p.launchOverheadCycles = uint32_t(f.number("launch_overhead_cycles", 0, 10000000, " cycles"));
    return p;
}

npu::DeviceProfile DeviceCatalog::loadFile(const std::string& path) {
    std::ifstream in(path);
    if (!in) throw ProfileError(path + ": cannot be read (does it exist?)");
    json j;
    try {
        std::stringstream text;
        text << in.rdbuf();
        j = sage_json::parse(text.str(), "device profile");
    } catch (const std::exception& e) {  // invalid, or nested too deep (sage_json::TooDeep)
        throw ProfileError(path + ": not valid JSON: " + e.what());
    }
    npu::DeviceProfile p = fromJson(j, path);
    std::string stem = fs::path(path).stem().string();
    if (stem != p.id) throw ProfileError(path + ": field 'id': \"" + p.id + "\" must match the file name \"" + stem + "\"");
    return p;
}

DeviceCatalog DeviceCatalog::loadDirectory(const std::string& dir) {
    DeviceCatalog c;
    c.dir_ = dir;
    std::error_code ec;
    if (!fs::is_directory(dir, ec))
        throw ProfileError(dir + ": device profile directory not found (set SAGE_RESOURCES to the resources folder)");
    std::vector<std::string> files;
    for (const auto& e : fs::directory_iterator(dir))
        if (e.path().extension() == ".json") files.push_back(e.path().string());
    std::sort(files.begin(), files.end());
    for (const auto& f : files) c.profiles_.push_back(loadFile(f));
    if (c.profiles_.empty()) throw ProfileError(dir + ": no *.json device profiles found");
    return c;
}

const npu::DeviceProfile& DeviceCatalog::get(const std::string& id) const {
    for (const auto& p : profiles_)
        if (p.id == id) return p;
    std::string known;
    for (const auto& p : profiles_) known += (known.empty() ? "" : ", ") + p.id;
    throw ProfileError("unknown device '" + id + "'; known devices: " + known + " (in " + dir_ + ")");
}

json DeviceCatalog::summary(const npu::DeviceProfile& p) {
    return json{{"id", p.id},
                {"name", p.name},
                {"soc", p.soc},
                {"npu_arch", p.npuArch},
                {"clock_mhz", p.clockMhz},
                {"vector_cores", p.vectorCores},
                {"cube_cores", p.cubeCores},
                {"layout", p.splitArch ? "split" : "coupled"},
                {"ub_usable_bytes", p.ubUsableBytes},
                {"gm_to_ub_bytes_per_cycle", p.gmToUbBytesPerCycle},
                {"chip_gm_bytes_per_cycle", p.chipGmBytesPerCycle},
                {"l2_bytes", p.l2Bytes},
                {"l2_bytes_per_cycle", p.l2BytesPerCycle},
                {"data_copy_pad", p.dataCopyPad},
                {"bfloat16", p.bfloat16}};
}

} // namespace sage::toolchain
