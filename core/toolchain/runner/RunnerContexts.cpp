#include "RunnerContexts.h"
#include "RunnerSandbox.h"

#include "kernel_operator.h"
#include "sage_config.h"
#include "sage_npu/Simulation.h"
#include "sage_reference.h"
#include "sage_toolchain/Expression.h"
#include "sage_toolchain/TensorCodec.h"

#include <chrono>
#include <cmath>
#include <cstring>
#include <dlfcn.h>
#include <filesystem>
#include <fstream>
#include <map>
#include <stdexcept>

namespace sage::runner {
using nlohmann::json;
using toolchain::RunSpec;
using toolchain::RunStatus;
using toolchain::TensorSpec;

namespace {

// Job files were opened before the seccomp filter (see RunnerSandbox.h): no path is opened here.
std::vector<uint8_t> readBytes(const std::string& path, uint64_t expected) { return readJobFile(path, expected); }

void writeBytes(const std::string& path, const void* data, size_t n) { writeJobFile(path, data, n); }

const TensorSpec& tensor(const RunSpec& run, const std::string& name) {
    for (const auto& t : run.tensors)
        if (t.name == name) return t;
    std::string known;
    for (const auto& t : run.tensors) known += (known.empty() ? "" : ", ") + t.name;
    throw std::runtime_error("the task has no tensor '" + name + "' (tensors: " + known + ")");
}

int64_t dimOf(const RunSpec& run, const std::string& s) {
    auto it = run.dims.find(s);
    if (it == run.dims.end()) throw std::runtime_error("the task has no shape symbol '" + s + "'");
    return it->second;
}

double attrOf(const RunSpec& run, const std::string& s) {
    auto it = run.attrs.find(s);
    if (it == run.attrs.end()) throw std::runtime_error("the task has no attribute '" + s + "'");
    return it->second;
}

class ReferenceContext : public ref::Context {
public:
    explicit ReferenceContext(const RunSpec& run) : run_(run) {
        for (const auto& t : run.tensors) {
            uint64_t n = toolchain::elementCount(t.shape);
            if (t.output) {
                outputs_[t.name].assign(n, std::nan(""));
                continue;
            }
            uint32_t es = toolchain::dtypeBytes(t.dtype);
            auto bytes = readBytes(t.file, n * es);
            auto& v = inputs_[t.name];
            v.resize(n);
            toolchain::decodeTensor(t.dtype, bytes.data(), n, v.data());
        }
    }
    std::span<const double> in(const char* name) override {
        auto it = inputs_.find(name);
        if (it == inputs_.end()) {
            tensor(run_, name);  // throws for an unknown name
            throw std::runtime_error(std::string("ctx.in(\"") + name + "\"): '" + name + "' is an output");
        }
        return it->second;
    }
    std::span<double> out(const char* name) override {
        auto it = outputs_.find(name);
        if (it == outputs_.end()) {
            tensor(run_, name);
            throw std::runtime_error(std::string("ctx.out(\"") + name + "\"): '" + name + "' is an input");
        }
        return it->second;
    }
    std::vector<int64_t> shape(const char* name) override { return tensor(run_, name).shape; }
    int64_t dim(const char* s) override { return dimOf(run_, s); }
    double attr(const char* s) override { return attrOf(run_, s); }
    // Outputs are computed in double and stored cast to the output's dtype, as a kernel would store them.
    void save() {
        for (auto& [name, v] : outputs_) {
            const auto& spec = tensor(run_, name);
            auto bytes = toolchain::encodeTensor(spec.dtype, v);
            writeBytes(spec.file, bytes.data(), bytes.size());
        }
    }

private:
    const RunSpec& run_;
    std::map<std::string, std::vector<double>> inputs_, outputs_;
};

class HostContext : public host::Context {
public:
    // `gePadding`: allocate each tensor as the op runtime (GE) does for an op project's launch,
    // its size rounded up to 32 bytes plus 32 more, so that a kernel whose tiling copies whole
    // 32-byte blocks at a tail stays inside its allocation as on the device (`sage op`).
    // `hostOutputs`: the outputs are files a whole program (`.asc`) writes from its host part,
    // not results the device must have written (no unaccountedOutputs check).
    HostContext(npu::Simulation& sim, const RunSpec& run, const npu::DeviceProfile& prof, bool gePadding = false,
                bool hostOutputs = false)
        : sim_(sim), run_(run), prof_(prof) {
        for (const auto& t : run.tensors) {
            uint64_t bytes = toolchain::elementCount(t.shape) * toolchain::dtypeBytes(t.dtype);
            const uint64_t allocated = gePadding ? (bytes + 31) / 32 * 32 + 32 : bytes;
            uint8_t* p = AscendC::GmAlloc(allocated);
            if (t.output) {
                std::memset(p, 0xff, allocated);  // poison: unwritten outputs read as NaN / -1
                if (!hostOutputs) sim.trackGmWrites(p, bytes);  // results come from the device (unaccountedOutputs)
            } else {
                readJobFileInto(t.file, p, bytes);
            }
            gm_[t.name] = {p, bytes};
        }
    }
    GM_ADDR gm(const char* name) override {
        tensor(run_, name);
        return gm_.at(name).first;
    }
    uint64_t numel(const char* name) override { return toolchain::elementCount(tensor(run_, name).shape); }
    int64_t dim(const char* s) override { return dimOf(run_, s); }
    int64_t shape(const char* name, int axis) override {
        const auto& t = tensor(run_, name);
        if (axis < 0) axis += int(t.shape.size());
        if (axis < 0 || size_t(axis) >= t.shape.size())
            throw std::runtime_error(std::string("tensor '") + name + "' has no axis " + std::to_string(axis));
        return t.shape[size_t(axis)];
    }
    int rank(const char* name) override { return int(tensor(run_, name).shape.size()); }
    double attr(const char* s) override { return attrOf(run_, s); }
    int vectorCores() override { return prof_.vectorCores; }
    int cubeCores() override { return prof_.cubeCores; }
    uint32_t ubBytes() override { return prof_.ubUsableBytes; }
    GM_ADDR workspace(uint64_t bytes) override { return AscendC::GmAlloc(bytes); }
    // A tensor list as one argument (an op's dynamic input or output), in the layout AscendC's
    // ListTensorDesc reads (kernel_operator_list_tensor_intf.h): word 0 the byte offset of the
    // pointer table; per tensor a word holding its dimension count, then its dimensions; then the
    // table of the tensors' addresses. Written by the host, as the op runtime writes it.
    GM_ADDR tensorList(const std::vector<std::string>& names) {
        std::vector<uint64_t> words{0};
        for (const auto& n : names) {
            const auto& shape = tensor(run_, n.c_str()).shape;
            words.push_back(shape.size());
            for (int64_t d : shape) words.push_back(uint64_t(d));
        }
        words[0] = words.size() * sizeof(uint64_t);
        for (const auto& n : names) words.push_back(uint64_t(uintptr_t(gm(n.c_str()))));
        uint8_t* p = AscendC::GmAlloc(words.size() * sizeof(uint64_t));
        std::memcpy(p, words.data(), words.size() * sizeof(uint64_t));
        return p;
    }
    void setTilingKey(uint64_t key) override { sim_.setTilingKey(key); }
    GM_ADDR tilingBytes(const void* data, uint64_t bytes) override {
        uint8_t* p = AscendC::GmAlloc(bytes);
        std::memcpy(p, data, bytes);
        return p;
    }
    // "" when every output byte was last written by a simulated instruction; else which output
    // holds bytes plain C++ wrote (through a GM pointer, on the host side or in the kernel).
    std::string unaccountedOutputs() const {
        for (const auto& t : run_.tensors) {
            if (!t.output) continue;
            const auto m = sim_.unaccountedGmBytes(gm_.at(t.name).first);
            if (m.count == 0) continue;
            return std::to_string(m.count) + " bytes of output '" + t.name + "' (the first at byte " +
                   std::to_string(m.firstOffset) +
                   ") were not written by any simulated instruction: plain C++ stores through a GM pointer do "
                   "not run on the device and are not timed. Write outputs with DataCopy / DataCopyPad, "
                   "SetValue or the cube's Fixpipe";
        }
        return "";
    }
    void saveOutputs() {
        for (const auto& t : run_.tensors)
            if (t.output) writeBytes(t.file, gm_[t.name].first, gm_[t.name].second);
    }

private:
    npu::Simulation& sim_;
    const RunSpec& run_;
    const npu::DeviceProfile& prof_;
    std::map<std::string, std::pair<uint8_t*, uint64_t>> gm_;
};

// Packs tiling fields like a C struct with natural alignment.
std::vector<uint8_t> packTiling(const toolchain::LaunchSpec& spec, const std::function<std::optional<double>(const std::string&)>& lookup) {
    std::vector<uint8_t> out;
    size_t maxAlign = 1;
    for (const auto& [type, expr] : spec.tiling) {
        double v = toolchain::evaluate(expr, lookup);
        auto put = [&](auto x) {
            size_t a = sizeof(x);
            maxAlign = std::max(maxAlign, a);
            out.resize((out.size() + a - 1) / a * a);
            size_t at = out.size();
            out.resize(at + a);
            std::memcpy(out.data() + at, &x, a);
        };
        if (type == "uint32_t") put(uint32_t(v));
        else if (type == "int32_t") put(int32_t(v));
        else if (type == "uint64_t") put(uint64_t(v));
        else if (type == "int64_t") put(int64_t(v));
        else if (type == "uint16_t") put(uint16_t(v));
        else if (type == "int16_t") put(int16_t(v));
        else if (type == "uint8_t") put(uint8_t(v));
        else if (type == "int8_t") put(int8_t(v));
        else if (type == "float") put(float(v));
        else if (type == "double") put(double(v));
        else throw std::runtime_error("tiling field type '" + type + "' is not supported");
    }
    out.resize((out.size() + maxAlign - 1) / maxAlign * maxAlign);
    return out;
}

std::vector<uint8_t> hexBytes(const std::string& hex) {
    if (hex.size() % 2) throw std::runtime_error("host tiling bytes have an odd number of hex digits");
    std::vector<uint8_t> out(hex.size() / 2);
    for (size_t i = 0; i < out.size(); ++i) out[i] = uint8_t(std::stoul(hex.substr(2 * i, 2), nullptr, 16));
    return out;
}

// The argument name for an optional input a case leaves out: the kernel receives nullptr.
constexpr const char* kAbsentArg = "@absent";
constexpr const char* kListArg = "@list:";

struct SpecLaunch {
    void* fn;
    std::vector<GM_ADDR> args;
};

void callEntry(void* p) {
    auto* l = static_cast<SpecLaunch*>(p);
    auto& a = l->args;
    using G = GM_ADDR;
    switch (a.size()) {
#define SAGE_CALL(n, ...) case n: reinterpret_cast<void (*)(__VA_ARGS__)>(l->fn)
    case 0: reinterpret_cast<void (*)()>(l->fn)(); break;
    SAGE_CALL(1, G)(a[0]); break;
    SAGE_CALL(2, G, G)(a[0], a[1]); break;
    SAGE_CALL(3, G, G, G)(a[0], a[1], a[2]); break;
    SAGE_CALL(4, G, G, G, G)(a[0], a[1], a[2], a[3]); break;
    SAGE_CALL(5, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4]); break;
    SAGE_CALL(6, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5]); break;
    SAGE_CALL(7, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6]); break;
    SAGE_CALL(8, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7]); break;
    SAGE_CALL(9, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8]); break;
    SAGE_CALL(10, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9]); break;
    SAGE_CALL(11, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10]); break;
    SAGE_CALL(12, G, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11]); break;
    SAGE_CALL(13, G, G, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12]); break;
    SAGE_CALL(14, G, G, G, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13]); break;
    SAGE_CALL(15, G, G, G, G, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14]); break;
    SAGE_CALL(16, G, G, G, G, G, G, G, G, G, G, G, G, G, G, G, G)(a[0], a[1], a[2], a[3], a[4], a[5], a[6], a[7], a[8], a[9], a[10], a[11], a[12], a[13], a[14], a[15]); break;
