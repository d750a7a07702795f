// `sage op PROGRAM.asc`: prepare (policy, rewrite) -> compile -> stage the program's files ->
// run its main in the sandbox -> compare the output files with their golden files.
#include "sage_eval/OpProgram.h"

#include "sage_eval/CompatScan.h"
#include "sage_eval/Task.h"
#include "sage_eval/Verifier.h"
#include "sage_toolchain/Files.h"

#include <cctype>
#include <cstring>
#include <filesystem>
#include <sstream>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {

// sage_asc/program.h writes main's return value and the count of files it wrote that were not
// staged (not compared) there.
constexpr const char* kExitCodeTensor = "sage_exit_code";
constexpr size_t kMaxStagedFiles = 256;
constexpr uint64_t kMaxStagedBytes = 1ull << 30;

std::string stagedName(const std::string& relative) { return "file:" + relative; }

// Every regular, non-empty file under `dir/input` as an input of the run; `error` when there are
// more than the sandbox should carry.
bool stageInputs(const fs::path& dir, toolchain::SandboxInput& in, std::vector<std::string>& names,
                 std::string& error) {
    const fs::path inputDir = dir / "input";
    if (!fs::is_directory(inputDir)) return true;
    uint64_t total = 0;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(inputDir, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (!it->is_regular_file() || it->is_symlink() || it->file_size() == 0) continue;
        const std::string rel = fs::relative(it->path(), dir).generic_string();
        total += it->file_size();
        if (names.size() == kMaxStagedFiles || total > kMaxStagedBytes) {
            error = "the program's input/ folder holds more than " + std::to_string(kMaxStagedFiles) + " files or " +
                    std::to_string(kMaxStagedBytes >> 20) + " MiB: stage only what the program reads";
            return false;
        }
        in.spec.tensors.push_back({stagedName(rel), "int8", {int64_t(it->file_size())}, false, ""});
        in.inputFiles[stagedName(rel)] = fs::absolute(it->path()).string();
        names.push_back(rel);
    }
    return true;
}

// One output per compare, as large as its golden file; `error` when a golden file is missing or
// does not hold whole elements of its dtype.
bool stageOutputs(const fs::path& dir, const std::vector<ProgramCompare>& compares, toolchain::SandboxInput& in,
                  std::string& error) {
    for (size_t i = 0; i < compares.size(); ++i) {
        const auto& c = compares[i];
        const fs::path golden = dir / c.golden;
        std::error_code ec;
        const uint64_t bytes = fs::is_regular_file(golden, ec) ? fs::file_size(golden, ec) : 0;
        const uint32_t width = toolchain::dtypeBytes(c.dtype);
        if (bytes == 0 || ec) {
            error = "--compare " + c.output + "=" + c.golden + ": the golden file " + golden.string() +
                    " is missing or empty (generate it first, e.g. with the example's data script)";
            return false;
        }
        if (bytes % width) {
            error = "--compare: " + golden.string() + " holds " + std::to_string(bytes) + " bytes, not whole " +
                    c.dtype + " elements";
            return false;
        }
        in.spec.tensors.push_back({stagedName(fs::path(c.output).lexically_normal().generic_string()), "int8",
                                   {int64_t(bytes)}, true, "out_file_" + std::to_string(i) + ".bin"});
    }
    in.spec.tensors.push_back({kExitCodeTensor, "int32", {2}, true, "out_exit_code.bin"});
    return true;
}

OutputCheck compareOutput(const ProgramCompare& c, const fs::path& dir, const toolchain::RunResult& run,
                          const ProgramRunOptions& o) {
    const std::vector<uint8_t> golden = toolchain::readBinaryFile((dir / c.golden).string());
    const auto it = run.outputs.find(stagedName(fs::path(c.output).lexically_normal().generic_string()));
    const Tolerance tol = defaultTolerance(c.dtype);
    const double atol = o.atol.value_or(tol.atol), rtol = o.rtol.value_or(tol.rtol);
    const int64_t n = int64_t(golden.size() / toolchain::dtypeBytes(c.dtype));
    if (it == run.outputs.end()) {
        OutputCheck missing;
        missing.name = c.output;
        missing.dtype = c.dtype;
        missing.reason = "the run returned no " + c.output;
        return missing;
    }
    return verifyOutput(c.output, c.dtype, {n}, golden.data(), golden.size(), it->second.data(), it->second.size(),
                        atol, rtol);
}

