// double_buffer: two buffers per queue so copy-in, compute and copy-out of neighbouring tiles
// overlap (or back to one, "direction":"down"). Through the buffer-count knob when the kernel has
// one, else by rewriting literal `InitBuffer(queue, 1, bytes)` calls. When the doubled buffers
// would not fit the UB, the tile constant that sizes them is halved until they do; refused when
// no such halving fits.
#include "transforms/Transform.h"

#include "transforms/KernelFacts.h"

#include <optional>
#include <regex>

namespace sage::agent::transforms {

namespace {

// Two buffers of the tile that a single buffer filled do not fit: the tile constant that sizes
// the InitBuffer calls is halved (up to three times) until the doubled buffers fit the UB.
// Returns the source and "TILE 9728 -> 4864", or nothing when no halving fits.
std::optional<std::pair<std::string, std::string>> halveTileToFit(const Input& in, const std::string& doubled) {
    if (!in.device) return std::nullopt;
    static const std::regex initBuffer(R"(InitBuffer\s*\(([^;]*)\))");
    for (const auto& knob : knobsWithRole(doubled, "tile")) {
        bool sizesBuffers = false;
        for (auto it = std::sregex_iterator(doubled.begin(), doubled.end(), initBuffer); it != std::sregex_iterator(); ++it)
            sizesBuffers |= std::regex_search((*it)[1].str(), std::regex("\\b" + knob.constant + "\\b"));
        if (!sizesBuffers) continue;
        for (long long v = knob.value / 2, step = 0; v >= 1 && step < 3; v /= 2, ++step) {
            std::string out = setTunable(doubled, knob, v);
            if (out != doubled && infeasibility(in.source, out, in.device).empty())
                return std::make_pair(out, knob.constant + " " + std::to_string(knob.value) + " -> " + std::to_string(v));
        }
    }
    return std::nullopt;
}

} // namespace

Result doubleBuffer(const Input& in) {
    const long long from = down(in) ? 2 : 1, to = down(in) ? 1 : 2;
    auto knobs = knobsWithRole(in.source, "buffer");
    if (!knobs.empty()) {
        if (knobs.front().value != from)
            return refuse(knobs.front().constant + " is already " + std::to_string(knobs.front().value));
        return trySet(in, knobs.front(), {to}, to == 2 ? "double buffering" : "single buffering");
    }
    static const std::regex literal(R"((\.\s*InitBuffer\s*\(\s*\w+\s*,\s*)(\d+)(\s*,))");
    auto lines = kernel::splitLines(in.source);
    int changed = 0;
    for (auto& l : lines) {
        std::smatch m;
        if (l.size() < 1000 && std::regex_search(l, m, literal) && m[2].str() == std::to_string(from)) {
            l = m.prefix().str() + m[1].str() + std::to_string(to) + m[3].str() + m.suffix().str();
            ++changed;
        }
    }
    if (!changed) return refuse("no buffer-count knob and no queue InitBuffer with " + std::to_string(from) + " buffer");
    std::string out = kernel::joinLines(lines, in.source);
    std::string description = std::string(to == 2 ? "double buffering" : "single buffering") + ": " + std::to_string(changed) +
                              " InitBuffer call(s) " + std::to_string(from) + " -> " + std::to_string(to) + " buffers";
    std::string why = infeasibility(in.source, out, in.device);
    if (!why.empty() && to == 2) {
        if (auto fitted = halveTileToFit(in, out)) {
            out = fitted->first;
            description += ", " + fitted->second + " to fit the UB";
            why.clear();
        }
    }
    if (!why.empty()) return refuse(why);
    Result r;
    r.source = out;
    r.description = description;
    return r;
}

} // namespace sage::agent::transforms
