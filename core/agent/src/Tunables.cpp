#include "sage_agent/Tunables.h"

#include "sage_npu/DeviceProfile.h"
#include "transforms/KernelFacts.h"
#include "Text.h"

#include <algorithm>
#include <cctype>
#include <regex>
#include <set>
#include <sstream>

namespace sage::agent {
namespace {

using text::lower;

// `constexpr <type> NAME = <int>;  // @tunable key {a, b, c}`
const std::regex& declaration() {
    static const std::regex re(
        R"(^(\s*(?:static\s+)?(?:constexpr|const)\s+[\w:]+\s+)(\w+)(\s*=\s*)(-?\d+)([^\n]*?//\s*@tunable\s+(\w+)\s*(?:\{([^}]*)\})?))");
    return re;
}

// What a constant's name says it sizes. Problem sizes (TOTAL_*, *_SIZE of the data) are not knobs.
std::string roleOf(const std::string& name) {
    const std::string n = lower(name);
    auto has = [&](const char* s) { return n.find(s) != std::string::npos; };
    if (has("total") || has("align") || has("repeat") || has("mask")) return "";
    if (has("buffer_num") || has("buf_num") || n == "buffer_num" || n == "buffernum" || n == "bufnum") return "buffer";
    if (has("block_dim") || has("blockdim") || has("core_num") || has("corenum") || has("num_core") || has("num_blocks") ||
        has("block_num"))
        return "block";
    if (has("tile_num") || has("tilenum") || has("tile_count") || has("num_tiles")) return "tile_count";
    if (has("tile") || has("chunk") || has("rows_per") || has("base_m") || has("base_n") || has("base_k") ||
        has("ub_len") || has("tilelen"))
        return "tile";
    return "";
}

} // namespace

std::vector<Tunable> parseTunables(const std::string& source) {
    std::vector<Tunable> out;
    std::istringstream in(source);
    std::string line;
    int n = 0;
    while (std::getline(in, line)) {
        ++n;
        std::smatch m;
        if (line.size() > 1000 || !std::regex_search(line, m, declaration())) continue;
        Tunable t;
        t.constant = m[2].str();
        t.value = std::stoll(m[4].str().substr(0, 18));
        t.key = m[6].str();
        t.line = n;
        t.role = roleOf(t.constant).empty() ? roleOf(t.key) : roleOf(t.constant);
        std::string list = m[7].str();
        std::regex number(R"(-?\d+)");
        for (auto it = std::sregex_iterator(list.begin(), list.end(), number); it != std::sregex_iterator(); ++it)
            t.allowed.push_back(std::stoll(it->str().substr(0, 18)));
        out.push_back(t);
    }
    return out;
}

namespace {
// A knob found by a regex match: its name is group `nameGroup` (none when < 0), its literal value
// group `valueGroup` on line `index` (0-based), whose column and length let setTunable edit it.
Tunable knobAt(const std::smatch& m, int nameGroup, int valueGroup, size_t index, Tunable::Origin origin) {
    Tunable t;
    if (nameGroup >= 0) {
        t.constant = m[nameGroup].str();
        t.key = lower(t.constant);
        t.role = roleOf(t.constant);
    }
    t.value = std::stoll(m[valueGroup].str().substr(0, 18));
    t.line = int(index + 1);
    t.origin = origin;
    t.column = int(m.position(valueGroup));
    t.length = int(m.length(valueGroup));
    return t;
}
} // namespace

std::vector<Tunable> inferKnobs(const std::string& source) {
    std::vector<Tunable> out = parseTunables(source);
    std::set<std::string> seen;
    for (const auto& t : out) seen.insert(t.constant);
    static const std::regex literalConst(
        R"(^\s*(?:static\s+)?(?:constexpr|const)\s+(?:unsigned\s+)?(?:u?int(?:8|16|32|64)_t|int|unsigned|long|size_t)\s+([A-Za-z_]\w*)\s*=\s*(\d+)[uUlL]*\s*;)");
    static const std::regex hostField(R"(\b([A-Za-z_]\w*)\.([A-Za-z_]\w*)\s*=\s*(\d+)[uUlL]*\s*;)");
    static const std::regex launch(R"(ICPU_RUN_KF\s*\(\s*\w+\s*,\s*(\w+)\s*,)");
    const auto lines = kernel::splitLines(source);
    bool inHost = false;
    std::string launchArg;
    for (size_t i = 0; i < lines.size(); ++i) {
        const std::string& l = lines[i];
        if (l.size() > 1000) continue;
        if (l.find("SAGE_HOST") != std::string::npos) inHost = true;
        std::smatch m;
        if (std::regex_search(l, m, literalConst) && !seen.count(m[1].str())) {
            Tunable t = knobAt(m, 1, 2, i, Tunable::Origin::Constant);
            if (t.value > 0) {
                seen.insert(t.constant);
                out.push_back(t);
            }
        }
        if (inHost && std::regex_search(l, m, hostField) && !roleOf(m[2].str()).empty() && !seen.count(m[2].str())) {
            out.push_back(knobAt(m, 2, 3, i, Tunable::Origin::HostField));
            seen.insert(out.back().constant);
        }
        if (std::regex_search(l, m, launch)) {
            launchArg = m[1].str();
            if (std::isdigit((unsigned char)launchArg[0]) && !seen.count("block_dim")) {
                Tunable t = knobAt(m, -1, 1, i, Tunable::Origin::LaunchArg);
                t.constant = t.key = "block_dim";
                t.role = "block";
                seen.insert("block_dim");
                out.push_back(t);
            }
        }
    }
    // The constant passed as the launch's block_dim is the block knob whatever its name.
    for (auto& t : out)
        if (t.constant == launchArg) t.role = "block";
    return out;
}

std::optional<Tunable> findTunable(const std::vector<Tunable>& tunables, const std::string& name) {
    const std::string want = lower(name);
    for (const auto& t : tunables)
        if (lower(t.key) == want || lower(t.constant) == want) return t;
    return std::nullopt;
}

std::string setTunable(const std::string& source, const Tunable& t, long long value) {
    auto lines = kernel::splitLines(source);
    if (t.line < 1 || size_t(t.line) > lines.size()) return source;
    std::string& line = lines[size_t(t.line - 1)];
    if (t.column >= 0) {
        if (size_t(t.column + t.length) > line.size() || line.substr(size_t(t.column), size_t(t.length)) != std::to_string(t.value))
            return source;  // the line is not the one the knob was read from
        line = line.substr(0, size_t(t.column)) + std::to_string(value) + line.substr(size_t(t.column + t.length));
    } else {
        std::smatch m;
        if (!std::regex_search(line, m, declaration()) || m[2].str() != t.constant) return source;
        line = m.prefix().str() + m[1].str() + m[2].str() + m[3].str() + std::to_string(value) + m[5].str() + m.suffix().str();
    }
    return kernel::joinLines(lines, source);
}

// The launch contract. The cores a kernel runs on are fixed where it is launched (ICPU_RUN_KF's
// block argument). A kernel that sizes each core's share by a block constant the launch does not
// pass (USE_CORE_NUM = 8 beside a literal 8) works only while the two agree, so a move that changes
// one of them alone is refused. Empty: no contract is broken (or no launch is in sight).
std::string brokenLaunchContract(const std::string& before, const std::string& source) {
    // Every launch's block_dim argument: a kernel file may launch several kernels (a cube launch
    // and its vector epilogue), each with its own.
    static const std::regex launch(R"(ICPU_RUN_KF\s*\(\s*\w+\s*,\s*(\w+)\s*,)");
    std::set<std::string> launchArgs;
    for (auto it = std::sregex_iterator(source.begin(), source.end(), launch); it != std::sregex_iterator(); ++it)
        launchArgs.insert((*it)[1].str());
    if (launchArgs.empty()) return "";
    const auto was = inferKnobs(before), now = inferKnobs(source);
    auto changed = [&](const Tunable& t) {
        const auto old = findTunable(was, t.constant);
        return old && old->value != t.value;
    };
    for (const auto& t : now) {
        if (t.role != "block" || !changed(t)) continue;
        if (t.origin == Tunable::Origin::LaunchArg) {
            for (const auto& u : now)
                if (u.role == "block" && u.origin != Tunable::Origin::LaunchArg && !launchArgs.count(u.constant))
                    return "the launch's block_dim changed but " + u.constant + " (" + std::to_string(u.value) +
                           "), by which the kernel divides its work, did not: change both or neither";
        } else if (!launchArgs.count(t.constant)) {
            return t.constant + " changed but the launch still runs " + *launchArgs.begin() +
                   " cores: the kernel would divide its work among cores that do not run";
        }
    }
    return "";
}

std::string infeasibility(const std::string& before, const std::string& source, const npu::DeviceProfile* device) {
    if (std::string broken = brokenLaunchContract(before, source); !broken.empty()) return broken;
    if (device) {
        if (auto ub = kernel::ubBytes(source); ub && *ub > (long long)device->ubUsableBytes)
            return "its buffers need " + std::to_string(*ub) + " bytes of UB, more than the " +
                   std::to_string(device->ubUsableBytes) + " usable on " + device->id;
        const int cores = source.find("Mmad") != std::string::npos && device->splitArch ? device->cubeCores : device->vectorCores;
        for (const auto& t : inferKnobs(source))
            if (t.role == "block" && t.value > cores)
                return t.constant + " = " + std::to_string(t.value) + " exceeds the " + std::to_string(cores) + " cores of " +
                       device->id;
    }
    auto was = kernel::constants(before).inexact;
    for (const auto& name : kernel::constants(source).inexact)
        if (std::find(was.begin(), was.end(), name) == was.end())
            return "the division that defines " + name + " no longer comes out even";
    return "";
}

} // namespace sage::agent
