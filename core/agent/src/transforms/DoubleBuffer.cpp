// double_buffer: two buffers per queue so copy-in, compute and copy-out of neighbouring tiles
// overlap (or back to one, "direction":"down"). Through the buffer-count knob when the kernel has
// one, else by rewriting literal `InitBuffer(queue, 1, bytes)` calls. Refused when the doubled
// buffers would not fit the UB.
#include "transforms/Transform.h"

#include "transforms/KernelFacts.h"

#include <regex>

namespace sage::agent::transforms {

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
    std::string why = infeasibility(in.source, out, in.device);
    if (!why.empty()) return refuse(why);
    Result r;
    r.source = out;
    r.description = std::string(to == 2 ? "double buffering" : "single buffering") + ": " + std::to_string(changed) +
                    " InitBuffer call(s) " + std::to_string(from) + " -> " + std::to_string(to) + " buffers";
    return r;
}

} // namespace sage::agent::transforms
