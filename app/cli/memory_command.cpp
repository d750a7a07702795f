// `sage memory`: placeholder until the experience store lands (issue 5).
#include "cli/command_registry.h"

namespace sage::cli {
void registerMemoryCommand(CLI::App&) {}
} // namespace sage::cli
