// `sage`: the headless command line. Every command runs the same core code as the workbench.
#include "cli/command_registry.h"
#include "sage_config.h"
#include "sage_memory/MemoryError.h"

#include <iostream>

int main(int argc, char** argv) {
    CLI::App app{"sage — SAGE Kernel Workbench, headless.\n"
                 "Compile, run, verify and profile AscendC-style kernels on a simulated Ascend-like NPU,\n"
                 "and run the memory-guided agent."};
    app.set_version_flag("--version", std::string("sage ") + SAGE_VERSION);
    app.require_subcommand(1);
    sage::cli::registerDevicesCommand(app);
    sage::cli::registerTasksCommand(app);
    sage::cli::registerEvalCommand(app);
    sage::cli::registerRunCommand(app);
    sage::cli::registerBenchCommand(app);
    sage::cli::registerMemoryCommand(app);
    sage::cli::registerPromptCommand(app);
    sage::cli::registerCompatCommand(app);
    sage::cli::registerOpCommand(app);
    sage::cli::registerCacheCommand(app);
    try {
        app.parse(argc, argv);
    } catch (const CLI::ParseError& e) {
        return app.exit(e);
    } catch (const sage::memory::MemoryError& e) {
        std::cerr << "sage: error: " << e.what() << "\n";
        // A database server that cannot be reached is an outage to wait out, not a bad argument:
        // scripts and Slurm jobs tell the two apart by the exit code (docs/cli.md).
        return e.code() == sage::memory::MemoryError::Code::Unavailable ? sage::cli::kExitDatabaseUnavailable : 2;
    } catch (const std::exception& e) {
        std::cerr << "sage: error: " << e.what() << "\n";
        return 2;
    }
    return 0;
}
