// `sage devices [--json]`: list the simulated device profiles.
#include "cli/command_registry.h"

#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <iomanip>
#include <iostream>
#include <nlohmann/json.hpp>

namespace sage::cli {

void registerDevicesCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("devices", "List the simulated device profiles (resources/devices/*.json)");
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--json", *json, "Print a JSON array");
    cmd->callback([json] {
        auto paths = toolchain::ToolPaths::fromEnvironment();
        auto catalog = toolchain::DeviceCatalog::loadDirectory(paths.devicesDir());
        if (*json) {
            nlohmann::json out = nlohmann::json::array();
            for (const auto& p : catalog.profiles()) out.push_back(toolchain::DeviceCatalog::summary(p));
            std::cout << out.dump(2) << "\n";
            return;
        }
        for (const auto& p : catalog.profiles())
            std::cout << std::left << std::setw(18) << p.id << " " << p.name << ": " << p.vectorCores << " vector / "
                      << p.cubeCores << " cube cores @ " << p.clockMhz << " MHz, UB " << p.ubUsableBytes / 1024
                      << " KB usable, DataCopyPad " << (p.dataCopyPad ? "yes" : "no") << "\n";
    });
}

} // namespace sage::cli