#undef SAGE_CALL
    default: throw std::runtime_error("a launch spec may pass at most 16 arguments");
    }
}

void launchFromSpec(void* so, const toolchain::LaunchSpec& spec, HostContext& ctx, const RunSpec& run,
                    const npu::DeviceProfile& prof) {
    if (!spec.present)
        throw std::runtime_error("the kernel file has no host side (SAGE_HOST) and the task has no launch spec: "
                                 "add SAGE_HOST(ctx) { ... ICPU_RUN_KF(...); } to the file");
    void* fn = dlsym(so, spec.entry.c_str());
    if (!fn)
        throw std::runtime_error("the kernel file defines no extern \"C\" function '" + spec.entry +
                                 "' (the task's launch entry) and no SAGE_HOST host side");
    auto lookup = [&](const std::string& n) -> std::optional<double> {
        if (n == "cores" || n == "vector_cores") return prof.vectorCores;
        if (n == "cube_cores") return prof.cubeCores;
        if (n == "ub_bytes") return prof.ubUsableBytes;
        if (auto it = run.dims.find(n); it != run.dims.end()) return double(it->second);
        if (auto it = run.attrs.find(n); it != run.attrs.end()) return it->second;
        return std::nullopt;
    };
    // An op project's own host tiling (`sage op`) computed this run's launch: raw tiling bytes,
    // block dim, tiling key and workspace size replace the task's expressions.
    const json& host = run.extra;
    const bool fromHost = host.is_object() && host.contains("tiling_hex");
    SpecLaunch l{fn, {}};
    for (const auto& a : spec.args) {
        if (a == "workspace")
            l.args.push_back(ctx.workspace(fromHost ? host.value("workspace_bytes", uint64_t(0)) : spec.workspaceBytes));
        else if (a == "tiling" && fromHost) {
            auto bytes = hexBytes(host.at("tiling_hex").get<std::string>());
            l.args.push_back(ctx.tilingBytes(bytes.data(), bytes.size()));
        } else if (a == "tiling") {
            auto bytes = packTiling(spec, lookup);
            l.args.push_back(ctx.tilingBytes(bytes.data(), bytes.size()));
        } else if (a == kAbsentArg) l.args.push_back(nullptr);  // an optional input the case leaves out
        else if (a.rfind(kListArg, 0) == 0) {  // a tensor list: "@list:x_0,x_1"
            std::vector<std::string> names;
            for (size_t at = std::strlen(kListArg); at <= a.size();) {
                const size_t comma = std::min(a.find(',', at), a.size());
                names.push_back(a.substr(at, comma - at));
                at = comma + 1;
            }
            l.args.push_back(ctx.tensorList(names));
        }
        else l.args.push_back(ctx.gm(a.c_str()));
    }
    double blockDim = fromHost ? host.value("block_dim", 0.0) : toolchain::evaluate(spec.blockDim, lookup);
    ctx.setTilingKey(fromHost ? host.value("tiling_key", uint64_t(0)) : spec.tilingKey);
    npu::rt::launch(spec.entry.c_str(), uint32_t(std::max(0.0, blockDim)), callEntry, &l, std::source_location::current());
}

