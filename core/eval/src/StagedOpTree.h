// Where CANN's build puts an op tree's kernel sources before it compiles them, and the way back.
// The build copies each op's op_kernel/ folder to <stage>/<op name>/ and the tree's shared kernel
// headers (common/inc/op_kernel/) to <stage>/inc/, a family's common/op_kernel/ to
// <stage>/common/ (ops-nn: cmake/gen_ops_info.cmake, kernel_src_copy and common_copy). Kernel
// files include each other by those staged paths ("../inc/platform.h",
// "../foreach_utils/foreach_triangle.h"), which lead nowhere in the source tree itself. The rule
// is one and generic: a folder op_kernel/ is staged under its parent's name, which covers ops
// (norm/rms_norm/op_kernel -> rms_norm/), the shared headers (common/inc/op_kernel -> inc/) and a
// family's common folder (conv/common/op_kernel -> common/) alike.
// Every folder and file this maps to resolves inside the tree, links included: a link out of it
// (`common/inc/op_kernel -> /etc`) is never followed, so the guard of ProjectPaths.h still holds.
#pragma once

#include <filesystem>
#include <functional>
#include <string>
#include <vector>

namespace sage::eval {

// Visits the folders of an op tree where ops live (experimental/<family>/<op>/op_kernel is the
// deepest layout of CANN's repositories): hidden folders (.git) and anything deeper are skipped.
// `visit` returns false to leave a folder's contents out.
void walkOpTree(const std::filesystem::path& tree, const std::function<bool(const std::filesystem::path&)>& visit);

class StagedOpTree {
public:
    // `tree` is the op tree (projectTreeOf); its op_kernel/ folders are indexed on first use.
    explicit StagedOpTree(std::filesystem::path tree);
    // `file`'s path in the staged layout ("rms_norm/arch35/x.h"), or "" when the build does not
    // stage it (it is not under an op_kernel/ folder).
    static std::string stagedPathOf(const std::filesystem::path& file);
    // The tree file that `name`, included from the staged folder `fromDir`, stands for, or an
    // empty path when the staged layout has no such file inside the tree. `staged` receives its
    // staged path.
    std::filesystem::path resolve(const std::string& fromDir, const std::string& name, std::string& staged);

private:
    struct Folder {
        std::string name;              // its staged name (the parent of op_kernel/)
        std::filesystem::path real;    // the op_kernel/ folder, links resolved, inside the tree
    };
    void index();
    std::filesystem::path tree_;
    std::vector<Folder> folders_;
    bool indexed_ = false;
};

} // namespace sage::eval
