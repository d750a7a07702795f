#include "OpDependencies.h"

#include "StagedOpTree.h"

#include "sage_eval/CompatScan.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/ProjectPaths.h"

#include <algorithm>
#include <regex>
#include <set>
#include <string>

namespace fs = std::filesystem;

namespace sage::eval {
namespace {

// The names after DEPENDENCIES in op_host/CMakeLists.txt, up to the next keyword or the ')'.
std::vector<std::string> dependencyNames(const fs::path& opDir) {
    std::error_code ec;
    const fs::path file = opDir / "op_host" / "CMakeLists.txt";
    if (!fs::is_regular_file(file, ec)) return {};
    const std::string text = toolchain::readTextFile(file.string());
    static const std::regex list(R"(\bDEPENDENCIES\b([^)]*))");
    static const std::regex word(R"([A-Za-z0-9_]+)");
    static const std::regex keyword(R"([A-Z][A-Z0-9_]*)");
    std::vector<std::string> out;
    for (auto it = std::sregex_iterator(text.begin(), text.end(), list); it != std::sregex_iterator(); ++it) {
        const std::string args = (*it)[1].str();
        for (auto w = std::sregex_iterator(args.begin(), args.end(), word); w != std::sregex_iterator(); ++w) {
            const std::string name = w->str();
            if (std::regex_match(name, keyword)) break;  // COMPUTE_UNIT, TILING_DIR, ...: the list ended
            out.push_back(name);
        }
    }
    return out;
}

// The op directory named `name` in `tree`: a sibling of `near` first, then a search of the tree.
fs::path findOpDir(const fs::path& tree, const fs::path& near, const std::string& name) {
    std::error_code ec;
    std::string why;
    auto usable = [&](const fs::path& d) {
        return fs::is_directory(d / "op_host", ec) && !toolchain::resolveInside(d.string(), tree.string(), why).empty();
    };
    if (usable(near.parent_path() / name)) return near.parent_path() / name;
    std::vector<fs::path> found;
    walkOpTree(tree, [&](const fs::path& d) {
        if (d.filename() == "tests") return false;
        if (d.filename() == name && usable(d)) found.push_back(d);
        return true;
    });
    std::sort(found.begin(), found.end());  // the same choice on every machine
    return found.empty() ? fs::path() : found.front();
}

} // namespace

std::vector<fs::path> hostDependenciesOf(const fs::path& opDir) {
    const fs::path tree = projectTreeOf(opDir.string());
    std::vector<fs::path> out;
    std::set<std::string> seen{fs::weakly_canonical(opDir).string()};
    std::vector<fs::path> work{opDir};
    while (!work.empty()) {
        const fs::path from = work.front();
        work.erase(work.begin());
        for (const auto& name : dependencyNames(from)) {
            const fs::path dep = findOpDir(tree, from, name);
            if (dep.empty() || !seen.insert(fs::weakly_canonical(dep).string()).second) continue;
            out.push_back(dep);
            work.push_back(dep);
        }
    }
    return out;
}

} // namespace sage::eval
