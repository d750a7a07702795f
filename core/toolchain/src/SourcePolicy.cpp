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

std::string SourcePolicy::codeOnly(const std::string& source) { return sage::toolchain::codeOnly(source); }

const std::vector<std::string>& SourcePolicy::allowedHeaders() {
    static const std::vector<std::string> h = {
        "kernel_operator.h", "cstdint", "cstddef", "cmath", "cfloat", "climits", "cstring", "type_traits",
        "limits", "algorithm", "array", "utility", "tuple", "initializer_list", "numeric", "stdint.h",
        "stddef.h", "math.h",
        // Harmless standard headers real kernels and their tiling headers include (the sandbox,
        // not this list, confines what the code can do at run time).
        "limits.h", "float.h", "stdarg.h", "typeinfo", "functional", "string", "vector", "map", "memory",
        "cassert", "assert.h"};
    return h;
}

const std::vector<std::string>& SourcePolicy::shippedAscendHeaders() {
    // Each is a header under core/npu/include; test_source_policy checks that the files exist.
    static const std::vector<std::string> h = {
        "kernel_tiling/kernel_tiling.h", "kernel_operator_intf.h", "kernel_utils.h", "kernel_type.h", "kernel_log.h",
        "kernel_tpipe.h", "kernel_operator_mm_intf.h", "kernel_operator_fixpipe_intf.h",
        "kernel_operator_data_copy_intf.h", "impl/dav_c220/kernel_operator_reg_others_impl.h",
        "lib/matmul_intf.h", "lib/matrix/matmul/matmul.h", "lib/matrix/matmul/tiling.h",
        "lib/sigmoid/kernel_operator_sigmoid_intf.h", "lib/math/kernel_operator_asin_intf.h",
        "lib/math/kernel_operator_acos_intf.h", "lib/math/kernel_operator_atan_intf.h",
        "lib/math/kernel_operator_sin_intf.h", "lib/math/kernel_operator_cos_intf.h",
        "lib/math/kernel_operator_tan_intf.h", "lib/math/kernel_operator_tanh_intf.h",
        "lib/math/kernel_operator_sinh_intf.h", "lib/math/kernel_operator_cosh_intf.h",
        "lib/math/kernel_operator_erf_intf.h", "lib/math/kernel_operator_erfc_intf.h",
        "lib/math/kernel_operator_power_intf.h", "lib/math/kernel_operator_sign_intf.h",
        "lib/math/kernel_operator_log_intf.h", "lib/math/kernel_operator_floor_intf.h",
        "lib/math/kernel_operator_ceil_intf.h", "lib/math/kernel_operator_round_intf.h",
        "lib/math/kernel_operator_trunc_intf.h",
        // CANN's current op repositories: tensor lists, tiling templates, Ops::Base helpers.
        "kernel_operator_list_tensor_intf.h", "ascendc/host_api/tiling/template_argument.h",
        "op_kernel/platform_util.h", "op_kernel/math_util.h", "utils/debug/asc_printf.h", "basic_api/kernel_basic_intf.h",
        "kernel_basic_intf.h", "basic_api/kernel_operator_block_sync_intf.h",
        // The SIMT API (core/npu/include/simt_api).
        "simt_api/asc_simt.h", "simt_api/common_functions.h", "simt_api/asc_fp16.h", "simt_api/asc_bf16.h",
        "simt_api/device_atomic_functions.h", "simt_api/device_functions.h", "simt_api/device_sync_functions.h",
        "simt_api/device_warp_functions.h", "simt_api/math_functions.h",
        // The atvoss vector operator templates (DAG, elementwise / broadcast / reduce schedules).
        "atvoss/util/dag.h", "atvoss/util/vec.h", "atvoss/util/placeholder.h", "atvoss/util/elems.h",
        "atvoss/util/dfx.h", "atvoss/util/broadcast_utils.h", "atvoss/elewise/elewise_base_struct.h",
        "atvoss/elewise/elewise_sch.h", "atvoss/elewise/elewise_sch_16b.h", "atvoss/elewise/elewise_sch_with_scalar.h",
        "atvoss/broadcast/broadcast_base_struct.h", "atvoss/broadcast/broadcast_sch.h", "atvoss/reduce/reduce_sch.h",
        "atvoss/reduce/reduce_operator.h", "atvoss/reduce/reduce_tiling_data.h", "atvoss/reduce/reduce_util.h",
        "atvoss/reduce/reduce_tiling_key_decl.h", "atvoss/reduce/reduce_tiling_key_sel.h",
        "atvoss/reduce/reduce_tiling_key_decl_batch_invariant.h", "atvoss/reduce/reduce_tiling_key_sel_batch_invariant.h",
        "atvoss/reduce/reduce_tiling_key_decl_non_contiguous.h", "atvoss/reduce/reduce_tiling_key_sel_non_contiguous.h",
        "atvoss/reduce/reduce_sch_aux_util.h",
        // Newer spellings of the same headers (AscendC 9.x): adv_api/math/*, lib/math/*, basic_api/*.
        "adv_api/math/sin.h", "adv_api/math/cos.h", "adv_api/math/asin.h", "adv_api/math/asinh.h",
        "adv_api/math/sign.h", "lib/math/sin.h", "lib/math/cos.h", "lib/math/trunc.h", "basic_api/kernel_vec_intf.h",
        "basic_api/kernel_operator_list_tensor_intf.h"};
    return h;
}