void readRun(const toolchain::SandboxReport& sr, const ProgramRunOptions& o, const fs::path& dir, ProgramReport& r) {
    r.console = sr.stderrTail;
    if (sr.runs.empty()) {
        r.status = toolchain::RunStatus::Error;
        r.message = "the sandbox returned no run";
        return;
    }
    const toolchain::RunResult& run = sr.runs.front();
    r.status = run.status;
    r.message = run.message;
    r.launches = int(run.launches.size());
    for (const auto& l : run.launches) r.cycles += l.totalCycles;
    const auto code = run.outputs.find(kExitCodeTensor);
    // The entry writes main's value after main returned; a host side that threw leaves it unset.
    if (code != run.outputs.end() && code->second.size() == 2 * sizeof(int32_t) &&
        run.message.rfind("host side failed", 0) != 0 && toolchain::simulatorDecided(run.status)) {
        int32_t v[2] = {0, 0};
        std::memcpy(v, code->second.data(), sizeof v);
        r.exitCode = v[0];
        r.unkeptWrites = v[1];
    }
    for (const auto& c : o.compares) r.checks.push_back(compareOutput(c, dir, run, o));
}

// The device as PlatformAscendCManager describes it to the program's host code
// (host/tiling/platform/platform_ascendc.h): fe::PlatFormInfos' leading fields in order, npuArch last.
std::string devicePlatformDefinition(const npu::DeviceProfile& d) {
    std::string soc;
    for (char c : d.soc)
        if (std::isalnum(static_cast<unsigned char>(c)) || c == '_' || c == '-') soc += c;
    return "#define SAGE_DEVICE_PLATFORM {\"" + soc + "\", " + std::to_string(d.vectorCores) + "u, " +
           std::to_string(d.cubeCores) + "u, " + (d.splitArch ? "true" : "false") + ", " +
           std::to_string(d.ubUsableBytes) + "ull, " + std::to_string(d.l1Bytes) + "ull, " + std::to_string(d.l0aBytes) +
           "ull, " + std::to_string(d.l0bBytes) + "ull, " + std::to_string(d.l0cBytes) + "ull, " +
           std::to_string(d.npuArch) + "u}\n";
}

} // namespace

ProgramCompare parseProgramCompare(const std::string& text) {
    const size_t eq = text.find('=');
    if (eq == std::string::npos || eq == 0 || eq + 1 == text.size())
        throw std::invalid_argument("--compare '" + text + "': write OUTPUT=GOLDEN[:DTYPE], e.g. "
                                    "output/output.bin=output/golden.bin:float16");
    ProgramCompare c;
    c.output = text.substr(0, eq);
    c.golden = text.substr(eq + 1);
    if (const size_t colon = c.golden.rfind(':'); colon != std::string::npos) {
        c.dtype = c.golden.substr(colon + 1);
        c.golden = c.golden.substr(0, colon);
    }
    if (c.golden.empty() || !isSupportedDtype(c.dtype))
        throw std::invalid_argument("--compare '" + text + "': '" + c.dtype +
                                    "' is not a dtype sage compares (float16, bfloat16, float32, int8, int16, int32, "
                                    "int64, uint8)");
    for (const auto* p : {&c.output, &c.golden})
        if (fs::path(*p).is_absolute() || fs::path(*p).lexically_normal().string().rfind("..", 0) == 0)
            throw std::invalid_argument("--compare '" + text + "': " + *p +
                                        " must be a path inside the program's folder (relative, no ..)");
    return c;
}

bool ProgramReport::verified() const {
    if (status != toolchain::RunStatus::Ok || !exitCode || *exitCode != 0 || unkeptWrites != 0) return false;
    for (const auto& c : checks)
        if (!c.pass) return false;
    return true;
}

