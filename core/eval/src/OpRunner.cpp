// `sage op`: host program -> op definition -> host tiling per case -> kernel per configuration
// through the one evaluation pipeline (Evaluator::evaluate) with the tiling the op computed.
#include "HostTiling.h"

#include "sage_eval/CompatScan.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/ProjectPaths.h"
#include "sage_toolchain/SourcePolicy.h"

#include <filesystem>
#include <fstream>
#include <iomanip>
#include <regex>
#include <set>
#include <sstream>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

std::string upper(std::string s) {
    for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// The exported name of the wrapper a templated kernel entry gets (templateEntryWrapper).
constexpr const char* kTemplateEntry = "sage_op_template_entry";

// The kernel entry: the `__global__ __aicore__ void name(` of the op's kernel file.
std::string kernelEntry(const std::string& source) {
    static const std::regex entry(R"((?:__global__\s+__aicore__|__aicore__\s+__global__)\s+void\s+(\w+)\s*\()");
    std::smatch m;
    return std::regex_search(source, m, entry) ? m[1].str() : "";
}

std::vector<std::string> splitTopLevel(const std::string& list) {
    std::vector<std::string> out(1);
    int depth = 0;
    for (char c : list) {
        if (c == '<' || c == '(') ++depth;
        if (c == '>' || c == ')') --depth;
        if (c == ',' && depth == 0) out.emplace_back();
        else out.back() += c;
    }
    return out;
}

std::string lastIdentifier(const std::string& s) {
    static const std::regex id(R"(([A-Za-z_]\w*)\s*$)");
    std::smatch m;
    return std::regex_search(s, m, id) ? m[1].str() : std::string();
}

std::string trimmed(const std::string& s) {
    const size_t a = s.find_first_not_of(" \t\n"), b = s.find_last_not_of(" \t\n");
    return a == std::string::npos ? std::string() : s.substr(a, b - a + 1);
}

// The first value the op's tiling-template declaration (ASCENDC_TPL_UINT_DECL / _INT_DECL with a
// list or ranges, ASCENDC_TPL_BOOL_DECL) gives template parameter `name`, else "0".
std::string firstTemplateValue(const std::vector<std::string>& texts, const std::string& name) {
    const std::regex decl("ASCENDC_TPL_(UINT|INT|BOOL)_DECL\\s*\\(\\s*" + name + "\\s*,([^)]*)\\)");
    for (const auto& t : texts) {
        std::smatch m;
        if (!std::regex_search(t, m, decl)) continue;
        const auto args = splitTopLevel(m[2].str());
        if (m[1].str() == "BOOL") return trimmed(args[0]);
        // (bits, mode, values...): a list gives its values, ranges (bits, mode, count, start, end...) their starts.
        if (args.size() >= 3 && args[1].find("LIST") != std::string::npos) return trimmed(args[2]);
        if (args.size() >= 4) return trimmed(args[3]);
    }
    return "0";
}

// CANN's current repositories declare the kernel entry as a template (`template <uint32_t
// schMode> __global__ __aicore__ void op(...)`), which the real build instantiates per tiling
// template value. Such an entry gets an exported wrapper that runs one instantiation, each
// template parameter at its first declared value; the kernel's TILING_KEY_IS still sees the key
// the host set. An op whose template value changes what it computes then runs its first
// configuration only, which the verification against the reference reports. "" when the entry
// is not a template.
std::string templateEntryWrapper(const std::string& source, const std::vector<std::string>& texts,
                                 const std::string& entry) {
    const std::string code = toolchain::SourcePolicy::codeOnly(source);
    const std::regex head("template\\s*<([^<>]*)>\\s*(?:__global__\\s+__aicore__|__aicore__\\s+__global__)\\s+void\\s+" +
                          entry + "\\s*\\(([^)]*)\\)");
    std::smatch m;
    if (!std::regex_search(code, m, head)) return "";
    std::string values, names;
    for (const auto& p : splitTopLevel(m[1].str()))
        values += (values.empty() ? "" : ", ") + firstTemplateValue(texts, lastIdentifier(p));
    for (const auto& p : splitTopLevel(m[2].str()))
        if (!trimmed(p).empty()) names += (names.empty() ? "" : ", ") + lastIdentifier(p);
    return "\nextern \"C\" void " + std::string(kTemplateEntry) + "(" + m[2].str() + ") { " + entry + "<" + values +
           ">(" + names + "); }\n";
}

// An entry declared through a linkage macro (ops-nn's dynamic_quant: `KERNEL_LINKAGE __global__
// __aicore__ void dynamic_quant(...)`, the macro being `static` in CPU-debug builds such as the
// simulator's, where __CCE_KT_TEST__ is set) is not exported. It gets an exported wrapper in the
// same file, as a templated entry does; "" when the entry is declared extern "C" itself.
std::string linkageMacroEntryWrapper(const std::string& source, const std::string& entry) {
    const std::string code = toolchain::SourcePolicy::codeOnly(source);
    const std::regex head("(?:__global__\\s+__aicore__|__aicore__\\s+__global__)\\s+void\\s+" + entry + "\\s*\\(([^)]*)\\)");
    std::smatch m;
    if (!std::regex_search(code, m, head)) return "";
    // What precedes the declaration in the original text (codeOnly blanks the "C" of extern "C").
    static const std::regex externC(R"(extern\s+"C"\s*$)");
    const size_t at = size_t(m.position(0));
    const size_t from = at > 64 ? at - 64 : 0;
    if (std::regex_search(source.substr(from, at - from), externC)) return "";
    std::string names;
    for (const auto& p : splitTopLevel(m[1].str()))
        if (!trimmed(p).empty()) names += (names.empty() ? "" : ", ") + lastIdentifier(p);
    return "\nextern \"C\" void " + std::string(kTemplateEntry) + "(" + m[1].str() + ") { " + entry + "(" + names + "); }\n";
}

std::string firstError(const std::vector<toolchain::Diagnostic>& ds) {
    for (const auto& d : ds)
        if (d.severity == toolchain::Severity::Error) return d.file + ":" + std::to_string(d.line) + ": " + d.message;
    return "?";
}

// How the spec's tensors line up with the op definition: the kernel's argument list (inputs,
// outputs, workspace, tiling) and, per definition entry, the spec tensors bound to it: none for an
// optional one the spec leaves out, one for a required or optional one, the list's tensors for a
// dynamic one (a tensor list <name>_0, <name>_1, ... in the spec).
struct Binding {
    std::vector<std::string> args;
    std::vector<std::vector<const TensorDecl*>> inputs, outputs;
    std::vector<std::string> inputFallbackDtype;
};

// The kernel argument of a tensor list: its tensors' names, which the runner passes as one tensor
// list description (the layout of AscendC's ListTensorDesc).
constexpr const char* kListArg = "@list:";

Binding bindTensors(const json& def, const Task& task, const std::string& specFile) {
    Binding b;
    std::set<std::string> inputNames;
    for (const auto& p : def.value("inputs", json::array())) inputNames.insert(p.value("name", ""));
    auto side = [&](const char* key, const std::vector<TensorDecl>& spec, std::vector<std::vector<const TensorDecl*>>& out) {
        std::set<std::string> known;
        std::string names;
        const std::string kind = std::string(key).substr(0, std::string(key).size() - 1);
        auto named = [&](const std::string& n) -> const TensorDecl* {
            for (const auto& t : spec)
                if (t.name == n) return &t;
            return nullptr;
        };
        for (const auto& p : def.value(key, json::array())) {
            const std::string name = p.value("name", ""), param = p.value("param", "required");
            known.insert(name);
            names += (names.empty() ? "" : ", ") + name;
            std::vector<const TensorDecl*> bound;
            if (param == "dynamic") {
                std::string list;
                for (size_t i = 0; const TensorDecl* t = named(name + "_" + std::to_string(i)); ++i) {
                    bound.push_back(t);
                    known.insert(t->name);
                    list += (list.empty() ? "" : ",") + t->name;
                }
                if (bound.empty())
                    throw OpProjectError(specFile + ": field '" + key + "': the op's " + kind + " '" + name +
                                         "' is a tensor list (dynamic): declare its tensors as " + name + "_0, " + name +
                                         "_1, ... (as many as the list holds, at least one)");
                b.args.push_back(kListArg + list);
            } else {
                // An output that is also an input (in place, a "ref") is named <name>_ref in the spec:
                // it gets its own buffer, which the kernel's output argument points to.
                const bool inPlace = std::string(key) == "outputs" && inputNames.count(name);
                const TensorDecl* found = named(name);
                if (!found && inPlace) found = named(name + "_ref");
                if (found) known.insert(found->name);
                if (!found && param != "optional")
                    throw OpProjectError(specFile + ": field '" + key + "': the op's " + param + " " + kind + " '" + name +
                                         "' is missing: add {\"name\": \"" + name + (inPlace ? "_ref" : "") +
                                         "\", \"dtype\": ..., \"shape\": ...}");
                if (found) bound.push_back(found);
                b.args.push_back(found ? found->name : "@absent");
            }
            out.push_back(bound);
            if (std::string(key) == "inputs") {
                const auto& dts = p.value("dtypes", json::array());
                b.inputFallbackDtype.push_back(dts.empty() ? "float32" : dts[0].get<std::string>());
            }
        }
        for (const auto& t : spec)
            if (!known.count(t.name))
                throw OpProjectError(specFile + ": field '" + key + "': '" + t.name + "' is not one of the op's " + key +
                                     " (" + (names.empty() ? "none" : names) +
                                     "): use the names op_host/<op>.cpp gives to Input()/Output(), <name>_0, <name>_1, "
                                     "... for a tensor list");
    };
    side("inputs", task.inputs, b.inputs);
    side("outputs", task.outputs, b.outputs);
    b.args.push_back("workspace");
    b.args.push_back("tiling");
    return b;
}

Task configTask(const OpSpec& spec, const OpConfig& cfg, const std::string& entry, const Binding& b) {
    Task t = spec.task;
    for (auto* list : {&t.inputs, &t.outputs})
        for (auto& d : *list) d.dtype = cfg.dtypes.at(d.name);
    t.attrs.clear();
    for (auto& [k, v] : cfg.attrs.items())
        if (v.is_number() || v.is_boolean()) t.attrs[k] = v.is_boolean() ? double(v.get<bool>()) : v.get<double>();
    // Inputs and references are cached by the task's text: each configuration is its own task.
    t.taskJsonText += "\n// sage op configuration: " + json(cfg.dtypes).dump() + cfg.attrs.dump();
    t.launch.present = true;
    t.launch.entry = entry;
    t.launch.args = b.args;
    return t;
}

json tilingRequest(const json& def, const Task& t, const TaskCase& c, const OpConfig& cfg, const Binding& b,
                   const json& platform) {
    json req = {{"op", def.value("type", "")}, {"platform", platform}, {"attrs", cfg.attrs}};
    json inputs = json::array(), outputs = json::array();
    // The configured tensor of a spec declaration (its dtype is the configuration's).
    auto configured = [](const std::vector<TensorDecl>& list, const TensorDecl* d) -> const TensorDecl& {
        return *std::find_if(list.begin(), list.end(), [&](const TensorDecl& x) { return x.name == d->name; });
    };
    for (size_t i = 0; i < b.inputs.size(); ++i) {
        // Every instance of a definition input carries its index (a list has several).
        for (const TensorDecl* in : b.inputs[i]) {
            const TensorDecl& d = configured(t.inputs, in);
            inputs.push_back({{"ir", i}, {"dtype", d.dtype}, {"shape", t.shapeOf(d, c)}, {"present", true}});
        }
        if (b.inputs[i].empty())
            inputs.push_back({{"ir", i}, {"dtype", b.inputFallbackDtype[i]}, {"shape", json::array()}, {"present", false}});
    }
    // In the definition's order (the spec may list them in another).
    for (const auto& list : b.outputs)
        for (const TensorDecl* o : list) {
            const TensorDecl& d = configured(t.outputs, o);
            outputs.push_back({{"dtype", d.dtype}, {"shape", t.shapeOf(d, c)}});
        }
    req["inputs"] = inputs;
    req["outputs"] = outputs;
    return req;
}

HostTilingRun tilingOf(const std::string& caseName, const json& a) {
    HostTilingRun r;
    r.caseName = caseName;
    r.ok = a.value("ok", false);
    r.error = a.value("error", "");
    if (!r.ok) return r;
    r.blockDim = a.value("block_dim", 0u);
    r.tilingKey = a.value("tiling_key", uint64_t(0));
    r.workspaceBytes = a.value("workspace_bytes", uint64_t(0));
    r.tilingBytes = a.value("tiling_hex", std::string()).size() / 2;
    r.launch = {{"tiling_hex", a.value("tiling_hex", std::string())}, {"block_dim", r.blockDim},
                {"tiling_key", r.tilingKey}, {"workspace_bytes", r.workspaceBytes}, {"ge_padding", true}};
    if (r.blockDim == 0) {
        r.ok = false;
        r.error = "the op's TilingFunc set no block dim (context->SetBlockDim) for this case";
    } else if (r.tilingBytes == 0) {
        r.ok = false;
        r.error = "the op's TilingFunc left the tiling data empty (SaveToBuffer + GetRawTilingData()->SetDataSize)";
    }
    return r;
}

} // namespace

