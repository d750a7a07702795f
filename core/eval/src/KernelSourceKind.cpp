#include "sage_eval/KernelSourceKind.h"

#include "sage_toolchain/SourcePolicy.h"

#include <algorithm>
#include <cctype>
#include <map>
#include <regex>
#include <set>
#include <vector>

namespace sage::eval {
namespace {

// Headers only host code includes: the ACL runtime, the launch stubs the real build generates,
// the CPU-debug harness and the file helpers the samples read their inputs with.
bool isHostHeader(const std::string& name) {
    static const std::vector<std::string> prefixes = {"acl/", "aclrtlaunch_", "aclnn", "tikicpulib", "cpu_debug_launch",
                                                      "data_utils", "gtest/", "sys/", "tiling/", "register/", "torch/",
                                                      "torch_npu/"};
    static const std::vector<std::string> exact = {"iostream", "fstream", "sstream", "iomanip", "cstdio", "stdio.h",
                                                   "cstdlib", "stdlib.h", "unistd.h", "fcntl.h", "chrono", "random",
                                                   "thread", "mutex", "string.h", "iterator", "ctime", "set"};
    for (const auto& p : prefixes)
        if (name.rfind(p, 0) == 0) return true;
    for (const auto& e : exact)
        if (name == e) return true;
    return false;
}

// Host code in `code` (comments and strings blanked): what it is, or empty.
std::string hostMarkerIn(const std::string& code, const std::string& text) {
    static const std::regex launch(R"(<<<[^;]*>>>\s*\()");
    static const std::regex aclCall(R"(\bacl(?:rt)?[A-Z]\w*\s*\()");
    static const std::regex cpuRun(R"(\bICPU_RUN_KF\s*\()");
    static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*[<"]((?:acl/|tikicpulib|aclrtlaunch_)[^>"]*)[>"])re",
                                    std::regex::multiline);
    std::smatch m;
    if (std::regex_search(text, m, include) && code[size_t(m.position(0)) + m[0].str().find('#')] == '#')
        return "includes " + m[1].str();
    if (std::regex_search(code, launch)) return "has a <<<>>> kernel launch";
    if (std::regex_search(code, m, aclCall)) return "calls the ACL runtime (" + m[0].str().substr(0, m[0].length() - 1) + ")";
    if (std::regex_search(code, cpuRun)) return "runs the kernel through the CPU-debug harness (ICPU_RUN_KF)";
    return {};
}

void blank(std::string& s, size_t from, size_t to) {
    for (size_t i = from; i < to && i < s.size(); ++i)
        if (s[i] != '\n') s[i] = ' ';
}

// The index just past the brace matching the `{` at `open` (or the end of `code`).
size_t pastMatchingBrace(const std::string& code, size_t open) {
    int depth = 0;
    for (size_t i = open; i < code.size(); ++i) {
        if (code[i] == '{') ++depth;
        if (code[i] == '}' && --depth == 0) return i + 1;
    }
    return code.size();
}

// The index just past the preprocessor line starting at `hash` (continuation lines included).
size_t pastDirective(const std::string& code, size_t hash) {
    size_t i = hash;
    while (i < code.size() && !(code[i] == '\n' && code[i - 1] != '\\')) ++i;
    return i;
}

bool atLineStart(const std::string& code, size_t i) {
    while (i > 0 && (code[i - 1] == ' ' || code[i - 1] == '\t')) --i;
    return i == 0 || code[i - 1] == '\n';
}

// Names no device code can use: the host standard library's containers, strings, streams and
// random engines, the ACL runtime's types and calls, and GE's shapes. A top-level declaration
// that mentions one is host code.
bool mentionsHostOnlyName(const std::string& code) {
    static const std::regex hostName(
        R"(\bstd::(?:string|vector|map|unordered_map|unordered_set|set|random_device|mt19937(?:_64)?|\w+_distribution|ifstream|ofstream|stringstream|ostringstream|cout|cerr|thread|chrono)\b|\bacl(?:rt|op|nn)?[A-Z]\w*|\bge::)");
    return std::regex_search(code, hostName);
}

// A function body that only the host part runs: a launch or ACL call (hostMarkerIn), the host
// tiling APIs, console output or the samples' file helpers.
bool hostOnlyBody(const std::string& body) {
    static const std::regex hostApi(
        R"(\b(?:matmul_tiling|platform_ascendc|optiling)::(?:\w+::)*(?:MultiCoreMatmulTiling|MatmulApiTiling|BatchMatmulTiling|PlatformAscendC\w*)\b|\b(?:ReadFile|WriteFile|GetAscendCPlatform)\s*\()");
    return !hostMarkerIn(body, body).empty() || mentionsHostOnlyName(body) || std::regex_search(body, hostApi);
}

// The name a function head declares: the identifier before its parameter list.
std::string functionNameOf(const std::string& head) {
    static const std::regex name(R"(([A-Za-z_]\w*)\s*\()");
    std::smatch m;
    return std::regex_search(head, m, name) ? m[1].str() : std::string();
}

// The name a struct, class or union head declares (`template <...> struct Name : Base`), or empty.
std::string typeNameOf(const std::string& head) {
    static const std::regex name(R"(\b(?:struct|class|union)\s+(?:__\w+__\s+)*([A-Za-z_]\w*)[^()]*$)");
    std::smatch m;
    return std::regex_search(head, m, name) ? m[1].str() : std::string();
}

// True when `code` has one of `names` as a whole word followed by `after` (a regex: a call is
// `\s*\(`, any use `\b`).
bool usesAny(const std::string& code, const std::set<std::string>& names, const char* after) {
    for (const auto& n : names)
        if (std::regex_search(code, std::regex("\\b" + n + after)))
            return true;
    return false;
}
bool callsAny(const std::string& code, const std::set<std::string>& names) { return usesAny(code, names, "\\s*\\("); }
bool namesAny(const std::string& code, const std::set<std::string>& names) { return usesAny(code, names, "\\b"); }

// The host part found so far: functions (known by their calls) and types (by any use).
struct HostNames {
    std::set<std::string> functions, types;
};

// One pass over the top-level declarations (namespaces and extern "C" blocks are looked into):
// blanks, in `out`, the functions that are `main`, hold host code or call a host function, and
// the types and variables that use a host-only name or a host type, and records their names in
// `host`. A function's use of a host type counts from its head (a parameter) too. True when it
// found a new name.
bool blankHostDeclarationsOnce(const std::string& code, std::string& out, HostNames& host) {
    static const std::regex opensScope(R"((?:\bnamespace\b[^;{}()]*|\bextern\s*"\s*"\s*)$)");
    static const std::regex isMain(R"(\bmain\s*\()");
    static const std::regex enumHead(R"(\benum\b)");
    bool found = false;
    int scopes = 0;  // open namespace / extern "C" braces
    size_t segment = 0;
    for (size_t i = 0; i < code.size(); ++i) {
        const char c = code[i];
        if (c == '#' && atLineStart(code, i)) {
            i = pastDirective(code, i);
            segment = i;
        } else if (c == ';') {
            // A variable, alias or prototype: host code when it names host-only things.
            const std::string declaration = code.substr(segment, i + 1 - segment);
            if (mentionsHostOnlyName(declaration) || namesAny(declaration, host.types)) blank(out, segment, i + 1);
            segment = i + 1;
        } else if (c == '}' && scopes > 0) {
            --scopes;
            segment = i + 1;
        } else if (c == '{') {
            const std::string head = code.substr(segment, i - segment);
            if (std::regex_search(head, opensScope)) {
                ++scopes;
                segment = i + 1;
                continue;
            }
            const size_t end = pastMatchingBrace(code, i);
            const std::string body = code.substr(i, end - i);
            const std::string typeName = typeNameOf(head);
            if (!typeName.empty()) {
                if (mentionsHostOnlyName(head + body) || namesAny(head + body, host.types)) {
                    blank(out, segment, end);
                    if (host.types.insert(typeName).second) found = true;
                }
            } else if (head.find(')') != std::string::npos) {
                if (std::regex_search(head, isMain) || hostOnlyBody(body) || mentionsHostOnlyName(head) ||
                    callsAny(body, host.functions) || namesAny(head + body, host.types)) {
                    blank(out, segment, end);
                    const std::string name = functionNameOf(head);
                    if (!name.empty() && host.functions.insert(name).second) found = true;
                }
            } else if (head.find('=') != std::string::npos || std::regex_search(head, enumHead)) {
                i = end - 1;  // an initializer or enum: the declaration ends at its `;`
                continue;
            }
            i = end - 1;
            segment = end;
        }
    }
    return found;
}

// Blanks the host declarations, and then those that use them (a helper the launch calls through
// another helper, a struct of host buffers and the function taking it), until no new one turns up.
void blankHostDeclarations(const std::string& code, std::string& out) {
    HostNames host;
    constexpr int kMaxUseDepth = 8;
    for (int pass = 0; pass < kMaxUseDepth && blankHostDeclarationsOnce(code, out, host); ++pass) {
    }
}

// A replacement of `length` characters at `at` of a program's text.
struct Edit {
    size_t at = 0, length = 0;
    std::string text;
};

std::string newlinesIn(const std::string& s) { return std::string(size_t(std::count(s.begin(), s.end(), '\n')), '\n'); }

bool isIdentifierChar(char c) { return std::isalnum(static_cast<unsigned char>(c)) || c == '_'; }

// Where the kernel expression of a launch starts, given the index just past it (`name`,
// `ns::name`, `name<T, 8>`); `end` itself when there is none.
size_t kernelExpressionStart(const std::string& code, size_t end) {
    size_t i = end;
    auto skipSpace = [&] {
        while (i > 0 && std::isspace(static_cast<unsigned char>(code[i - 1]))) --i;
    };
    skipSpace();
    if (i > 0 && code[i - 1] == '>') {  // template arguments: back to the matching '<'
        int depth = 0;
        while (i > 0) {
            const char c = code[--i];
            if (c == '>') ++depth;
            else if (c == '<' && --depth == 0) break;
        }
        if (depth != 0) return end;
        skipSpace();
    }
    const size_t nameEnd = i;
    for (;;) {
        while (i > 0 && isIdentifierChar(code[i - 1])) --i;
        if (i >= 2 && code[i - 1] == ':' && code[i - 2] == ':') {
            i -= 2;
            continue;
        }
        break;
    }
    return i == nameEnd ? end : i;
}

// True when `code` defines `name` as a SIMT kernel: `__global__` without a core qualifier
// (`__aicore__`, `__vector__`, `__cube__`, `__mix__`) before or after it (`__vector__ __global__
// void add(...)` is a SIMD kernel). Such a launch reads <<<grid, threads, ubuf, stream>>> and runs
// every thread.
bool definesSimtKernel(const std::string& code, const std::string& name) {
    const std::regex head(R"(((?:\b__\w+__\s+)*)\b__global__\b((?:[^;{}()]|\([^()]*\))*)\b)" + name + R"(\s*\()");
    std::smatch m;
    if (!std::regex_search(code, m, head)) return false;
    static const std::regex core(R"(\b(?:__aicore__|__vector__|__cube__|__mix__)\b)");
    return !std::regex_search(m[1].first, m[1].second, core) && !std::regex_search(m[2].first, m[2].second, core);
}

// The `<<<cfg>>>(` launches of `code` as edits that call the simulator's launch instead; false
// (and `error`) when one is not `kernel<<<...>>>(`.
bool launchEdits(const std::string& code, const std::string& text, std::vector<Edit>& edits, std::string& error) {
    for (size_t open = code.find("<<<"); open != std::string::npos; open = code.find("<<<", open + 3)) {
        const size_t close = code.find(">>>", open + 3);
        size_t paren = close == std::string::npos ? close : close + 3;
        while (paren != std::string::npos && paren < code.size() && std::isspace(static_cast<unsigned char>(code[paren])))
            ++paren;
        const size_t start = kernelExpressionStart(code, open);
        const int line = int(std::count(code.begin(), code.begin() + long(open), '\n')) + 1;
        if (paren == std::string::npos || paren >= code.size() || code[paren] != '(' || start == open) {
            error = "line " + std::to_string(line) + ": a <<<>>> launch that is not `kernel<<<blockDim, l2ctrl, stream>>>(args)`";
            return false;
        }
        const std::string kernel = text.substr(start, open - start);
        const std::string name = kernel.substr(0, std::min(kernel.find('<'), kernel.find_last_not_of(" \t\n") + 1));
        const std::string config = text.substr(open + 3, close - open - 3);
        const std::string bare = name.substr(name.rfind(':') == std::string::npos ? 0 : name.rfind(':') + 1);
        // A SIMT kernel may be a template whose arguments the call deduces: it is passed wrapped.
        const bool simt = definesSimtKernel(code, bare);
        std::string oneLine = kernel;  // its line breaks are kept after the call (newlinesIn below)
        std::replace(oneLine.begin(), oneLine.end(), '\n', ' ');
        const std::string callee = simt ? "[](auto... a) { " + oneLine + "(a...); }" : kernel;
        edits.push_back({start, paren + 1 - start,
                         (simt ? "::sage::asc::simtLauncher(" : "::sage::asc::launcher(") + callee + ", \"" + name + "\", ::std::source_location::current(), " +
                             config + ")(" + newlinesIn(kernel) + newlinesIn(text.substr(close + 3, paren - close - 3))});
        open = close;
    }
    return true;
}

// Includes a program's run replaces: the samples' file helpers by sage_asc/files.h, the ACL
// headers by the shim, the CPU-debug harness and generated launch stubs by nothing.
void includeEdits(const std::string& code, const std::string& text, std::vector<Edit>& edits) {
    static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"][^\n]*)re", std::regex::multiline);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include); it != std::sregex_iterator(); ++it) {
        const size_t at = size_t(it->position(0));
        if (code[at + it->str(0).find('#')] != '#') continue;
        const std::string header = (*it)[1].str();
        const auto endsWith = [&](const std::string& tail) {
            return header.size() >= tail.size() && header.compare(header.size() - tail.size(), tail.size(), tail) == 0;
        };
        std::string replacement;
        if (endsWith("data_utils.h")) replacement = "#include \"sage_asc/files.h\"";
        else if (header.rfind("acl/", 0) == 0) replacement = "#include \"acl/acl.h\"";
        else if (header.rfind("aclrtlaunch_", 0) != 0 && header.rfind("tikicpulib", 0) != 0 &&
                 header.rfind("cpu_debug_launch", 0) != 0)
            continue;
        edits.push_back({at, size_t(it->length(0)), replacement});
    }
}

} // namespace

