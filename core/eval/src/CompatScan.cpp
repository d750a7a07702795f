#include "sage_eval/CompatScan.h"

#include "sage_eval/KernelSourceKind.h"
#include "StagedOpTree.h"

#include "sage_toolchain/Files.h"
#include "sage_toolchain/ProjectPaths.h"
#include "sage_toolchain/SourcePolicy.h"

#include <algorithm>
#include <cctype>
#include <filesystem>
#include <regex>
#include <set>
#include <sstream>

namespace fs = std::filesystem;

namespace sage::eval {
namespace {

fs::path opRootOf(const fs::path& file);

// The tree an op belongs to: the highest folder (up to three above the op) that holds the
// `common/` folder the real build shares, else the op folder. Project files and include
// folders must resolve inside it (a link out of it is refused: toolchain/ProjectPaths.h).
fs::path projectTreeOf(const fs::path& opRoot) {
    fs::path tree = opRoot, up = opRoot.parent_path();
    for (int level = 0; level < 3 && !up.empty() && up != up.root_path(); ++level, up = up.parent_path()) {
        std::error_code ec;
        if (fs::is_directory(up / "common", ec)) tree = up;
    }
    return tree;
}

// A source file of the scanned tree, at most this large.
constexpr uint64_t kMaxProjectSourceBytes = 4 << 20;

std::string slurp(const fs::path& p) {
    try {
        return toolchain::readProjectFile(p.string(), projectTreeOf(opRootOf(p)).string(), kMaxProjectSourceBytes);
    } catch (const std::exception&) {
        return {};
    }
}

// A file the scan looks at: every `.asc` program, every .cpp under op_kernel/, and any other .cpp
// naming a kernel entry (defined, or declared by a launcher).
bool isKernelCandidate(const fs::path& p) {
    if (p.extension() == ".asc") return true;
    if (p.extension() != ".cpp") return false;
    for (const auto& part : p) if (part == "op_kernel") return true;
    static const std::regex entry(R"(__global__\s+(?:__aicore__|__vector__|__cube__)|__aicore__\s+__global__)");
    return std::regex_search(slurp(p), entry);
}

// The op directory a kernel belongs to: the parent of its op_kernel/ folder, else its own folder.
fs::path opRootOf(const fs::path& file) {
    for (fs::path d = file.parent_path(); !d.empty() && d != d.root_path(); d = d.parent_path())
        if (d.filename() == "op_kernel") return d.parent_path();
    return file.parent_path();
}

bool inside(const fs::path& child, const fs::path& dir) {
    std::error_code ec;
    auto c = fs::weakly_canonical(child, ec), d = fs::weakly_canonical(dir, ec);
    auto [a, b] = std::mismatch(d.begin(), d.end(), c.begin(), c.end());
    return a == d.end();
}

// `common/inc`, `common/op_host` and `common/op_host/op_tiling` folders of the trees above an op
// directory (up to three levels): a family's shared kernel headers and host tiling headers,
// which the real build puts on the include path.
std::vector<fs::path> commonIncludeDirs(const fs::path& opRoot) {
    std::vector<fs::path> out;
    fs::path up = opRoot.parent_path();
    for (int level = 0; level < 3 && !up.empty() && up != up.root_path(); ++level, up = up.parent_path()) {
        std::error_code ec;
        for (const fs::path& sub : {fs::path("inc"), fs::path("op_host"), fs::path("op_host") / "op_tiling"}) {
            // A link leaving the tree (`common/inc -> /`) is neither searched nor shown to the compiler.
            std::string outside;
            if (fs::is_directory(up / "common" / sub, ec) &&
                !toolchain::resolveInside((up / "common" / sub).string(), up.string(), outside).empty())
                out.push_back(up / "common" / sub);
        }
    }
    return out;
}

// The op type a directory name stands for: foreach_abs -> ForeachAbs.
std::string opTypeOf(const fs::path& opRoot) {
    std::string out;
    bool up = true;
    for (char ch : opRoot.filename().string()) {
        if (ch == '_') { up = true; continue; }
        out += up ? char(std::toupper(static_cast<unsigned char>(ch))) : ch;
        up = false;
    }
    return out;
}

// A quoted include of a kernel file, resolved: the tree file it names, the folder that makes it
// resolve from the compiler's include path ("" when the compiler finds it in the staging folder)
// and, when the compile sees it there, its staged path (StagedOpTree).
struct LocalInclude {
    std::string name;
    fs::path file;
    fs::path includeDir;
    std::string staged;
};

// Where an including file sits: its tree path and, when the compile reads it from the staging
// folder, its staged path there.
struct IncludingFile {
    fs::path path;
    std::string staged;
};

// Quoted includes of `text` (in `from`) that resolve inside op directory `root` or its tree, in
// the order the compiler searches: next to a staged file in the stage; the op directory; the
// shared folders of the family; the kernel's own staged folder `kernelStaged` (last on the include
// path), where CANN's build puts sibling ops and common/inc/op_kernel; a path relative to the file
// that stays inside the tree (`../../../common/inc/op_kernel/macro.h`).
std::vector<LocalInclude> localIncludes(const std::string& text, const IncludingFile& from, const fs::path& root,
                                        StagedOpTree& stage, const std::string& kernelStaged) {
    static const std::regex inc(R"re(^[ \t]*#[ \t]*include[ \t]*"([^"]+)")re", std::regex::multiline);
    std::vector<LocalInclude> out;
    const fs::path tree = projectTreeOf(root);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), inc); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1].str();
        std::string staged;
        if (!from.staged.empty()) {
            if (fs::path p = stage.resolve(fs::path(from.staged).parent_path().string(), name, staged); !p.empty()) {
                out.push_back({name, p, {}, staged});
                continue;
            }
        }
        bool found = false;
        for (const fs::path& base : {from.path.parent_path(), root, root / "op_kernel"}) {
            fs::path p = base / name;
            std::error_code ec;
            if (fs::is_regular_file(p, ec) && inside(p, root)) {
                out.push_back({name, p, fs::absolute(base).lexically_normal(), {}});
                found = true;
                break;
            }
        }
        // Shared headers of a family of ops sit next to the op directory (a common folder of the
        // family) or in a `common/inc` folder of the tree above it; the real build puts them on
        // the include path.
        // Headers the simulator ships (kernel_operator.h, lib/…) are never looked for there: a
        // copy elsewhere next to the op must not shadow the simulator's own.
        const auto& shipped = toolchain::SourcePolicy::shippedAscendHeaders();
        const bool simulators = name == "kernel_operator.h" || std::find(shipped.begin(), shipped.end(), name) != shipped.end();
        if (!found && !simulators && name.find("..") == std::string::npos) {
            std::vector<fs::path> shared{root.parent_path()};
            for (const auto& d : commonIncludeDirs(root)) shared.push_back(d);
            for (const auto& dir : shared) {
                std::error_code ec;
                for (auto it = fs::recursive_directory_iterator(dir, ec); !found && it != fs::recursive_directory_iterator();
                     it.increment(ec)) {
                    if (ec) break;
                    const fs::path& p = it->path();
                    if (p.filename() == fs::path(name).filename() && p.string().size() >= name.size() &&
                        p.string().compare(p.string().size() - name.size(), name.size(), name) == 0 &&
                        it->is_regular_file()) {
                        // The directory that makes `name` resolve from the include path.
                        fs::path dir = fs::absolute(p);
                        const fs::path rel(name);
                        for (auto part = rel.begin(); part != rel.end(); ++part) dir = dir.parent_path();
                        out.push_back({name, p, dir.lexically_normal(), {}});
                        found = true;
                    }
                }
                if (found) break;
            }
        }
        if (found) continue;
        if (from.staged.empty() && !kernelStaged.empty() && !simulators) {
            if (fs::path p = stage.resolve(kernelStaged, name, staged); !p.empty()) {
                out.push_back({name, p, {}, staged});
                continue;
            }
        }
        if (name.find("..") != std::string::npos) {
            const fs::path p = from.path.parent_path() / name;
            std::error_code ec;
            if (fs::is_regular_file(p, ec) && inside(p, tree)) {
                out.push_back({name, p, fs::absolute(from.path.parent_path()).lexically_normal(), {}});
                continue;
            }
            // A header of an op_kernel/ folder read from the tree (the kernel found it next to
            // itself) may climb by its staged path, as the real build compiles it from the stage
            // (norm/rms_norm/op_kernel/arch35/x.h: "../../norm_common/reduce_common_regbase.h"). The
            // staged file is accepted and shown to the compile, which reads it only where the
            // include is compiled; such includes mostly sit in another architecture's #if branch.
            const std::string own = StagedOpTree::stagedPathOf(from.path);
            if (from.staged.empty() && !own.empty())
                if (fs::path q = stage.resolve(fs::path(own).parent_path().string(), name, staged); !q.empty())
                    out.push_back({name, q, {}, staged});
        }
    }
    return out;
}