toolchain::LaunchResult convert(const npu::LaunchReport& r, const std::string& candidate) {
    toolchain::LaunchResult l;
    l.kernel = r.kernel;
    l.blockDim = r.blockDim;
    l.coresUsed = r.coresUsed;
    l.cubeKernel = r.cubeKernel;
    l.aborted = r.aborted;
    l.eventsTruncated = r.eventsTruncated;
    l.totalCycles = r.totalCycles;
    l.launchOverheadCycles = r.launchOverheadCycles;
    l.gmBytesRead = r.gmBytesRead;
    l.gmBytesWritten = r.gmBytesWritten;
    l.vectorRepeats = r.vectorRepeats;
    l.cubeFractals = r.cubeFractals;
    l.gmFootprintBytes = r.gmFootprintBytes;
    l.l2Share = r.l2Share;
    for (const auto& c : r.cores) {
        toolchain::CoreRecord cr;
        cr.core = c.core;
        cr.blocks = c.blocks;
        cr.cycles = c.cycles;
        for (int p = 0; p < 7; ++p) {
            cr.busy[p] = c.pipes.busy[p];
            cr.instructions[p] = c.pipes.instructions[p];
        }
        l.cores.push_back(cr);
    }
    auto isCandidate = [&](const std::string& f) {
        return !f.empty() && std::filesystem::path(f).filename() == candidate;
    };
    std::vector<bool> fileIsCandidate;
    for (const auto& f : r.files) fileIsCandidate.push_back(isCandidate(f));
    std::map<const char*, uint16_t> opIndex;
    l.events.reserve(r.events.size());
    for (const auto& e : r.events) {
        auto [it, fresh] = opIndex.emplace(e.op, uint16_t(l.ops.size()));
        if (fresh) l.ops.emplace_back(e.op);
        bool own = e.fileId < fileIsCandidate.size() && fileIsCandidate[e.fileId];
        l.events.push_back({e.core, e.pipe, e.start, e.end, it->second, e.bytes, e.repeats, own ? e.line : 0,
                            e.flowId, e.flowRole});
    }
    for (const auto& d : r.diagnostics) {
        toolchain::Diagnostic td;
        td.kind = toolchain::DiagnosticKind::parse(d.kind);  // the simulator names its kinds in text
        td.severity = toolchain::severityFrom(d.severity);  // the simulator names it in text
        td.file = isCandidate(d.file) ? candidate : std::filesystem::path(d.file).filename().string();
        td.line = int(d.line);
        td.message = d.message + (d.block >= 0 ? " [block " + std::to_string(d.block) + "]" : "");
        if (d.otherLine)
            td.notes.push_back({isCandidate(d.otherFile) ? candidate : std::filesystem::path(d.otherFile).filename().string(),
                                int(d.otherLine), 0, "the other access (PIPE_" + d.otherPipe + ")"});
        l.diagnostics.push_back(std::move(td));
    }
    return l;
}

} // namespace