ProgramReport runProgram(const Evaluator& evaluator, const std::string& programFile, const ProgramRunOptions& o) {
    ProgramReport r;
    r.program = programFile;
    const fs::path file = fs::absolute(programFile), dir = file.parent_path();
    if (!fs::is_regular_file(file)) {
        r.status = toolchain::RunStatus::BadInput;
        r.message = programFile + ": no such file";
        return r;
    }
    const npu::DeviceProfile& device = evaluator.devices().get(o.deviceId);
    OpKernelBuild b = prepareOpKernel(dir.string(), file.string(), evaluator.paths().npuInclude, true, device.npuArch);
    if (!b.refused.empty()) {
        r.status = toolchain::RunStatus::Rejected;
        r.message = b.refused.front().message;
        r.diagnostics = b.refused;
        return r;
    }
    toolchain::SandboxInput in;
    in.spec.id = "program";
    in.spec.extra = {{"host_writes_outputs", true}};
    std::string error;
    if (!stageInputs(dir, in, r.inputs, error) || !stageOutputs(dir, o.compares, in, error)) {
        r.status = toolchain::RunStatus::BadInput;
        r.message = error;
        return r;
    }
    toolchain::CompileRequest cr = b.request;
    cr.prelude = devicePlatformDefinition(device) + cr.prelude;
    cr.npuArch = device.npuArch;
    cr.deviceId = device.id;
    const auto compiled = toolchain::Compiler(evaluator.paths()).compile(cr);
    if (!compiled.ok) {
        r.status = toolchain::RunStatus::CompileError;
        for (const auto& d : compiled.diagnostics)
            if (d.severity == toolchain::Severity::Error) r.diagnostics.push_back(d);
        r.message = r.diagnostics.empty() ? "the program does not compile" : r.diagnostics.front().message;
        return r;
    }
    toolchain::RunJob job;
    job.sharedObject = compiled.sharedObject;
    job.device = json::parse(toolchain::readTextFile(evaluator.paths().devicesDir() + "/" + device.id + ".json"));
    job.maxEvents = 0;
    toolchain::SandboxOptions opts;
    opts.timeoutSeconds = o.timeoutSeconds;
    readRun(toolchain::Sandbox(evaluator.paths()).run(job, {in}, opts), o, dir, r);
    return r;
}

json ProgramReport::toJson() const {
    json checksJson = json::array();
    for (const auto& c : checks)
        checksJson.push_back({{"output", c.name}, {"dtype", c.dtype}, {"pass", c.pass}, {"reason", c.reason},
                              {"checked", c.checked}, {"mismatches", c.mismatches}, {"max_abs_error", c.maxAbsError},
                              {"atol", c.atol}, {"rtol", c.rtol}});
    json diags = json::array();
    for (const auto& d : diagnostics) diags.push_back(toolchain::toJson(d));
    return {{"program", program},   {"status", toString(status)}, {"message", message},   {"verified", verified()},
            {"exit_code", exitCode ? json(*exitCode) : json()}, {"unkept_writes", unkeptWrites}, {"launches", launches}, {"cycles", cycles},
            {"inputs", inputs},     {"checks", checksJson}, {"diagnostics", diags}, {"console", console}};
}

std::string ProgramReport::toText() const {
    std::ostringstream s;
    s << program << ": ";
    if (status == toolchain::RunStatus::Rejected || status == toolchain::RunStatus::CompileError ||
        status == toolchain::RunStatus::BadInput) {
        s << toString(status) << ": " << message << "\n";
        for (const auto& d : diagnostics) s << "  " << d.file << ":" << d.line << ": " << d.message << "\n";
        return s.str();
    }
    s << "ran " << launches << " launch" << (launches == 1 ? "" : "es") << " (" << cycles << " cycles), status "
      << toString(status) << (message.empty() ? "" : ": " + message) << "\n";
    s << "  main returned " << (exitCode ? std::to_string(*exitCode) : std::string("nothing (it did not return)"))
      << "\n";
    if (!inputs.empty()) s << "  staged " << inputs.size() << " input file(s) from input/\n";
    if (unkeptWrites)
        s << "  it wrote " << unkeptWrites << " file(s) no --compare names (its result is not checked: name them with "
          << "--compare OUT=GOLDEN:DTYPE)\n";
    for (const auto& c : checks)
        s << "  " << c.name << " vs golden (" << c.dtype << "): "
          << (c.pass ? "match" : "differs: " + c.reason) << "\n";
    if (!console.empty()) s << "  program output (tail):\n" << console << (console.back() == '\n' ? "" : "\n");
    s << (verified() ? "verified" : "not verified") << (checks.empty() && verified() ? " (by the program's own check)" : "")
      << "\n";
    return s.str();
}

} // namespace sage::eval