// What the op_host tiling headers give the prelude: the registered tiling class, the headers to
// force-include and the optiling names the kernel may see.
struct TilingHeaders {
    std::string cls, includes;
    bool ns = false;  // some header declares its structs in namespace optiling
    // The optiling names the kernel may see, each named by a using-declaration rather than `using
    // namespace optiling`: the tiling structs (what the generated header declares globally) and,
    // for a family's shared tiling header, its constants too (MAX_TENSOR_CONT, which the family's
    // kernels use). An op's own host constants (BLOCK_SIZE, NCHW_CONV_ADDR_LIST_SIZE) stay out:
    // they clash with the kernel's and AscendC's names of the same spelling.
    std::set<std::string> exported;
    std::vector<fs::path> dirs;  // folders of force-included headers the include path lacks (a sibling's op_host)

    void collectNames(const std::string& text, bool withConstants) {
        static const std::regex def(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
        // Namespace-level constants only (unindented, as those headers write them): a function's
        // local `const` is not a member of optiling.
        static const std::regex constant(R"(^(?:static\s+)?(?:constexpr|const)\s+[\w:<>]+(?:\s+[\w:<>]+)*?\s+(\w+)\s*(?:=|\{|\[))",
                                         std::regex::ECMAScript | std::regex::multiline);
        if (text.find("namespace optiling") == std::string::npos) return;  // already global
        ns = true;
        for (auto it = std::sregex_iterator(text.begin(), text.end(), def); it != std::sregex_iterator(); ++it)
            exported.insert((*it)[1].str());
        if (!withConstants) return;
        const std::string inside = text.substr(text.find("namespace optiling"));  // not the globals above it
        for (auto it = std::sregex_iterator(inside.begin(), inside.end(), constant); it != std::sregex_iterator(); ++it)
            exported.insert((*it)[1].str());
    }
};

// The .h files of a folder, sorted (none when it is missing).
std::vector<fs::path> headersIn(const fs::path& dir) {
    std::vector<fs::path> out;
    std::error_code ec;
    if (!fs::is_directory(dir, ec)) return out;
    for (const auto& e : fs::directory_iterator(dir, ec))
        if (e.path().extension() == ".h" && e.is_regular_file(ec)) out.push_back(e.path());
    std::sort(out.begin(), out.end());
    return out;
}

TilingHeaders tilingHeaders(const fs::path& opRoot, const std::vector<fs::path>& headers, const std::string& archDir) {
    static const std::regex reg(R"(REGISTER_TILING_DATA_CLASS\s*\(\s*\w+\s*,\s*(\w+)\s*\))");
    static const std::regex def(R"(BEGIN_TILING_DATA_DEF\s*\(\s*(\w+)\s*\))");
    TilingHeaders th;
    for (const auto& h : headers) {
        const std::string text = slurp(h);
        if (!std::regex_search(text, def)) continue;
        std::smatch m;
        if (th.cls.empty() && std::regex_search(text, m, reg)) th.cls = m[1];
        if (th.cls.empty() && std::regex_search(text, m, def)) th.cls = m[1];
        th.collectNames(text, false);
        th.includes += toolchain::quotedIncludeLine(fs::absolute(h).string());
    }
    if (!th.includes.empty()) return th;
    // Ops of a family register a shared tiling class in a common header
    // (REGISTER_TILING_DATA_CLASS(<OpType>, Class)): use it when op_host declares none.
    const std::regex mine("REGISTER_TILING_DATA_CLASS\\s*\\(\\s*" + opTypeOf(opRoot) + "\\s*,\\s*(\\w+)\\s*\\)");
    for (const auto& dir : commonIncludeDirs(opRoot)) {
        std::error_code ec;
        for (auto it = fs::recursive_directory_iterator(dir, ec); it != fs::recursive_directory_iterator(); it.increment(ec)) {
            if (ec) break;
            if (!it->is_regular_file() || it->path().extension() != ".h") continue;
            const std::string text = slurp(it->path());
            std::smatch m;
            if (!std::regex_search(text, m, mine)) continue;
            th.cls = m[1];
            th.collectNames(text, true);
            th.includes += toolchain::quotedIncludeLine(fs::absolute(it->path()).string());
            return th;
        }
    }
    // Or in a sibling op of the family that holds the family's host code (ops-nn's
    // foreach/foreach_utils/op_host/foreach_tiling_def.h registers ForeachAbs' class), at the top
    // of its op_host/ or in the architecture's folder. Only files inside the op tree are read.
    const fs::path tree = projectTreeOf(opRoot);
    std::error_code ec;
    std::vector<fs::path> siblings;
    for (const auto& e : fs::directory_iterator(opRoot.parent_path(), ec))
        if (e.is_directory(ec) && e.path() != opRoot) siblings.push_back(e.path());
    std::sort(siblings.begin(), siblings.end());
    for (const auto& sib : siblings)
        for (const fs::path& dir : {sib / "op_host", sib / "op_host" / archDir})
            for (const auto& h : headersIn(dir)) {
                if (!inside(h, tree)) continue;
                const std::string text = slurp(h);
                std::smatch m;
                if (!std::regex_search(text, m, mine)) continue;
                th.cls = m[1];
                th.collectNames(text, true);
                th.includes += toolchain::quotedIncludeLine(fs::absolute(h).string());
                th.dirs.push_back(fs::absolute(h.parent_path()));  // the sandboxed compiler sees only named folders
                return th;
            }
    return th;
}

const std::map<std::string, std::string>& cxxTypeOfGeType() {
    static const std::map<std::string, std::string> types = {
        {"FLOAT", "float"},     {"FLOAT16", "half"},     {"BF16", "bfloat16_t"}, {"INT32", "int32_t"},
        {"INT8", "int8_t"},     {"INT16", "int16_t"},    {"INT64", "int64_t"},   {"UINT8", "uint8_t"},
        {"UINT16", "uint16_t"}, {"UINT32", "uint32_t"},  {"UINT64", "uint64_t"}, {"BOOL", "bool"},
        {"DOUBLE", "double"}};
    return types;
}

std::string upper(std::string s) {
    for (auto& c : s) c = char(std::toupper(static_cast<unsigned char>(c)));
    return s;
}

// DTYPE_<NAME> (and ORIG_DTYPE_<NAME>) for each input and output, from the first data type of
// the op definition; then DTYPE_<NAME> the kernel uses that the definition's Input/Output calls
// do not give (ops declared through a family macro such as FOREACH_OPDEF): the first data type
// the op_host sources name, which is one of the op's real configurations.
std::string dtypeMacros(const std::vector<fs::path>& sources, const std::vector<std::string>& kernelTexts) {
    static const std::regex io(R"re((?:Input|Output)\s*\(\s*"(\w+)"\s*\)[^;]*?\.DataType\s*\(\s*\{\s*ge::DT_(\w+))re");
    static const std::regex anyType(R"(ge::DT_(\w+))");
    static const std::regex used(R"(\bDTYPE_(\w+))");
    const auto& types = cxxTypeOfGeType();
    std::string out;
    std::set<std::string> defined;
    for (const auto& src : sources) {
        const std::string text = slurp(src);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), io); it != std::sregex_iterator(); ++it) {
            const std::string name = upper((*it)[1].str());
            auto t = types.find((*it)[2].str());
            if (t == types.end() || !defined.insert(name).second) continue;
            out += "#define DTYPE_" + name + " " + t->second + "\n#define ORIG_DTYPE_" + name + " " + t->second + "\n";
        }
    }
    std::string firstType = "float";
    for (const auto& src : sources) {
        const std::string text = slurp(src);
        std::smatch m;
        if (!std::regex_search(text, m, anyType)) continue;
        auto t = types.find(m[1].str());
        if (t != types.end()) {
            firstType = t->second;
            break;
        }
    }
    for (const auto& text : kernelTexts)
        for (auto it = std::sregex_iterator(text.begin(), text.end(), used); it != std::sregex_iterator(); ++it) {
            const std::string name = (*it)[1].str();
            if (!defined.insert(name).second) continue;
            out += "#ifndef DTYPE_" + name + "\n#define DTYPE_" + name + " " + firstType + "\n#endif\n";
        }
    return out;
}

