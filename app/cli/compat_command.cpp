// `sage compat DIR [--json] [--limit N] [--device ID]`: per kernel file under DIR (op projects'
// op_kernel/*.cpp and loose kernel files) whether it passes the source policy and compiles
// against the simulator's kernel API, the first error, then totals and the identifiers most
// often missing. DIR is the user's; nothing of it is copied into the project.
#include "cli/command_registry.h"

#include "sage_eval/CompatScan.h"
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
    cmd->add_option("dir", *dir, "Directory to walk (op projects and kernel files)")->required();
    cmd->add_flag("--json", *json, "Print the report as JSON");
    cmd->add_option("--limit", *limit, "Stop after N kernel files (in path order); 0 = all");
    cmd->add_option("--device", *device, "Device profile to compile for");
    cmd->add_option("--top", *top, "How many missing identifiers to list");
    cmd->callback([=] {
        std::error_code ec;
        if (!std::filesystem::is_directory(*dir, ec))
            throw CLI::ValidationError("dir", *dir + " is not a directory: pass the folder that holds the kernels");
        auto paths = toolchain::ToolPaths::fromEnvironment();
        auto catalog = toolchain::DeviceCatalog::loadDirectory(paths.devicesDir());
        const auto& prof = catalog.get(*device);
        toolchain::Compiler compiler(paths);
        eval::CompatScanner scanner(compiler, prof.npuArch, prof.id);
        auto report = scanner.scan(*dir, *limit);
        if (*json) std::cout << report.toJson(*top).dump(2) << "\n";
        else std::cout << report.toText(*top);
    });
}

} // namespace sage::cli