namespace {

bool contains(const std::vector<std::string>& v, const std::string& x) {
    for (const auto& a : v)
        if (a == x) return true;
    return false;
}

std::string joined(const std::vector<std::string>& v) {
    std::string s;
    for (const auto& a : v) s += (s.empty() ? "" : ", ") + a;
    return s;
}

// Why `header` is refused, phrased for the engineer who wrote the include.
std::string refusal(const std::string& header, bool quoted) {
    if (header.rfind("lib/", 0) == 0)
        return "is an AscendC library header the simulator does not implement (implemented: " +
               joined(SourcePolicy::shippedAscendHeaders()) + ")";
    if (header.find("..") != std::string::npos || header.front() == '/')
        return "resolves to no file of the op tree: not in the op directory, not where CANN's build stages the "
               "tree's kernel folders (<op>/ for a sibling op's op_kernel/, inc/ for common/inc/op_kernel/), or it "
               "leaves the tree";
    if (header.rfind("acl/", 0) == 0 || header.rfind("graph/", 0) == 0 || header.rfind("register/", 0) == 0 ||
        header.rfind("tiling/", 0) == 0 || header.rfind("platform/", 0) == 0)
        return "is a CANN host header; a kernel file cannot use it (host code belongs in op_host/)";
    if (quoted)
        return "is not a header of this candidate's op directory (a single kernel file has no local headers: "
               "open the op project with `sage op DIR` to use them)";
    return "is not a header a kernel may use";
}

} // namespace

std::vector<Diagnostic> SourcePolicy::check(const std::string& source, const std::string& file,
                                            const std::vector<std::string>& localHeaders) {
    std::vector<Diagnostic> out;
    const std::string code = codeOnly(source);
    // Includes are read from the original text (the header name is inside quotes or <>).
    static const std::regex include(R"(^[ \t]*#[ \t]*include[ \t]*([<"])([^>"]+)[>"])", std::regex::multiline);
    for (auto it = std::sregex_iterator(source.begin(), source.end(), include); it != std::sregex_iterator(); ++it) {
        size_t pos = size_t(it->position(0));
        size_t hash = source.find('#', pos);
        if (hash == std::string::npos || code[hash] != '#') continue;  // inside a comment
        const std::string header = (*it)[2].str();
        const bool quoted = (*it)[1].str() == "\"";
        if (contains(allowedHeaders(), header) || contains(shippedAscendHeaders(), header)) continue;
        if (quoted && contains(localHeaders, header)) continue;
        out.push_back({DiagnosticKind::RejectedInclude, Severity::Error, file, lineAt(source, pos), columnAt(source, pos),
                       "#include " + (*it)[1].str() + header + (quoted ? "\"" : ">") + " " + refusal(header, quoted) +
                           ". Allowed: " + joined(allowedHeaders()) + ", " + joined(shippedAscendHeaders()) +
                           ", and the op directory's own headers.",
                       {}});
    }
    for (const auto& r : rules()) {
        for (auto it = std::sregex_iterator(code.begin(), code.end(), r.pattern); it != std::sregex_iterator(); ++it) {
            size_t pos = size_t(it->position(0));
            if (code.compare(pos, 1, "#") == 0) continue;
            out.push_back({DiagnosticKind::RejectedApi, Severity::Error, file, lineAt(code, pos), columnAt(code, pos),
                           r.what + " ('" + it->str() + "').", {}});
        }
    }
    return out;
}

} // namespace sage::toolchain