// FORMAT_<NAME> for each input and output (the first format of the definition is ND for nearly
// every op; the real build defines the macro per compiled configuration), and the format numbers
// kernels compare them with in #if.
std::string formatMacros(const std::vector<fs::path>& sources) {
    static const std::regex ioName(R"re((?:Input|Output)\s*\(\s*"(\w+)"\s*\))re");
    std::string out = "#ifndef FORMAT_ND\n#define FORMAT_ND 2\n#endif\n#ifndef FORMAT_NCHW\n#define FORMAT_NCHW 0\n#endif\n"
        "#ifndef FORMAT_NHWC\n#define FORMAT_NHWC 1\n#endif\n#ifndef FORMAT_FRACTAL_NZ\n#define FORMAT_FRACTAL_NZ 29\n#endif\n"
        "#ifndef FORMAT_NCDHW\n#define FORMAT_NCDHW 30\n#endif\n#ifndef FORMAT_NDC1HWC0\n#define FORMAT_NDC1HWC0 32\n#endif\n"
        "#ifndef FORMAT_FRACTAL_Z_3D\n#define FORMAT_FRACTAL_Z_3D 33\n#endif\n";
    std::set<std::string> formats;
    for (const auto& src : sources) {
        const std::string text = slurp(src);
        for (auto it = std::sregex_iterator(text.begin(), text.end(), ioName); it != std::sregex_iterator(); ++it) {
            const std::string name = upper((*it)[1].str());
            if (formats.insert(name).second) out += "#define FORMAT_" + name + " FORMAT_ND\n";
        }
    }
    return out;
}