const char* toString(KernelSourceKind kind) {
    switch (kind) {
    case KernelSourceKind::Kernel: return "kernel";
    case KernelSourceKind::HostLauncher: return "host";
    case KernelSourceKind::Program: return "program";
    }
    return "kernel";
}

bool definesKernelEntry(const std::string& text) {
    const std::string code = toolchain::SourcePolicy::codeOnly(text);
    // `__global__` and its qualifiers, then the parameter list, then a body rather than `;`.
    static const std::regex entry(R"(\b__global__\b[^;{}]*\([^;{}]*\)\s*\{)");
    return std::regex_search(code, entry);
}

KernelSourceClass classifyKernelSource(const std::string& fileName, const std::string& text) {
    const bool asc = fileName.size() > 4 && fileName.compare(fileName.size() - 4, 4, ".asc") == 0;
    const std::string code = toolchain::SourcePolicy::codeOnly(text);
    KernelSourceClass out;
    out.hostMarker = hostMarkerIn(code, text);
    if (asc) out.kind = KernelSourceKind::Program;
    else if (!out.hostMarker.empty()) out.kind = definesKernelEntry(text) ? KernelSourceKind::Program : KernelSourceKind::HostLauncher;
    if (asc && out.hostMarker.empty()) out.hostMarker = "an .asc program";
    return out;
}