json OpRunner::describe(const OpProject& project, const std::string& deviceId, std::string& error) const {
    const auto& paths = evaluator_.paths();
    const npu::DeviceProfile& device = evaluator_.devices().get(deviceId);
    toolchain::Compiler compiler(paths);
    auto host = compileHostProgram(compiler, project, device);
    if (!host.ok) {
        error = "op_host does not compile against the simulator's host shim: " + firstError(host.diagnostics);
        return {};
    }
    json deviceJson = json::parse(toolchain::readTextFile(paths.devicesDir() + "/" + deviceId + ".json"));
    auto answers = runHostRequests(toolchain::Sandbox(paths), host, deviceJson, {json{{"describe", true}}}, 60, error);
    if (answers.empty()) return {};
    if (!answers[0].value("ok", false)) {
        error = answers[0].value("error", "the host program described no op");
        return {};
    }
    return answers[0]["op"];
}

OpRunReport OpRunner::run(const OpProject& project, const OpSpec& spec, const OpRunOptions& opt) const {
    OpRunReport rep;
    rep.project = project.dir;
    rep.spec = spec.task.dir;
    rep.device = opt.deviceId;
    const auto& paths = evaluator_.paths();
    const npu::DeviceProfile& device = evaluator_.devices().get(opt.deviceId);
    const std::string specFile = (fs::path(spec.task.dir) / "task.json").string();
    toolchain::Compiler compiler(paths);
    toolchain::Sandbox sandbox(paths);
    json deviceJson = json::parse(toolchain::readTextFile(paths.devicesDir() + "/" + opt.deviceId + ".json"));
    try {
        // 1. The host program and the op definition it registers.
        auto host = compileHostProgram(compiler, project, device);
        rep.hostCompiled = host.ok;
        rep.hostDiagnostics = host.diagnostics;
        rep.notes = host.notes;
        if (!host.ok) {
            rep.error = "op_host does not compile against the simulator's host shim: " + firstError(host.diagnostics) +
                        " (the shim is core/npu/include/host; docs/compatibility.md lists what it covers)";
            return rep;
        }
        std::string error;
        auto described = runHostRequests(sandbox, host, deviceJson, {json{{"op", spec.op}, {"describe", true}}},
                                         opt.timeoutSeconds, error);
        if (described.empty()) {
            rep.error = error;
            return rep;
        }
        if (!described[0].value("ok", false)) {
            rep.error = described[0].value("error", "the host program described no op");
            return rep;
        }
        rep.opDef = described[0]["op"];
        rep.op = rep.opDef.value("type", "");
        const Binding binding = bindTensors(rep.opDef, spec.task, specFile);
        // 2. The kernel file, checked like any candidate (local headers of the op allowed).
        OpKernelBuild kernel = prepareOpKernel(project.dir, project.kernelFile, paths.npuInclude, false, device.npuArch);
        if (!kernel.refused.empty()) {
            rep.error = firstError(kernel.refused);
            return rep;
        }
        std::string entry = kernelEntry(kernel.request.source);
        if (entry.empty()) {
            rep.error = project.kernelFile + ": no `extern \"C\" __global__ __aicore__ void <op>(...)` kernel entry found";
            return rep;
        }
        std::string wrapper = templateEntryWrapper(kernel.request.source, kernel.kernelTexts, entry);
        if (wrapper.empty()) wrapper = linkageMacroEntryWrapper(kernel.request.source, entry);
        if (!wrapper.empty()) {
            kernel.request.source += wrapper;
            entry = kTemplateEntry;
        }
        // 3. Per configuration: the op's tiling for every case, then the kernel through the pipeline.
        const json platform = hostPlatform(device);
        for (const auto& cfg : spec.configs) {
            OpConfigResult cr;
            cr.config = cfg;
            Task task = configTask(spec, cfg, entry, binding);
            std::vector<json> requests;
            for (const auto& c : task.cases) requests.push_back(tilingRequest(rep.opDef, task, c, cfg, binding, platform));
            auto answers = runHostRequests(sandbox, host, deviceJson, requests, opt.timeoutSeconds, error);
            if (answers.empty()) {
                rep.error = error;
                rep.configs.push_back(std::move(cr));
                return rep;
            }
            cr.hostOk = true;
            EvalRequest req;
            for (size_t i = 0; i < answers.size(); ++i) {
                cr.tilings.push_back(tilingOf(task.cases[i].name, answers[i]));
                cr.hostOk &= cr.tilings.back().ok;
                req.caseLaunch[task.cases[i].name] = cr.tilings.back().launch;
            }
            if (!cr.hostOk) {
                for (const auto& t : cr.tilings)
                    if (!t.ok && rep.error.empty())
                        rep.error = "config '" + cfg.name + "', case '" + t.caseName + "': " + t.error;
                rep.configs.push_back(std::move(cr));
                continue;
            }
            req.source = kernel.request.source;
            req.kernelName = kernel.request.displayName;
            req.deviceId = opt.deviceId;
            req.seeds = opt.seeds;
            req.profile = opt.profile;
            req.timeoutSeconds = opt.timeoutSeconds;
            std::string prelude = kernel.request.prelude;
            // The configuration's data types, as the real build defines them per compiled configuration:
            // DTYPE_<NAME> the C++ type, ORIG_DTYPE_<NAME> the data type's name, which kernels compare
            // with DT_BF16 and the like in #if and if constexpr (sage_op_dtypes.h gives their values).
            prelude += "#include \"sage_op_dtypes.h\"\n";
            for (const auto& [name, dtype] : cfg.dtypes) {
                prelude += "#undef DTYPE_" + upper(name) + "\n#define DTYPE_" + upper(name) + " " + cxxTypeOf(dtype) + "\n";
                prelude += "#undef ORIG_DTYPE_" + upper(name) + "\n#define ORIG_DTYPE_" + upper(name) + " SAGE_DT_" + dtype + "\n";
            }
            req.prelude = prelude;
            req.extraFlags = kernel.request.extraFlags;
            req.localHeaders = kernel.localHeaders;
            req.staged = kernel.request.staged;
            req.stagedDir = kernel.request.stagedDir;
            cr.evaluation = evaluator_.evaluate(task, req);
            if (!cr.evaluation.success() && rep.error.empty())
                rep.error = "config '" + cfg.name + "': " +
                            (!cr.evaluation.compile.ok ? "the kernel does not compile: " + firstError(cr.evaluation.compile.diagnostics)
                             : cr.evaluation.run.status != toolchain::RunStatus::Ok ? "the kernel run ended " + std::string(toString(cr.evaluation.run.status)) + ": " + cr.evaluation.run.message
                                                                : std::string("the outputs do not match the reference"));
            rep.configs.push_back(std::move(cr));
        }
    } catch (const OpProjectError& e) {
        rep.error = e.what();
    }
    return rep;
}