// The collected optiling names as using-declarations, except those the kernel's own files define.
std::string optilingUsings(const std::set<std::string>& exported, const std::vector<std::string>& kernelTexts) {
    std::string out = "namespace optiling {}\n";
    for (const auto& c : exported) {
        const std::regex own("(?:(?:constexpr|const)\\s+[\\w:<>]+(?:\\s+[\\w:<>]+)*?\\s+" + c +
                             "\\s*(?:=|\\{|\\[)|#define\\s+" + c + "\\b|(?:struct|class|using)\\s+" + c + "\\b)");
        bool kernelHasIt = false;
        for (const auto& text : kernelTexts) kernelHasIt = kernelHasIt || std::regex_search(text, own);
        if (!kernelHasIt) out += "using optiling::" + c + ";\n";
    }
    return out;
}

// The prelude that gives the kernel what the real build generates for it: the op_host tiling
// headers, force-included, with SAGE_TILING_TYPE naming the registered class (and optiling's
// names visible, as the generated header declares them globally), and DTYPE_<NAME> for each
// input and output, from the first data type of the op definition in op_host/<op>.cpp.
// The tiling headers of the architecture's folder (op_host/arch22/, arch35/) come after the top
// ones: CANN's build of an op for one architecture compiles that folder's tiling with the rest.
std::string opPrelude(const fs::path& opRoot, const std::vector<std::string>& kernelTexts, const std::string& archDir,
                      std::set<std::string>& includeDirs) {
    std::error_code ec;
    fs::path host = opRoot / "op_host";
    if (!fs::is_directory(host, ec)) return {};
    std::vector<fs::path> headers = headersIn(host), sources;
    for (const auto& h : headersIn(host / archDir)) headers.push_back(h);
    for (const auto& e : fs::directory_iterator(host, ec))
        if (e.path().extension() == ".cpp") sources.push_back(e.path());
    std::sort(sources.begin(), sources.end());
    const TilingHeaders th = tilingHeaders(opRoot, headers, archDir);
    for (const auto& d : th.dirs) includeDirs.insert(d.string());
    std::string out;
    if (!th.cls.empty()) out += "#define SAGE_TILING_TYPE " + th.cls + "\n";
    out += dtypeMacros(sources, kernelTexts);
    if (out.empty() && th.includes.empty()) return {};
    out += "#include \"kernel_operator.h\"\n" + th.includes;
    if (th.ns) out += optilingUsings(th.exported, kernelTexts);
    // After the host headers: their ge::Format enumerators have the same names.
    out += formatMacros(sources);
    return out;
}

} // namespace

