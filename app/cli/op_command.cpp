// `sage op DIR [--spec SPEC | --specs ROOT] [--device ID] [--seeds N] [--json]`: run an AscendC op
// project unmodified: compile its op_host with the host shim, run its TilingFunc per case in the
// sandbox, launch op_kernel with the tiling it set, verify against the spec's reference.
// `sage op init DIR [--out SPEC]` writes a template spec from the op's own definition.
// `sage op PROGRAM.asc [--compare OUT=GOLDEN[:DTYPE]]... [--atol A] [--rtol R]`: run a single-file
// program's main on the simulator (ACL shim) and verify it (sage_eval/OpProgram.h).
// Exit code 0 iff every configuration (the program) verifies; 1 otherwise; 2 for bad arguments.
#include "cli/command_registry.h"

#include "sage_eval/OpProgram.h"
#include "sage_eval/OpProject.h"
#include "sage_toolchain/Files.h"

#include <filesystem>
#include <iostream>
#include <optional>

namespace sage::cli {
namespace fs = std::filesystem;

namespace {

struct OpOptions {
    std::string dir, spec, specs, device = toolchain::DeviceCatalog::kDefaultDevice, out;
    size_t seeds = 1;
    double timeout = 60;
    std::vector<std::string> compares;
    std::optional<double> atol, rtol;
    bool json = false, profile = false, force = false;
};

[[noreturn]] void fail(const std::string& message, int code) {
    std::cerr << "sage: error: " << message << "\n";
    throw CLI::RuntimeError(code);
}

void runOp(const OpOptions& o) {
    eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
    try {
        evaluator.devices().get(o.device);
    } catch (const std::exception& e) {
        fail(e.what(), 2);
    }
    eval::OpProject project;
    eval::OpSpec spec;
    try {
        project = eval::OpProject::open(o.dir);
        std::string specDir = o.spec;
        if (specDir.empty() && !o.specs.empty()) {
            specDir = eval::findOpSpec(o.specs, project.dir);
            if (specDir.empty())
                fail("no spec for op '" + project.name + "' under " + o.specs + " (looked for " + o.specs + "/<category>/" +
                         project.name + "/task.json and " + o.specs + "/" + project.name +
                         "/task.json): write one with `sage op init " + o.dir + " --out DIR`",
                     2);
        }
        if (specDir.empty()) specDir = eval::ownOpSpecDir(project.dir);
        if (!fs::exists(fs::path(specDir) / "task.json"))
            fail("no op spec at " + specDir + " (task.json + reference.cpp): pass --spec DIR or --specs ROOT, or write "
                 "one with `sage op init " + o.dir + "`",
                 2);
        spec = eval::OpSpec::loadDirectory(specDir);
    } catch (const eval::OpProjectError& e) {
        fail(e.what(), 2);
    } catch (const eval::TaskError& e) {
        fail(e.what(), 2);
    }
    eval::OpRunOptions ro;
    ro.deviceId = o.device;
    ro.seeds = o.seeds;
    ro.timeoutSeconds = o.timeout;
    ro.profile = o.profile;
    auto report = eval::OpRunner(evaluator).run(project, spec, ro);
    if (o.json) std::cout << report.toJson().dump(2) << "\n";
    else std::cout << report.toText();
    if (!report.pass()) throw CLI::RuntimeError(1);
}

bool isProgramFile(const std::string& path) {
    return fs::path(path).extension() == ".asc" || fs::is_regular_file(path);
}

void runProgram(const OpOptions& o) {
    eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
    eval::ProgramRunOptions ro;
    try {
        evaluator.devices().get(o.device);
        for (const auto& c : o.compares) ro.compares.push_back(eval::parseProgramCompare(c));
    } catch (const std::exception& e) {
        fail(e.what(), 2);
    }
    ro.deviceId = o.device;
    ro.timeoutSeconds = o.timeout;
    ro.atol = o.atol;
    ro.rtol = o.rtol;
    const auto report = eval::runProgram(evaluator, o.dir, ro);
    if (o.json) std::cout << report.toJson().dump(2) << "\n";
    else std::cout << report.toText();
    if (report.status == toolchain::RunStatus::BadInput) throw CLI::RuntimeError(2);
    if (!report.verified()) throw CLI::RuntimeError(1);
}

void initOp(const OpOptions& o) {
    eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
    eval::OpProject project;
    try {
        project = eval::OpProject::open(o.dir);
    } catch (const eval::OpProjectError& e) {
        fail(e.what(), 2);
    }
    const fs::path out = o.out.empty() ? fs::path(eval::ownOpSpecDir(project.dir)) : fs::path(o.out);
    if (fs::exists(out / "task.json") && !o.force)
        fail((out / "task.json").string() + " exists: pass --force to overwrite it, or --out another folder", 2);
    std::string error;
    auto def = eval::OpRunner(evaluator).describe(project, o.device, error);
    if (def.is_null()) fail(error, 1);
    fs::create_directories(out);
    toolchain::writeFile((out / "task.json").string(), eval::opSpecTemplate(def, project.name));
    toolchain::writeFile((out / "reference.cpp").string(), eval::opReferenceTemplate(def));
    std::cout << "wrote " << (out / "task.json").string() << " and " << (out / "reference.cpp").string()
              << " for op " << def.value("type", std::string("?")) << ": edit the shapes, cases and reference, then run "
              << "`sage op " << o.dir << " --spec " << out.string() << "`\n";
}

} // namespace

void registerOpCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("op", "Run an AscendC op project from its own host tiling and verify it");
    auto o = std::make_shared<OpOptions>();
    cmd->add_option("dir", o->dir, "The op directory (holds op_host/ and op_kernel/), or a program file (.asc)");
    cmd->add_option("--spec", o->spec, "The op's spec folder (task.json + reference.cpp; default DIR/sage-spec)");
    cmd->add_option("--specs", o->specs, "A root of spec folders looked up by op name (<root>/<category>/<op>)");
    cmd->add_option("--device", o->device, "Device profile id (see `sage devices`)");
    cmd->add_option("--seeds", o->seeds, "Input seeds verified per case (default 1)");
    cmd->add_option("--timeout", o->timeout, "Wall-clock limit of each sandboxed run in seconds (default 60)");
    cmd->add_flag("--profile", o->profile, "Profile the perf case of each configuration");
    cmd->add_flag("--json", o->json, "Print the report as JSON");
    cmd->add_option("--compare", o->compares,
                    "A program's output file and its golden file, OUT=GOLDEN[:DTYPE] relative to the program's folder "
                    "(repeatable; dtype default float32)");
    cmd->add_option("--atol", o->atol, "Absolute tolerance of --compare (default: the dtype's)");
    cmd->add_option("--rtol", o->rtol, "Relative tolerance of --compare (default: the dtype's)");
    auto* init = cmd->add_subcommand("init", "Write a template spec for an op project from its op definition");
    init->add_option("dir", o->dir, "The op directory")->required();
    init->add_option("--out", o->out, "Where to write task.json and reference.cpp (default DIR/sage-spec)");
    init->add_option("--device", o->device, "Device profile id");
    init->add_flag("--force", o->force, "Overwrite an existing spec");
    init->callback([o] { initOp(*o); });
    cmd->callback([o, cmd, init] {
        if (init->parsed()) return;
        if (o->dir.empty()) throw CLI::ValidationError("dir", "pass the op directory: sage op DIR [--spec SPEC]");
        (void)cmd;
        if (isProgramFile(o->dir)) runProgram(*o);
        else runOp(*o);
    });
}

} // namespace sage::cli