bool OpRunReport::hostTilingRan() const {
    if (configs.empty()) return false;
    for (const auto& c : configs)
        if (!c.hostOk) return false;
    return true;
}

bool OpRunReport::pass() const {
    if (!hostTilingRan() || !error.empty()) return false;
    for (const auto& c : configs)
        if (!c.evaluation.success()) return false;
    return true;
}

json OpRunReport::toJson() const {
    json cfgs = json::array();
    for (const auto& c : configs) {
        json tilings = json::array();
        for (const auto& t : c.tilings)
            tilings.push_back({{"case", t.caseName}, {"ok", t.ok}, {"error", t.error}, {"block_dim", t.blockDim},
                               {"tiling_key", t.tilingKey}, {"workspace_bytes", t.workspaceBytes},
                               {"tiling_bytes", t.tilingBytes}});
        json j = {{"name", c.config.name}, {"dtypes", c.config.dtypes}, {"attrs", c.config.attrs},
                  {"host_tiling", tilings}, {"host_ok", c.hostOk}};
        if (c.hostOk) j["evaluation"] = c.evaluation.toJson();
        cfgs.push_back(std::move(j));
    }
    json diags = json::array();
    for (const auto& d : hostDiagnostics) diags.push_back(toolchain::toJson(d));
    return {{"project", project}, {"spec", spec},          {"op", op},
            {"device", device},   {"host_compiled", hostCompiled}, {"host_diagnostics", diags},
            {"op_def", opDef},    {"configs", cfgs},       {"host_tiling_ran", hostTilingRan()},
            {"pass", pass()},     {"error", error},          {"notes", notes}};
}