std::vector<std::string> CompatScanner::missingIdentifiers(const std::string& message) {
    static const std::vector<std::regex> patterns = {
        std::regex(R"((?:‘|')([^’']+)(?:’|') was not declared in this scope)"),
        std::regex(R"((?:‘|')([^’']+)(?:’|') is not a member of)"),
        std::regex(R"((?:‘|')([^’']+)(?:’|') does not name a type)"),
        std::regex(R"((?:‘|')([^’']+)(?:’|') has not been declared)"),
        std::regex(R"(has no member named (?:‘|')([^’']+)(?:’|'))"),
        std::regex(R"(no matching function for call to (?:‘|')([A-Za-z_][\w:]*))"),
    };
    std::vector<std::string> out;
    for (const auto& re : patterns) {
        std::smatch m;
        if (std::regex_search(message, m, re)) {
            std::string id = m[1];
            if (auto lt = id.find('<'); lt != std::string::npos) id.resize(lt);
            if (auto sc = id.rfind("::"); sc != std::string::npos) id = id.substr(sc + 2);
            if (!id.empty()) out.push_back(id);
        }
    }
    return out;
}

CompatScanner::CompatScanner(const toolchain::Compiler& compiler, int npuArch, std::string deviceId)
    : compiler_(compiler), npuArch_(npuArch), deviceId_(std::move(deviceId)) {}

