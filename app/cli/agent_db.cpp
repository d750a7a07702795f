#include "cli/agent_db.h"

#include "sage_memory/DatabaseLocation.h"
#include "sage_memory/MemorySchema.h"
#include "sage_toolchain/ToolPaths.h"

#include <cstdlib>
#include <filesystem>

namespace sage::cli {

std::string defaultDatabasePath() {
    const char* xdg = std::getenv("XDG_DATA_HOME");
    const char* home = std::getenv("HOME");
    std::filesystem::path base = xdg && *xdg ? xdg : std::string(home ? home : "/tmp") + "/.local/share";
    return (base / "sage" / "sage.db").string();
}

std::shared_ptr<memory::Database> openAgentDatabase(const std::string& path) {
    std::filesystem::path p(path);
    // A postgresql:// URL names a server, not a folder to create (issue 16).
    if (!memory::DatabaseLocation::isServerUrl(path) && p.has_parent_path())
        std::filesystem::create_directories(p.parent_path());
    return std::make_shared<memory::Database>(
        p, std::vector<memory::SchemaModule>{memory::MemorySchema::module(), agent::AgentSchema::module()});
}

int seedIfEmpty(memory::ExperienceStore& store) {
    if (!store.list().empty()) return 0;
    auto report = store.importFrom(toolchain::ToolPaths::fromEnvironment().resources + "/memory/seed.jsonl");
    return report.imported;
}

} // namespace sage::cli