std::string OpRunReport::toText() const {
    // Names and messages come from the op project, its spec and the kernel: one line each.
    const auto P = [](const std::string& text) { return toolchain::printable(text); };
    std::ostringstream o;
    o << "op " << P(op.empty() ? "?" : op) << " (project " << P(project) << ", spec " << P(spec) << ") on " << P(device) << "\n";
    o << "host     " << (hostCompiled ? "compiled" : "FAILED") << "\n";
    for (const auto& d : hostDiagnostics)
        if (d.severity == toolchain::Severity::Error) o << "    " << P(d.file) << ":" << d.line << ": " << P(d.message) << "\n";
    for (const auto& n : notes) o << "note: " << P(n) << "\n";
    for (const auto& c : configs) {
        o << "config " << P(c.config.name) << " [";
        bool first = true;
        for (const auto& [k, v] : c.config.dtypes) o << (first ? "" : " ") << P(k) << "=" << P(v), first = false;
        o << "]\n";
        for (const auto& t : c.tilings) {
            o << "  tiling " << std::left << std::setw(10) << P(t.caseName) << std::right;
            if (t.ok)
                o << " block_dim " << t.blockDim << ", tiling_key " << t.tilingKey << ", workspace " << t.workspaceBytes
                  << " B, tiling " << t.tilingBytes << " B\n";
            else o << " FAILED: " << P(t.error) << "\n";
        }
        if (!c.hostOk) continue;
        const Evaluation& ev = c.evaluation;
        o << "  compile " << (ev.compile.ok ? "ok" : "FAILED");
        if (!ev.compile.ok) o << ": " << P(firstError(ev.compile.diagnostics));
        o << "\n  run     " << toString(ev.run.status) << (ev.run.message.empty() ? "" : ": " + P(ev.run.message)) << "\n";
        for (const auto& d : ev.run.diagnostics)
            o << "    " << P(d.file) << ":" << d.line << ": " << toString(d.severity) << ": " << P(d.message) << "\n";
        if (ev.verify.ran) {
            o << "  verify  " << (ev.verify.pass ? "PASS" : "FAIL") << " (" << ev.verify.cases.size() << " case x seed runs)\n";
            for (const auto& cc : ev.verify.cases)
                for (const auto& out : cc.outputs)
                    if (!out.pass) o << "    " << P(cc.caseName) << "/seed" << cc.seed << ": " << P(out.reason) << "\n";
        }
    }
    if (!error.empty()) o << "error: " << P(error) << "\n";
    o << (pass() ? "RESULT: PASS" : "RESULT: FAIL") << "\n";
    return o.str();
}

} // namespace sage::eval