std::string opRootOf(const std::string& kernelFile) { return opRootOf(fs::path(kernelFile)).string(); }

std::string projectTreeOf(const std::string& opRoot) { return fs::absolute(projectTreeOf(fs::path(opRoot))).string(); }

std::vector<std::string> commonIncludeDirsOf(const std::string& opRoot) {
    std::vector<std::string> out;
    for (const auto& d : commonIncludeDirs(fs::path(opRoot))) out.push_back(fs::absolute(d).string());
    return out;
}

namespace {

// Headers the host part of a program may include when it runs as a whole: the console and
// container headers its main uses, and the shims its ACL and file-helper includes became. The
// sandbox, not this list, confines what the program does at run time.
bool programHostInclude(const toolchain::Diagnostic& d, const std::string& npuInclude) {
    static const std::set<std::string> allowed = {"iostream", "iomanip", "sstream", "iterator", "cstdio", "stdio.h",
                                                  "cstdlib", "stdlib.h", "set", "unordered_map", "unordered_set",
                                                  "random", "string.h", "list", "deque", "optional", "cinttypes",
                                                  "acl/acl.h", "sage_asc/files.h"};
    static const std::regex include(R"re(^#include [<"]([^>"]+)[>"])re");
    std::smatch m;
    if (d.kind != toolchain::DiagnosticKind::RejectedInclude || !std::regex_search(d.message, m, include)) return false;
    const std::string header = m[1].str();
    // The host headers the simulator ships a stand-in for (tiling, platform) may be used too.
    return allowed.count(header) || (header.find("..") == std::string::npos && header.front() != '/' &&
                                     fs::is_regular_file(fs::path(npuInclude) / "host" / header));
}

} // namespace

std::string hostArchDirOf(int npuArch) { return "arch" + std::to_string(npuArch / 100); }

bool isArchFolder(const std::string& name) {
    return name.size() > 4 && name.rfind("arch", 0) == 0 &&
           std::all_of(name.begin() + 4, name.end(), [](char c) { return std::isdigit(static_cast<unsigned char>(c)); });
}

OpKernelBuild prepareOpKernel(const std::string& rootDir, const std::string& file, const std::string& npuInclude,
                              bool wholeProgram, int npuArch) {
    OpKernelBuild b;
    const fs::path path(file), root(rootDir);
    const fs::path opRoot = opRootOf(path);
    std::string source;
    try {
        source = toolchain::readProjectFile(path.string(), projectTreeOf(opRoot).string(), kMaxProjectSourceBytes);
    } catch (const std::exception& e) {
        b.refused.push_back({toolchain::DiagnosticKind::RejectedPath, toolchain::Severity::Error, fs::relative(path, root).string(), 0, 0, e.what(), {}});
        return b;
    }
    // A single-file program (.asc, or a kernel file holding its own launch) is compiled for its
    // device part: the host part is blanked, lines kept.
    const bool program = classifyKernelSource(path.filename().string(), source).kind == KernelSourceKind::Program;
    if (program && wholeProgram) {
        ProgramSource whole = programSourceOf(source);
        if (!whole.error.empty()) {
            b.refused.push_back({toolchain::DiagnosticKind::RejectedProgram, toolchain::Severity::Error, fs::relative(path, root).string(), 0, 0, whole.error, {}});
            return b;
        }
        source = std::move(whole.source);
    } else if (program) {
        source = deviceSourceOf(source);
    }
    // 1. Policy, for the kernel and (transitively) the local headers it includes.
    StagedOpTree stage(projectTreeOf(opRoot));
    const std::string kernelStaged = fs::path(StagedOpTree::stagedPathOf(path)).parent_path().string();
    std::set<std::string> seen, includeDirs, names;
    std::vector<std::string> texts;
    // The kernel itself is compiled from the work folder, not the stage: its staged folder is searched last.
    std::vector<std::pair<IncludingFile, std::string>> work{{{path, ""}, source}};
    while (!work.empty() && b.refused.empty()) {
        auto [from, text] = work.back();
        work.pop_back();
        std::vector<std::string> here;
        for (auto& inc : localIncludes(text, from, opRoot, stage, kernelStaged)) {
            here.push_back(inc.name);
            names.insert(inc.name);
            if (!inc.includeDir.empty()) includeDirs.insert(inc.includeDir.string());
            // A file read from the stage and the same file read from the tree are two files to the compiler.
            if (!seen.insert(fs::weakly_canonical(inc.file).string() + "|" + inc.staged).second) continue;
            std::string included = slurp(inc.file);
            if (!inc.staged.empty()) b.request.staged.push_back({inc.staged, included});
            texts.push_back(included);
            work.push_back({{inc.file, inc.staged}, std::move(included)});
        }
        for (auto& d : toolchain::SourcePolicy::check(text, fs::relative(from.path, root).string(), here))
            if (d.severity == toolchain::Severity::Error && !(wholeProgram && programHostInclude(d, npuInclude))) b.refused.push_back(d);
    }
    b.localHeaders.assign(names.begin(), names.end());
    b.kernelTexts = {source};
    b.kernelTexts.insert(b.kernelTexts.end(), texts.begin(), texts.end());
    // 2. The compile request, with the op directory and the kernel-side host shims on the include path.
    toolchain::CompileRequest& cr = b.request;
    cr.source = source;
    cr.displayName = fs::relative(path, root).string();
    cr.projectRoot = fs::absolute(projectTreeOf(opRoot)).string();
    // A kernel kept in an architecture's folder (op_kernel/arch35/) is built for that architecture only.
    const std::string folder = path.parent_path().filename().string();
    cr.prelude = opPrelude(opRoot, b.kernelTexts, isArchFolder(folder) ? folder : hostArchDirOf(npuArch), includeDirs);
    // A program's own build passes definitions from its CMakeLists.txt (scenario numbers).
    if (program) cr.prelude = buildDefinitionsOf(slurp(path.parent_path() / "CMakeLists.txt")) + cr.prelude;
    // The `.asc` compiler provides the SIMT built-ins (threadIdx, dim3, __launch_bounds__) unasked.
    if (program) cr.prelude += "#include \"simt_api/simt_builtins.h\"\n";
    if (program && wholeProgram) cr.prelude += "#include \"sage_asc/program.h\"\n";
    cr.extraFlags = {"-I" + fs::absolute(path.parent_path()).string(), "-I" + fs::absolute(opRoot).string()};
    // The project's own common headers come before the simulator's host stand-ins, as the
    // project's include directories come before the CANN ones in the real build.
    for (const auto& d : commonIncludeDirs(opRoot)) cr.extraFlags.push_back("-I" + fs::absolute(d).string());
    cr.extraFlags.insert(cr.extraFlags.end(), {"-I" + npuInclude + "/host", "-w"});
    for (const auto& d : includeDirs) cr.extraFlags.push_back("-I" + d);
    if (!cr.staged.empty()) cr.stagedDir = kernelStaged;
    return b;
}

