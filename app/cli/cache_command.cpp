// `sage cache [--trim] [--json]`: what sage's caches hold on disk, and trimming them to their
// budgets now. Every cache is safe to delete: what is missing is computed again when needed.
#include "cli/command_registry.h"

#include "sage_eval/RunCache.h"
#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/ToolPaths.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <nlohmann/json.hpp>

namespace sage::cli {
namespace fs = std::filesystem;

namespace {

// A cache folder under SAGE_CACHE_DIR: what it holds, its budget, and how to measure and trim it.
struct CacheFolder {
    const char* name;
    const char* holds;  // what a user would call it
    const char* budgetVariable;
    uint64_t (*budget)();
    toolchain::FolderUsage (*usage)(const fs::path& folder);
    void (*trim)(const fs::path& folder);
};

toolchain::FolderUsage plainUsage(const fs::path& folder) { return toolchain::cacheFolderUsage(folder); }
void plainTrim(const fs::path& folder) { toolchain::trimCacheFolder(folder, toolchain::cacheFolderBudget()); }
toolchain::FolderUsage runUsage(const fs::path& folder) { return eval::RunCache(folder.string()).usage(); }
void runTrim(const fs::path& folder) { eval::RunCache(folder.string()).trim(); }

constexpr CacheFolder kFolders[] = {
    {"kernels", "compiled kernels", "SAGE_CACHE_MB", toolchain::cacheFolderBudget, plainUsage, plainTrim},
    {"pch", "precompiled kernel API headers", "SAGE_CACHE_MB", toolchain::cacheFolderBudget, plainUsage, plainTrim},
    {"inputs", "generated task inputs", "SAGE_CACHE_MB", toolchain::cacheFolderBudget, plainUsage, plainTrim},
    {"reference", "reference outputs", "SAGE_CACHE_MB", toolchain::cacheFolderBudget, plainUsage, plainTrim},
    {"golden", "CANN Bench golden inputs and outputs", "SAGE_CACHE_MB", toolchain::cacheFolderBudget, plainUsage, plainTrim},
    {"runs", "run results (outputs in runs/blobs)", "SAGE_RUN_CACHE_MB", eval::RunCache::budgetBytes, runUsage, runTrim},
};

} // namespace

void registerCacheCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("cache", "Show what sage's caches hold on disk; --trim drops what is over budget now");
    auto trim = std::make_shared<bool>(false);
    auto json = std::make_shared<bool>(false);
    cmd->add_flag("--trim", *trim,
                  "Drop the least recently used entries of every cache folder beyond its budget (entries used in the "
                  "last 10 minutes stay)");
    cmd->add_flag("--json", *json, "Print a JSON object");
    cmd->callback([trim, json] {
        const fs::path root = toolchain::ToolPaths::fromEnvironment().cacheDir;
        nlohmann::json out = {{"cache_dir", root.string()}, {"folders", nlohmann::json::array()}};
        for (const auto& f : kFolders) {
            const fs::path folder = root / f.name;
            const auto before = f.usage(folder);
            if (*trim) f.trim(folder);
            const auto after = *trim ? f.usage(folder) : before;
            out["folders"].push_back({{"name", f.name}, {"holds", f.holds}, {"bytes", after.bytes},
                                      {"entries", after.entries}, {"budget_bytes", f.budget()},
                                      {"budget_variable", f.budgetVariable},
                                      {"freed_bytes", before.bytes - std::min(before.bytes, after.bytes)}});
        }
        if (*json) {
            std::cout << out.dump(2) << "\n";
            return;
        }
        std::printf("%s\n", root.c_str());
        auto mb = [](uint64_t bytes) { return double(bytes) / double(1 << 20); };
        for (const auto& f : out["folders"]) {
            std::printf("  %-10s %9.1f MB in %6llu entries, budget %7.0f MB (%s)  %s", f["name"].get<std::string>().c_str(),
                        mb(f["bytes"]), (unsigned long long)f["entries"].get<uint64_t>(), mb(f["budget_bytes"]),
                        f["budget_variable"].get<std::string>().c_str(), f["holds"].get<std::string>().c_str());
            if (*trim) std::printf(", %.1f MB freed", mb(f["freed_bytes"]));
            std::printf("\n");
        }
        if (!*trim) std::printf("Every cache is safe to delete; `sage cache --trim` drops what is over budget now.\n");
    });
}

} // namespace sage::cli
