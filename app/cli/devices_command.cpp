// `sage devices`: list the simulated device profiles. (Filled in with the device catalog.)
#include "cli/command_registry.h"

#include <iostream>

namespace sage::cli {
void registerDevicesCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("devices", "List the simulated device profiles");
    static bool json = false;
    cmd->add_flag("--json", json, "Print JSON");
    cmd->callback([] { std::cout << (json ? "[]\n" : "no devices yet\n"); });
}
} // namespace sage::cli