CompatFile CompatScanner::scanFile(const std::string& rootDir, const std::string& file) const {
    CompatFile r;
    r.path = fs::relative(fs::path(file), fs::path(rootDir)).string();
    // A program file without main (a kernel compiled on its own and linked with the host part
    // elsewhere) is compiled for its device part even when whole programs are asked for.
    const bool whole = wholePrograms && !programSourceOf(slurp(file)).source.empty();
    OpKernelBuild b = prepareOpKernel(rootDir, file, compiler_.paths().npuInclude, whole, npuArch_);
    if (classifyKernelSource(fs::path(file).filename().string(), slurp(file)).kind == KernelSourceKind::Program)
        r.kind = "program";
    r.whole = whole && r.kind == "program";
    if (!b.refused.empty()) {
        r.firstError = b.refused.front().file + ":" + std::to_string(b.refused.front().line) + ": " + b.refused.front().message;
        return r;
    }
    r.parsed = true;
    toolchain::CompileRequest cr = b.request;
    cr.npuArch = npuArch_;
    cr.deviceId = deviceId_;
    auto res = compiler_.compile(cr);
    r.compiled = res.ok;
    std::set<std::string> missing;
    for (const auto& d : res.diagnostics) {
        if (d.severity != toolchain::Severity::Error) continue;
        if (r.firstError.empty()) r.firstError = d.file + ":" + std::to_string(d.line) + ": " + d.message;
        for (auto& id : missingIdentifiers(d.message)) missing.insert(id);
    }
    r.missing.assign(missing.begin(), missing.end());
    if (r.compiled && onCompiled) onCompiled(opRootOf(fs::path(file)).string(), r);
    return r;
}