std::string buildDefinitionsOf(const std::string& cmakeText) {
    // Cache variables with a default: set(NAME "4" CACHE STRING ...) or set(NAME 4).
    static const std::regex setVar(R"re(\bset\s*\(\s*([A-Za-z_]\w*)\s+"?([A-Za-z0-9_.]+)"?(?=[\s)]))re", std::regex::icase);
    // Definitions that pass a variable on: -DNAME=${VAR} or NAME=${VAR}.
    static const std::regex passOn(R"((?:-D|\b)([A-Za-z_]\w*)=\$\{([A-Za-z_]\w*)\})");
    std::map<std::string, std::string> values;
    for (auto it = std::sregex_iterator(cmakeText.begin(), cmakeText.end(), setVar); it != std::sregex_iterator(); ++it)
        values.emplace((*it)[1].str(), (*it)[2].str());
    // A variable the user must pass (no default) but checked against a list of valid values
    // (`if(NOT NAME IN_LIST VALID)` with `set(VALID 1 2 3)`): the first valid value, one of the
    // configurations the real build accepts.
    static const std::regex inList(R"(\bNOT\s+\$?\{?([A-Za-z_]\w*)\}?\s+IN_LIST\s+([A-Za-z_]\w*))");
    for (auto it = std::sregex_iterator(cmakeText.begin(), cmakeText.end(), inList); it != std::sregex_iterator(); ++it) {
        auto list = values.find((*it)[2].str());
        if (list != values.end()) values.emplace((*it)[1].str(), list->second);
    }
    // ... or against numbers one by one (`if(NOT NAME EQUAL 1 AND NOT NAME EQUAL 2)`): the first.
    static const std::regex notEqual(R"(\bNOT\s+\$?\{?([A-Za-z_]\w*)\}?\s+EQUAL\s+([0-9]+)\b)");
    for (auto it = std::sregex_iterator(cmakeText.begin(), cmakeText.end(), notEqual); it != std::sregex_iterator(); ++it)
        values.emplace((*it)[1].str(), (*it)[2].str());
    std::string out;
    std::set<std::string> done;
    for (auto it = std::sregex_iterator(cmakeText.begin(), cmakeText.end(), passOn); it != std::sregex_iterator(); ++it) {
        const std::string name = (*it)[1].str();
        auto v = values.find((*it)[2].str());
        if (v == values.end() || !done.insert(name).second) continue;
        out += "#ifndef " + name + "\n#define " + name + " " + v->second + "\n#endif\n";
    }
    return out;
}

