#include "sage_toolchain/SourcePolicy.h"

#include <regex>

namespace sage::toolchain {
namespace {

// Blank out comments and string/char literals (keeping newlines) so that the scan sees code only.
std::string codeOnly(const std::string& src) {
    std::string out = src;
    enum { Code, Line, Block, Str, Chr } st = Code;
    for (size_t i = 0; i < out.size(); ++i) {
        char c = out[i], n = i + 1 < out.size() ? out[i + 1] : '\0';
        switch (st) {
        case Code:
            if (c == '/' && n == '/') { st = Line; out[i] = ' '; }
            else if (c == '/' && n == '*') { st = Block; out[i] = ' '; }
            else if (c == '"') st = Str;
            else if (c == '\'') st = Chr;
            break;
        case Line:
            if (c == '\n') st = Code; else out[i] = ' ';
            break;
        case Block:
            if (c == '*' && n == '/') { out[i] = out[i + 1] = ' '; ++i; st = Code; }
            else if (c != '\n') out[i] = ' ';
            break;
        case Str:
        case Chr:
            if (c == '\\') { out[i] = ' '; if (i + 1 < out.size() && out[i + 1] != '\n') out[++i] = ' '; }
            else if ((st == Str && c == '"') || (st == Chr && c == '\'')) st = Code;
            else if (c != '\n') out[i] = ' ';
            break;
        }
    }
    return out;
}

struct Rule {
    std::regex pattern;
    std::string what;
};

const std::vector<Rule>& rules() {
    static const std::vector<Rule> r = {
        {std::regex(R"(\b(asm|__asm__|__asm)\b)"), "inline assembly is not allowed in a kernel"},
        {std::regex(R"(\b(sage::npu::rt|sage_npu/|__sage_)\w*)"), "simulator internals may not be used by a kernel"},
        {std::regex(R"(\b(fopen|freopen|fdopen|open|openat|creat|unlink|rename|mkdir|rmdir|opendir|chdir)\s*\()"),
         "file-system calls are not allowed in a kernel"},
        {std::regex(R"(\b(std::)?(ifstream|ofstream|fstream|filesystem)\b)"), "file streams are not allowed in a kernel"},
        {std::regex(R"(\b(socket|connect|bind|listen|accept|gethostbyname|getaddrinfo|curl_\w+)\s*\()"),
         "network calls are not allowed in a kernel"},
        {std::regex(R"(\b(fork|vfork|execl|execlp|execle|execv|execvp|execve|system|popen|kill|raise|ptrace|syscall|dlopen|dlsym|mmap|mprotect|setrlimit|prctl|unshare|clone)\s*\()"),
         "process and system calls are not allowed in a kernel"},
        {std::regex(R"(\b(std::thread|std::jthread|std::async|pthread_\w+|std::mutex)\b)"),
         "threads are not allowed in a kernel: use blocks (GetBlockIdx) for parallelism"},
        {std::regex(R"(\b(std::chrono|clock_gettime|gettimeofday|clock|time|rdtsc|__rdtsc|getenv|setenv)\s*(\(|::))"),
         "clock and environment APIs are not allowed in a kernel: timing comes from the simulator"},
    };
    return r;
}

int lineAt(const std::string& s, size_t pos) {
    int line = 1;
    for (size_t i = 0; i < pos && i < s.size(); ++i) line += s[i] == '\n';
    return line;
}

int columnAt(const std::string& s, size_t pos) {
    size_t start = s.rfind('\n', pos == 0 ? 0 : pos - 1);
    return int(pos - (start == std::string::npos ? 0 : start + 1)) + 1;
}

} // namespace

const std::vector<std::string>& SourcePolicy::allowedHeaders() {
    static const std::vector<std::string> h = {
        "kernel_operator.h", "cstdint", "cstddef", "cmath", "cfloat", "climits", "cstring", "type_traits",
        "limits", "algorithm", "array", "utility", "tuple", "initializer_list", "numeric", "stdint.h",
        "stddef.h", "math.h"};
    return h;
}

std::vector<Diagnostic> SourcePolicy::check(const std::string& source, const std::string& file) {
    std::vector<Diagnostic> out;
    const std::string code = codeOnly(source);
    // Includes are read from the original text (the header name is inside quotes or <>).
    static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"])", std::regex::multiline);
    for (auto it = std::sregex_iterator(source.begin(), source.end(), include); it != std::sregex_iterator(); ++it) {
        size_t pos = size_t(it->position(0));
        size_t hash = source.find('#', pos);
        if (hash == std::string::npos || code[hash] != '#') continue;  // inside a comment
        std::string header = (*it)[2].str();
        bool ok = false;
        for (const auto& a : allowedHeaders()) ok |= header == a;
        if (ok) continue;
        std::string allowed;
        for (const auto& a : allowedHeaders()) allowed += (allowed.empty() ? "" : ", ") + a;
        out.push_back({"rejected_include", "error", file, lineAt(source, pos), columnAt(source, pos),
                       "#include " + (*it)[1].str() + header + ((*it)[1].str() == "<" ? ">" : "\"") +
                           " is not allowed in a kernel. Allowed headers: " + allowed + ".",
                       {}});
    }
    for (const auto& r : rules()) {
        for (auto it = std::sregex_iterator(code.begin(), code.end(), r.pattern); it != std::sregex_iterator(); ++it) {
            size_t pos = size_t(it->position(0));
            if (code.compare(pos, 1, "#") == 0) continue;
            out.push_back({"rejected_api", "error", file, lineAt(code, pos), columnAt(code, pos),
                           r.what + " ('" + it->str() + "').", {}});
        }
    }
    return out;
}

} // namespace sage::toolchain
