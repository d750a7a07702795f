// multi_core: spread the work over more cores (or fewer, "direction":"down"). A kernel that already
// splits its data by GetBlockIdx() only gets a larger block_dim. A single-core elementwise kernel
// (every GlobalTensor sized by the same length variable) first gets the split written in: each
// core takes a 32-byte-aligned share of the elements, its GM pointers move to its share, and the
// length variable becomes the share's length. A single-core row-wise kernel gets a split of its
// rows (writeRowSplit). Anything else is refused, since more cores would then each repeat the
// whole job.
#include "transforms/Transform.h"

#include "sage_npu/DeviceProfile.h"
#include "transforms/KernelFacts.h"

#include <regex>
#include <set>

namespace sage::agent::transforms {
namespace {

// One `x.SetGlobalBuffer((__gm__ T*)ptr, length);` line, split into its parts.
struct GmBind {
    size_t line;
    std::string type, pointer, length, before, after;  // before/after: the line around the call
    std::string rewritten(const std::string& offset) const {
        return before + ".SetGlobalBuffer((__gm__ " + type + "*)" + pointer + (offset.empty() ? "" : " + " + offset) + ", " +
               length + ");" + after;
    }
};

// Every SetGlobalBuffer of the kernel, or nullopt (and `why`) when one has another form.
std::optional<std::vector<GmBind>> gmBinds(const std::vector<std::string>& lines, std::string& why) {
    static const std::regex setGlobal(R"(\.\s*SetGlobalBuffer\s*\(\s*\(\s*__gm__\s+(\w+)\s*\*\s*\)\s*(\w+)\s*,\s*([^;]*?)\s*\)\s*;)");
    std::vector<GmBind> out;
    for (size_t i = 0; i < lines.size(); ++i) {
        if (lines[i].find("SetGlobalBuffer") == std::string::npos) continue;
        std::smatch m;
        if (!std::regex_search(lines[i], m, setGlobal)) {
            why = "line " + std::to_string(i + 1) + ": a SetGlobalBuffer that is not `(__gm__ T*)ptr, length`";
            return std::nullopt;
        }
        out.push_back({i, m[1].str(), m[2].str(), m[3].str(), m.prefix().str(), m.suffix().str()});
    }
    if (out.empty()) {
        why = "no SetGlobalBuffer";
        return std::nullopt;
    }
    return out;
}

// The source with the per-core split written in, or a reason in `why`.
std::optional<std::string> writeSplit(const std::string& source, std::string& why) {
    auto lines = kernel::splitLines(source);
    const auto binds = gmBinds(lines, why);
    if (!binds) return std::nullopt;
    std::set<std::string> lengths;
    std::set<long long> sizes;
    const int first = int(binds->front().line);
    for (const auto& b : *binds) {
        lengths.insert(b.length);
        auto bytes = kernel::evaluate("sizeof(" + b.type + ")", {});
        if (!bytes) {
            why = "unknown element type " + b.type;
            return std::nullopt;
        }
        sizes.insert(*bytes);
    }
    if (lengths.size() != 1) {
        why = "its GlobalTensors differ in length (not elementwise)";
        return std::nullopt;
    }
    if (!std::regex_match(*lengths.begin(), std::regex(R"(\w+)"))) {
        why = "its GlobalTensors are sized by an expression, not a length variable";
        return std::nullopt;
    }
    const std::string n = *lengths.begin();
    // The length variable's definition above the first SetGlobalBuffer: a by-value parameter of the
    // enclosing function, a local `uint32_t n = ...;`, or a member assignment.
    const std::regex param("\\(.*\\b(?:uint32_t|int32_t|uint64_t|int64_t|int|unsigned)\\s+" + n + "\\b[^)]*\\)\\s*\\{\\s*$");
    const std::regex local("^\\s*(?:uint32_t|int32_t|uint64_t|int64_t|int|unsigned)\\s+" + n + "\\s*=[^;]*;\\s*$");
    // ... or a member set in Init before the buffers are bound (`total_ = t.totalLength;`).
    const std::regex member("^\\s*(?:this->)?" + n + "\\s*=[^;=]*;\\s*$");
    int at = -1;
    for (int i = first; i >= 0 && at < 0; --i)
        if (std::regex_search(lines[size_t(i)], param) || std::regex_search(lines[size_t(i)], local) ||
            std::regex_search(lines[size_t(i)], member))
            at = i;
    if (at < 0) {
        why = "cannot find where the length `" + n + "` is defined (a by-value parameter, a local or a member set before the buffers)";
        return std::nullopt;
    }
    // Shares in elements of the narrowest type's 32-byte block: a multiple of every wider type's
    // block too (a half tensor and an int8 mask split at 32-element boundaries, 64 and 32 bytes).
    const std::string unit = std::to_string(32 / *sizes.begin());
    const std::string ind = lines[size_t(first)].substr(0, lines[size_t(first)].find_first_not_of(" \t"));
    std::vector<std::string> split = {
        ind + "// sage: each core takes a 32-byte-aligned share of the " + n + " elements",
        ind + "uint32_t sagePer = ((" + n + ") + " + unit + " * AscendC::GetBlockNum() - 1) / (" + unit +
            " * AscendC::GetBlockNum()) * " + unit + ";",
        ind + "uint32_t sageStart = sagePer * AscendC::GetBlockIdx();",
        ind + n + " = sageStart < (" + n + ") ? ((" + n + ") - sageStart < sagePer ? (" + n + ") - sageStart : sagePer) : 0;"};
    for (const auto& b : *binds) lines[b.line] = b.rewritten("sageStart");
    lines.insert(lines.begin() + at + 1, split.begin(), split.end());
    return kernel::joinLines(lines, source);
}

// A single-core row-wise kernel (GlobalTensors sized rows * cols, rows, or cols, the rows and cols
// members set before the first SetGlobalBuffer): each core takes a contiguous share of the rows;
// tensors with a row dimension move to the core's first row, broadcast tensors (cols) stay, and
// the rows member becomes the share. Rows are independent in such a kernel, so no core needs
// another's data; a kernel with any other GlobalTensor length (a scalar loss, a workspace) is refused.
std::optional<std::string> writeRowSplit(const std::string& source, std::string& why) {
    static const std::regex matrix(R"(^\(\s*uint64_t\s*\)\s*(\w+)\s*\*\s*(\w+)$)");
    auto lines = kernel::splitLines(source);
    const auto binds = gmBinds(lines, why);
    if (!binds) return std::nullopt;
    const int first = int(binds->front().line);
    std::string rows, cols;
    for (const auto& b : *binds) {
        std::smatch mm;
        if (!std::regex_match(b.length, mm, matrix)) continue;
        if ((!rows.empty() && rows != mm[1].str()) || (!cols.empty() && cols != mm[2].str())) {
            why = "its matrices are sized by different row or column counts";
            return std::nullopt;
        }
        rows = mm[1].str(), cols = mm[2].str();
    }
    if (rows.empty()) {
        why = "no GlobalTensor sized `(uint64_t)rows * cols`";
        return std::nullopt;
    }
    std::vector<std::string> offsets;
    for (const auto& b : *binds) {
        if (std::regex_match(b.length, matrix)) offsets.push_back("(uint64_t)sageRow0 * " + cols);
        else if (b.length == rows) offsets.push_back("sageRow0");
        else if (b.length == cols) offsets.push_back("");
        else {
            why = "line " + std::to_string(b.line + 1) + ": a GlobalTensor of length `" + b.length + "` (neither rows, cols nor rows * cols)";
            return std::nullopt;
        }
    }
    // Both members must be set above the first SetGlobalBuffer, where the split goes.
    for (const auto& member : {rows, cols}) {
        const std::regex set("^\\s*(?:this->)?" + member + "\\s*=[^;=]*;\\s*$");
        bool found = false;
        for (int i = first - 1; i >= 0 && !found; --i) found = std::regex_search(lines[size_t(i)], set);
        if (!found) {
            why = "`" + member + "` is not set before the first SetGlobalBuffer";
            return std::nullopt;
        }
    }
    for (size_t k = 0; k < binds->size(); ++k)
        if (!offsets[k].empty()) lines[(*binds)[k].line] = (*binds)[k].rewritten(offsets[k]);
    const std::string ind = lines[size_t(first)].substr(0, lines[size_t(first)].find_first_not_of(" \t"));
    const std::vector<std::string> split = {
        ind + "// sage: each core takes a contiguous share of the " + rows + " rows (rows are independent)",
        ind + "uint32_t sageRowsPer = (" + rows + " + AscendC::GetBlockNum() - 1) / AscendC::GetBlockNum();",
        ind + "uint32_t sageRow0 = sageRowsPer * AscendC::GetBlockIdx();",
        ind + rows + " = sageRow0 < " + rows + " ? (" + rows + " - sageRow0 < sageRowsPer ? " + rows + " - sageRow0 : sageRowsPer) : 0;"};
    lines.insert(lines.begin() + first, split.begin(), split.end());
    return kernel::joinLines(lines, source);
}

// A single-core tiled kernel whose output tiles are walked by two nested loops
// (`for (m0 = 0; m0 < M; m0 += TILE_M) { for (n0 = 0; n0 < N; n0 += TILE_N) {`, a matmul): the
// output tiles are dealt round-robin over the cores by a guard at the top of the inner loop. Each
// tile is computed whole by one core, so no core needs another's partial result.
std::optional<std::string> writeTileSplit(const std::string& source, std::string& why) {
    static const std::regex loop(R"(^\s*for\s*\(\s*(?:uint32_t|int32_t|uint64_t|int|unsigned)\s+(\w+)\s*=\s*0\s*;\s*(\w+)\s*<\s*(\w+)\s*;\s*(\w+)\s*\+=\s*(\w+)\s*\)\s*\{\s*$)");
    auto lines = kernel::splitLines(source);
    for (size_t i = 0; i + 1 < lines.size(); ++i) {
        std::smatch outer, inner;
        if (!std::regex_match(lines[i], outer, loop) || !std::regex_match(lines[i + 1], inner, loop)) continue;
        if (outer[1] != outer[2] || outer[1] != outer[4] || inner[1] != inner[2] || inner[1] != inner[4]) continue;
        const std::string m0 = outer[1], mLimit = outer[3], mStep = outer[5];
        const std::string n0 = inner[1], nLimit = inner[3], nStep = inner[5];
        const std::string ind = lines[i + 1].substr(0, lines[i + 1].find_first_not_of(" \t")) + "    ";
        lines.insert(lines.begin() + std::ptrdiff_t(i + 2),
                     ind + "// sage: output tiles dealt round-robin over the cores; each computes its tiles whole");
        lines.insert(lines.begin() + std::ptrdiff_t(i + 3),
                     ind + "if (((" + m0 + " / " + mStep + ") * ((" + nLimit + " + " + nStep + " - 1) / " + nStep + ") + " + n0 +
                         " / " + nStep + ") % AscendC::GetBlockNum() != AscendC::GetBlockIdx()) continue;");
        (void)mLimit;
        return kernel::joinLines(lines, source);
    }
    why = "no two nested `for (x = 0; x < LIMIT; x += STEP)` loops over output tiles";
    return std::nullopt;
}

} // namespace

Result multiCore(const Input& in) {
    auto knobs = knobsWithRole(in.source, "block");
    if (knobs.empty()) return refuse("no block_dim knob: the launch's block_dim is neither a literal nor a named constant");
    if (!kernel::usesBlockSplit(in.source)) {
        if (down(in)) return refuse("the kernel runs on one core's worth of data already (no GetBlockIdx())");
        std::string why, whyRows;
        auto split = writeSplit(in.source, why);
        std::string whyTiles;
        if (!split) split = writeRowSplit(in.source, whyRows);
        if (!split) split = writeTileSplit(in.source, whyTiles);
        if (!split)
            return refuse("the kernel never calls GetBlockIdx() and no split can be written in: elementwise: " + why +
                          "; row-wise: " + whyRows + "; tiles: " + whyTiles);
        Input again{*split, in.device, in.parent, in.action};
        Result r = multiCore(again);
        if (r.source) r.description = "split over GetBlockIdx, " + r.description;
        return r;
    }
    const Tunable& k = knobs.front();
    const bool cube = in.source.find("Mmad") != std::string::npos;
    const long long cores = in.device ? (cube && in.device->splitArch ? in.device->cubeCores : in.device->vectorCores) : 48;
    std::vector<long long> values;
    if (in.action.contains("value") && in.action["value"].is_number_integer()) values.push_back(in.action["value"].get<long long>());
    else if (down(in)) {
        for (long long v = k.value / 2; v >= 1; v /= 2) values.push_back(v);
    } else {
        // As many cores as the device has first, then the powers of two below it (a split that
        // must come out even often needs one).
        values.push_back(cores);
        long long p = 1;
        while (p * 2 <= cores) p *= 2;
        for (long long v = p; v > k.value; v /= 2) values.push_back(v);
        if (!k.allowed.empty()) {
            values.clear();
            for (auto it = k.allowed.rbegin(); it != k.allowed.rend(); ++it)
                if (*it > k.value && *it <= cores) values.push_back(*it);
        }
    }
    return trySet(in, k, values, down(in) ? "fewer cores" : "more cores");
}

} // namespace sage::agent::transforms