std::string deviceSourceOf(const std::string& text) {
    std::string out = text;
    const std::string code = toolchain::SourcePolicy::codeOnly(text);
    static const std::regex include(R"re(^[ \t]*#[ \t]*include[ \t]*[<"]([^>"]+)[>"][^\n]*)re", std::regex::multiline);
    for (auto it = std::sregex_iterator(text.begin(), text.end(), include); it != std::sregex_iterator(); ++it) {
        const size_t at = size_t(it->position(0));
        if (code[at + it->str(0).find('#')] == '#' && isHostHeader((*it)[1].str())) blank(out, at, at + it->length(0));
    }
    blankHostDeclarations(code, out);
    return out;
}

ProgramSource programSourceOf(const std::string& text) {
    const std::string code = toolchain::SourcePolicy::codeOnly(text);
    ProgramSource out;
    std::vector<Edit> edits;
    if (!launchEdits(code, text, edits, out.error)) return out;
    out.launches = int(edits.size());
    static const std::regex mainHead(R"((^|[^\w:.])((?:int|int32_t|signed|auto)\s+)main(\s*\())");
    std::smatch m;
    if (!std::regex_search(code, m, mainHead)) {
        out.error = "the program defines no main(): a program runs from its main (an .asc file's host part)";
        return out;
    }
    edits.push_back({size_t(m.position(3)) - 4, 4, "sage_asc_main"});
    includeEdits(code, text, edits);
    std::sort(edits.begin(), edits.end(), [](const Edit& a, const Edit& b) { return a.at > b.at; });
    out.source = text;
    for (const auto& e : edits) out.source.replace(e.at, e.length, e.text);
    out.source += "\nSAGE_ASC_PROGRAM_ENTRY(sage_asc_main)\n";
    return out;
}

} // namespace sage::eval
