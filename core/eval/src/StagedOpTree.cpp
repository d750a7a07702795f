#include "StagedOpTree.h"

#include "sage_toolchain/ProjectPaths.h"

#include <algorithm>
#include <tuple>

namespace fs = std::filesystem;

namespace sage::eval {
namespace {

// How deep below the tree op folders are looked for: experimental/<family>/<op>/op_kernel is the
// deepest layout of CANN's repositories.
constexpr int kMaxOpDepth = 4;

} // namespace

void walkOpTree(const fs::path& tree, const std::function<bool(const fs::path&)>& visit) {
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(tree, fs::directory_options::skip_permission_denied, ec);
         !ec && it != fs::recursive_directory_iterator(); it.increment(ec)) {
        std::error_code dirEc;
        if (!it->is_directory(dirEc)) continue;
        if (it->path().filename().string().rfind('.', 0) == 0 || it.depth() >= kMaxOpDepth || !visit(it->path()))
            it.disable_recursion_pending();
    }
}

StagedOpTree::StagedOpTree(fs::path tree) : tree_(std::move(tree)) {}

std::string StagedOpTree::stagedPathOf(const fs::path& file) {
    for (fs::path d = file.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path())
        if (d.filename() == "op_kernel") {
            const fs::path owner = d.parent_path().filename();
            if (owner.empty()) return "";
            return (owner / file.lexically_relative(d)).lexically_normal().string();
        }
    return "";
}

void StagedOpTree::index() {
    indexed_ = true;
    walkOpTree(tree_, [this](const fs::path& p) {
        if (p.filename() != "op_kernel") return true;
        // A linked op_kernel/ that leaves the tree is not a folder of the stage.
        std::string why;
        const std::string real = toolchain::resolveInside(p.string(), tree_.string(), why);
        if (!real.empty()) folders_.push_back({p.parent_path().filename().string(), fs::path(real)});
        return false;
    });
    // Path order decides between two ops of the same name (the real build copies both into one
    // folder); it is the same on every machine.
    std::sort(folders_.begin(), folders_.end(),
              [](const Folder& a, const Folder& b) { return std::tie(a.name, a.real) < std::tie(b.name, b.real); });
}

fs::path StagedOpTree::resolve(const std::string& fromDir, const std::string& name, std::string& staged) {
    const fs::path target = (fs::path(fromDir) / name).lexically_normal();
    // A path that climbs out of the stage is not one of its files.
    if (target.empty() || target.is_absolute() || *target.begin() == ".." || ++target.begin() == target.end()) return {};
    if (!indexed_) index();
    const std::string head = target.begin()->string();
    const fs::path rest = target.lexically_relative(*target.begin());
    for (const auto& f : folders_) {
        if (f.name != head) continue;
        const fs::path candidate = f.real / rest;
        std::error_code ec;
        std::string why;
        if (!fs::is_regular_file(candidate, ec) || toolchain::resolveInside(candidate.string(), tree_.string(), why).empty())
            continue;
        staged = target.string();
        return candidate;
    }
    return {};
}

} // namespace sage::eval