json runReference(void* so, const RunSpec& run) {
    auto fn = reinterpret_cast<void (*)(ref::Context&)>(dlsym(so, "sage_reference"));
    if (!fn) throw std::runtime_error("reference.cpp defines no SAGE_REFERENCE(ctx) function");
    auto t0 = std::chrono::steady_clock::now();
    ReferenceContext ctx(run);
    fn(ctx);
    ctx.save();
    return {{"status", toString(RunStatus::Ok)}, {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
}

json runKernel(void* so, const toolchain::RunJob& job, const RunSpec& run, const npu::DeviceProfile& profile) {
    auto t0 = std::chrono::steady_clock::now();
    npu::Simulation sim(profile);
    sim.activate();
    sim.setMaxEvents(run.timeline ? job.maxEvents : 0);
    const bool extra = run.extra.is_object();
    HostContext ctx(sim, run, profile, extra && run.extra.value("ge_padding", false),
                    extra && run.extra.value("host_writes_outputs", false));
    auto host = reinterpret_cast<void (*)(host::Context&)>(dlsym(so, "sage_host_launch"));
    RunStatus status = RunStatus::Ok;
    std::string message;
    try {
        if (host) host(ctx);
        else launchFromSpec(so, job.launch, ctx, run, profile);
    } catch (const std::bad_alloc&) {
        throw;
    } catch (const std::exception& e) {
        status = RunStatus::SimError;
        message = std::string("host side failed: ") + e.what();
    }
    json launches = json::array();
    bool race = false, error = false;
    std::string firstError;
    for (const auto& r : sim.launches()) {
        toolchain::LaunchResult l = convert(r, "kernel.cpp");
        for (const auto& d : l.diagnostics) {
            if (d.severity != toolchain::Severity::Error) continue;
            if (d.kind.isRace()) race = true;
            else error = true;
            if (firstError.empty()) firstError = "line " + std::to_string(d.line) + ": " + d.message;
        }
        error |= l.aborted;
        launches.push_back(toolchain::toJson(l, run.timeline));
    }
    if (status == RunStatus::Ok) {
        if (sim.launches().empty()) {
            status = RunStatus::SimError;
            message = "the host side launched no kernel (call ICPU_RUN_KF)";
        } else if (error) {
            status = RunStatus::SimError;
            message = firstError;
        } else if (race) {
            status = RunStatus::Race;
            message = firstError;
        }
    }
    if (std::string unaccounted = ctx.unaccountedOutputs(); !unaccounted.empty()) {
        status = RunStatus::UnaccountedOutput;
        message = std::move(unaccounted);
    }
    ctx.saveOutputs();
    sim.deactivate();
    return {{"status", toString(status)},
            {"message", message},
            {"launches", launches},
            {"seconds", std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count()}};
}

} // namespace sage::runner
