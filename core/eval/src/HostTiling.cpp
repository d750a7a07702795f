#include "HostTiling.h"

#include "sage_eval/CompatScan.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/ProjectPaths.h"

#include <filesystem>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// A compile of op_host sources of `project` against the host shim. One source compiles unchanged
// (its diagnostics name its lines); several are each their own translation unit, included by
// absolute path, linked into one program, as CANN's build compiles them one by one into one host
// library: two sources may define the same file-local name (group_norm_silu's tiling and its
// arch35 tiling both define INPUT_IDX_X), and one may call a function another defines.
toolchain::CompileResult compileHostSources(const toolchain::Compiler& compiler, const OpProject& project,
                                            const npu::DeviceProfile& device, const std::vector<std::string>& sources) {
    toolchain::CompileRequest cr;
    const std::string tree = projectTreeOf(project.dir);
    if (sources.size() == 1) {
        cr.source = toolchain::readProjectFile(sources[0], tree, 4 << 20);
    } else {
        for (size_t i = 0; i < sources.size(); ++i) {
            (void)toolchain::readProjectFile(sources[i], tree, 4 << 20);  // inside the tree, bounded
            const std::string unit = toolchain::quotedIncludeLine(fs::absolute(sources[i]).string());
            if (i == 0) cr.source = unit;
            else cr.units.push_back(unit);
        }
    }
    cr.displayName = "op_host/" + fs::path(sources[0]).filename().string();
    cr.prelude = "#include \"sage_op_host_driver.h\"\n";
    cr.npuArch = device.npuArch;
    cr.deviceId = device.id;
    const std::string root = fs::absolute(project.dir).string();
    cr.projectRoot = tree;
    // The tree's root too: op_host files of CANN's current repositories include kernel headers by
    // their path from it (experimental/math/sin/op_kernel/sin_tiling_data.h).
    cr.extraFlags = {"-I" + root + "/op_host", "-I" + root, "-I" + cr.projectRoot};
    for (const auto& d : commonIncludeDirsOf(root)) cr.extraFlags.push_back("-I" + d);
    // A dependency's headers by their bare name (foreach_tiling_class.h of foreach_utils/op_host/).
    for (const auto& d : project.dependencyDirs) cr.extraFlags.push_back("-I" + fs::absolute(d).string() + "/op_host");
    cr.extraFlags.insert(cr.extraFlags.end(), {"-I" + compiler.paths().npuInclude + "/host", "-w", "-DSAGE_OP_HOST=1"});
    return compiler.compile(cr);
}

std::string firstErrorOf(const std::vector<toolchain::Diagnostic>& ds) {
    for (const auto& d : ds)
        if (d.severity == toolchain::Severity::Error) return d.file + ":" + std::to_string(d.line) + ": " + d.message;
    return "?";
}

} // namespace

HostProgram compileHostProgram(const toolchain::Compiler& compiler, const OpProject& project,
                               const npu::DeviceProfile& device) {
    // The device's architecture folder (op_host/arch22/ for a 910B) holds the tiling CANN's build
    // compiles for it; the other architectures' folders stay out, as they do in that build.
    std::vector<std::string> sources = project.hostSources;
    if (auto arch = project.archHostSources.find(hostArchDirOf(device.npuArch)); arch != project.archHostSources.end())
        sources.insert(sources.end(), arch->second.begin(), arch->second.end());
    auto res = compileHostSources(compiler, project, device, sources);
    HostProgram program{res.ok, res.sharedObject, res.diagnostics, {}};
    // Graph-mode shape inference is not part of the program: `sage op` runs the kernel at the shapes
    // its spec gives and never asks the op to infer them. Its sources are still compiled, on their
    // own, so that a gap of the host shim there is seen; it is a note, never a stop. (The
    // compatibility measure, `sage compat`, counts kernel files and is not touched by this.)
    if (program.ok && !project.shapeInferenceSources.empty()) {
        auto infer = compileHostSources(compiler, project, device, project.shapeInferenceSources);
        if (!infer.ok)
            program.notes.push_back("the op's shape inference (" + fs::path(project.shapeInferenceSources[0]).filename().string() +
                                    (project.shapeInferenceSources.size() > 1 ? " and others" : "") +
                                    ") does not compile against the host shim: " + firstErrorOf(infer.diagnostics) +
                                    "; sage op does not need it (output shapes come from the spec), so the run goes on");
    }
    return program;
}

json hostPlatform(const npu::DeviceProfile& d) {
    return {{"soc", d.soc},       {"aiv_cores", d.vectorCores}, {"aic_cores", d.cubeCores}, {"split", d.splitArch},
            {"ub", d.ubUsableBytes}, {"l1", d.l1Bytes},         {"l0a", d.l0aBytes},        {"l0b", d.l0bBytes},
            {"l0c", d.l0cBytes},  {"npu_arch", d.npuArch}};
}

std::vector<json> runHostRequests(const toolchain::Sandbox& sandbox, const HostProgram& program, const json& deviceJson,
                                  const std::vector<json>& requests, double timeoutSeconds, std::string& error) {
    toolchain::RunJob job;
    job.mode = "host_tiling";
    job.sharedObject = program.sharedObject;
    job.device = deviceJson;
    std::vector<toolchain::SandboxInput> inputs;
    for (size_t i = 0; i < requests.size(); ++i) {
        toolchain::SandboxInput in;
        in.spec.id = "host" + std::to_string(i);
        in.spec.extra = requests[i];
        inputs.push_back(std::move(in));
    }
    toolchain::SandboxOptions opts;
    opts.timeoutSeconds = timeoutSeconds;
    auto report = sandbox.run(job, inputs, opts);
    std::vector<json> out;
    for (const auto& r : report.runs) {
        if (r.status != toolchain::RunStatus::Ok) {
            error = "the op's host program (op_host) failed in the sandbox (" + std::string(toString(r.status)) + "): " + r.message;
            return {};
        }
        out.push_back(r.extra.is_object() ? r.extra : json{{"ok", false}, {"error", "the host program gave no answer"}});
    }
    // What the op logged (its OP_LOGE lines) explains a failed tiling: the tail goes with the error.
    std::string log = report.stderrTail;
    if (log.size() > 600) log = "..." + log.substr(log.size() - 600);
    for (auto& a : out)
        if (!a.value("ok", false) && !log.empty()) a["error"] = a.value("error", std::string()) + "\nhost log: " + log;
    return out;
}

} // namespace sage::eval