CompatReport CompatScanner::scan(const std::string& dir, int limit) const {
    CompatReport rep;
    rep.root = dir;
    std::vector<fs::path> files;
    std::error_code ec;
    for (auto it = fs::recursive_directory_iterator(dir, fs::directory_options::skip_permission_denied, ec);
         it != fs::recursive_directory_iterator(); it.increment(ec)) {
        if (ec) break;
        if (it->is_directory() && it->path().filename().string().rfind('.', 0) == 0) {
            it.disable_recursion_pending();  // .git and other hidden folders
            continue;
        }
        if (it->is_regular_file() && isKernelCandidate(it->path())) files.push_back(it->path());
    }
    std::sort(files.begin(), files.end());
    if (limit > 0 && files.size() > size_t(limit)) files.resize(size_t(limit));
    for (const auto& f : files) {
        const KernelSourceClass cls = classifyKernelSource(f.filename().string(), slurp(f));
        if (cls.kind == KernelSourceKind::HostLauncher) {
            rep.hostFiles.push_back({fs::relative(f, fs::path(dir)).string(), cls.hostMarker});
            continue;
        }
        rep.files.push_back(scanFile(dir, f.string()));
        for (const auto& id : rep.files.back().missing) ++rep.missingCounts[id];
    }
    return rep;
}

namespace {
std::vector<std::pair<std::string, int>> topOf(const std::map<std::string, int>& counts, int n) {
    std::vector<std::pair<std::string, int>> v(counts.begin(), counts.end());
    std::stable_sort(v.begin(), v.end(), [](const auto& a, const auto& b) { return a.second > b.second; });
    if (v.size() > size_t(n)) v.resize(size_t(n));
    return v;
}
} // namespace

nlohmann::json CompatReport::toJson(int topMissing) const {
    nlohmann::json j = {{"root", root}, {"files", nlohmann::json::array()}};
    int parsed = 0, compiled = 0;
    for (const auto& f : files) {
        parsed += f.parsed;
        compiled += f.compiled;
        j["files"].push_back({{"path", f.path}, {"kind", f.kind}, {"whole", f.whole}, {"parsed", f.parsed}, {"compiled", f.compiled},
                              {"host_tiling", f.hostTiling}, {"verified", f.verified}, {"first_error", f.firstError},
                              {"missing", f.missing}});
    }
    int hostRan = 0, verified = 0;
    for (const auto& f : files) hostRan += f.hostTiling == "ran", verified += f.verified == "pass";
    int programs = 0;
    for (const auto& f : files) programs += f.kind == "program";
    j["totals"] = {{"files", files.size()}, {"parsed", parsed}, {"compiled", compiled}, {"host_tiling_ran", hostRan},
                   {"verified", verified}, {"programs", programs}, {"host_files", hostFiles.size()}};
    j["host_files"] = nlohmann::json::array();
    for (const auto& h : hostFiles) j["host_files"].push_back({{"path", h.path}, {"reason", h.reason}});
    j["top_missing"] = nlohmann::json::array();
    for (const auto& [id, n] : topOf(missingCounts, topMissing)) j["top_missing"].push_back({{"identifier", id}, {"files", n}});
    return j;
}

std::string CompatReport::toText(int topMissing) const {
    std::ostringstream o;
    int parsed = 0, compiled = 0;
    for (const auto& f : files) {
        parsed += f.parsed;
        compiled += f.compiled;
        o << toolchain::printable(f.path) << (f.kind != "program" ? "" : f.whole ? "  (program: whole)" : "  (program: device part)") << "  parsed " << (f.parsed ? "yes" : "no") << ", compiled " << (f.compiled ? "yes" : "no")
          << ", host tiling " << f.hostTiling << ", verified " << f.verified;
        if (!f.firstError.empty()) o << "\n    first error: " << toolchain::printable(f.firstError.substr(0, 300));
        o << "\n";
    }
    auto pct = [&](int n) { return files.empty() ? 0.0 : 100.0 * n / double(files.size()); };
    o << "\n" << files.size() << " kernel files: " << parsed << " parsed (" << int(pct(parsed) + 0.5) << " %), "
      << compiled << " compiled (" << int(pct(compiled) + 0.5) << " %)\n";
    int hostRan = 0, verified = 0;
    for (const auto& f : files) hostRan += f.hostTiling == "ran", verified += f.verified == "pass";
    if (!hostFiles.empty()) {
        o << hostFiles.size() << " host launchers (host code, not counted as kernel files):\n";
        for (const auto& h : hostFiles) o << "  " << toolchain::printable(h.path) << "  " << h.reason << "\n";
    }
    if (hostRan || verified) o << "host tiling ran for " << hostRan << ", verified " << verified << " (ops with a spec)\n";
    if (!missingCounts.empty()) {
        o << "most frequent missing identifiers (files):\n";
        for (const auto& [id, n] : topOf(missingCounts, topMissing)) o << "  " << id << "  " << n << "\n";
    }
    return o.str();
}

} // namespace sage::eval
