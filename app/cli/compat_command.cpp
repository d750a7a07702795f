// `sage compat DIR [--json] [--limit N] [--device ID] [--whole-programs]`: per kernel file under DIR (op projects'
// op_kernel/*.cpp and loose kernel files) whether it passes the source policy and compiles
// against the simulator's kernel API, the first error, then totals and the identifiers most
// often missing. DIR is the user's; nothing of it is copied into the project.
#include "cli/command_registry.h"

#include "sage_eval/CompatScan.h"
#include "sage_eval/OpProject.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <filesystem>
#include <iostream>

namespace sage::cli {

void registerCompatCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("compat", "Measure how many AscendC kernels under a directory parse and compile");
    auto dir = std::make_shared<std::string>();
    auto json = std::make_shared<bool>(false);
    auto limit = std::make_shared<int>(0);
    auto device = std::make_shared<std::string>(toolchain::DeviceCatalog::kDefaultDevice);
    auto top = std::make_shared<int>(20);
    auto specs = std::make_shared<std::string>();
    auto wholePrograms = std::make_shared<bool>(false);
    cmd->add_option("dir", *dir, "Directory to walk (op projects and kernel files)")->required();
    cmd->add_flag("--json", *json, "Print the report as JSON");
    cmd->add_option("--limit", *limit, "Stop after N kernel files (in path order); 0 = all");
    cmd->add_option("--device", *device, "Device profile to compile for");
    cmd->add_option("--top", *top, "How many missing identifiers to list");
    cmd->add_option("--specs", *specs,
                    "Op specs root (<root>/<category>/<op>): ops with a spec also run through `sage op`, filling "
                    "the host tiling and verified columns");
    cmd->add_flag("--whole-programs", *wholePrograms,
                  "Compile each single-file program (.asc) as a whole, host main included, as `sage op PROGRAM.asc` "
                  "runs it (default: its device part only)");
    cmd->callback([=] {
        std::error_code ec;
        if (!std::filesystem::is_directory(*dir, ec))
            throw CLI::ValidationError("dir", *dir + " is not a directory: pass the folder that holds the kernels");
        auto paths = toolchain::ToolPaths::fromEnvironment();
        auto catalog = toolchain::DeviceCatalog::loadDirectory(paths.devicesDir());
        const auto& prof = catalog.get(*device);
        toolchain::Compiler compiler(paths);
        eval::CompatScanner scanner(compiler, prof.npuArch, prof.id);
        scanner.wholePrograms = *wholePrograms;
        eval::Evaluator evaluator = eval::Evaluator::fromEnvironment();
        if (!specs->empty())
            scanner.onCompiled = [&](const std::string& opRoot, eval::CompatFile& f) {
                const std::string spec = eval::findOpSpec(*specs, opRoot);
                if (spec.empty()) return;
                try {
                    eval::OpRunOptions o;
                    o.deviceId = prof.id;
                    auto r = eval::OpRunner(evaluator).run(eval::OpProject::open(opRoot), eval::OpSpec::loadDirectory(spec), o);
                    f.hostTiling = r.hostTilingRan() ? "ran" : "failed";
                    f.verified = r.pass() ? "pass" : "fail";
                    if (!r.pass() && f.firstError.empty()) f.firstError = "sage op: " + r.error;
                } catch (const std::exception& e) {
                    f.hostTiling = "failed";
                    f.firstError = std::string("sage op: ") + e.what();
                }
            };
        auto report = scanner.scan(*dir, *limit);
        if (*json) std::cout << report.toJson(*top).dump(2) << "\n";
        else std::cout << report.toText(*top);
    });
}

} // namespace sage::cli
