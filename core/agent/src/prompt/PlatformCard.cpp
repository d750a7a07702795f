#include "prompt/PlatformCard.h"

#include "Text.h"

#include "sage_npu/DeviceProfile.h"

#include <algorithm>

namespace sage::agent::prompt {
namespace {

bool has(const std::string& haystack, const char* needle) { return haystack.find(needle) != std::string::npos; }

bool anyOf(const std::string& value, std::initializer_list<const char*> list) {
    for (const char* v : list)
        if (value == v) return true;
    return false;
}

bool rowWise(const std::string& category) { return anyOf(category, {"reduction", "normalization", "loss"}); }

CardNeed needOf(const CardPiece& p, const CardRequest& r) {
    const std::string sec = text::lower(p.section), sub = text::lower(p.subsection);
    const bool lowPrecision = std::any_of(r.dtypes.begin(), r.dtypes.end(),
                                          [](const std::string& d) { return d == "float16" || d == "bfloat16"; });
    const bool matmul = r.category == "matmul";
    // With a parent on screen, the file's overall shape (entry, host side, tiling) is in front of
    // the model already: those pieces yield to what the stage needs when space is tight.
    const CardNeed shape = r.stage == memory::Stage::Draft ? CardNeed::Core : CardNeed::Task;
    if (p.section.empty()) return shape;
    // Features the device lacks are left out, so the model is not invited to use them.
    if (r.device && !r.device->dataCopyPad && (has(sub, "datacopypad") || has(sub, "910b only")))
        return CardNeed::Omit;
    if (has(sec, "programming model")) return shape;
    if (has(sec, "memories") || has(sec, "tpipe")) return CardNeed::Core;
    if (has(sec, "data movement")) {
        if (sub.empty() || has(sub, "contiguous") || has(sub, "global tensors") || has(sub, "unaligned"))
            return CardNeed::Core;
        if (has(sub, "strided")) return rowWise(r.category) || r.category == "broadcast" || matmul ? CardNeed::Task : CardNeed::Optional;
        if (has(sub, "atomic")) return rowWise(r.category) || matmul ? CardNeed::Task : CardNeed::Optional;
        return CardNeed::Optional;
    }
    if (has(sec, "vector instructions")) {
        if (sub.empty() || has(sub, "count form")) return CardNeed::Core;
        return rowWise(r.category) || r.category == "broadcast" ? CardNeed::Task : CardNeed::Optional;
    }
    if (has(sec, "cast")) return lowPrecision || rowWise(r.category) || matmul ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "reduction")) return rowWise(r.category) ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "compare")) return anyOf(r.category, {"activation", "loss", "fused"}) ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "cube")) return matmul ? CardNeed::Task : CardNeed::Omit;
    if (has(sec, "explicit sync")) return matmul ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "numerics"))
        return anyOf(r.category, {"unary_math", "activation", "loss", "normalization"}) || lowPrecision ? CardNeed::Task
                                                                                                           : CardNeed::Optional;
    if (has(sec, "diagnostics")) return r.stage == memory::Stage::Repair ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "cost model") || has(sec, "performance")) return r.stage == memory::Stage::Optimize ? CardNeed::Task : CardNeed::Optional;
    if (has(sec, "complete kernels") || has(sec, "example")) {
        if (sub.empty()) return CardNeed::Example;
        if (r.device && !r.device->dataCopyPad && has(p.text, "DataCopyPad(")) return CardNeed::Omit;
        const bool rowExample = has(sub, "reduction") || has(sub, "row");
        if (matmul) return has(sub, "matmul") || has(sub, "cube") ? CardNeed::Example : CardNeed::Omit;
        return rowExample == rowWise(r.category) ? CardNeed::Example : CardNeed::Omit;
    }
    // Facilities for engineers' Ascend 950 and CANN op code (the register-level vector API, the SIMT
    // API, CANN's operator templates, the 950 data movement, the library's other spellings); the
    // agent writes for the device's queue-and-buffer API, and the long sections would crowd the
    // worked examples out.
    for (const char* engineersOnly :
         {"register-level", "simt api", "vector operator templates", "ascend 950 data movement", "mixed operands"})
        if (has(sub, engineersOnly)) return CardNeed::Omit;
    if (has(sub, "high-level matmul")) return matmul ? CardNeed::Optional : CardNeed::Omit;  // like the cube section
    if (has(sec, "unsupported")) return CardNeed::Optional;
    return CardNeed::Optional;  // sections added later: shown when there is room
}

} // namespace

std::vector<CardPiece> splitCard(const std::string& card) {
    std::vector<CardPiece> pieces(1);
    bool inFence = false;
    for (const auto& line : text::splitLines(card)) {
        const std::string t = text::trim(line);
        if (t.rfind("```", 0) == 0) inFence = !inFence;
        if (!inFence && line.rfind("## ", 0) == 0) {
            pieces.push_back({text::trim(line.substr(3)), "", "", CardNeed::Optional, pieces.size()});
        } else if (!inFence && line.rfind("### ", 0) == 0 && !pieces.back().section.empty()) {
            pieces.push_back({pieces.back().section, text::trim(line.substr(4)), "", CardNeed::Optional, pieces.size()});
        } else if (!inFence && t == "---" && pieces.back().subsection.empty() && text::trim(pieces.back().text).empty()) {
            continue;  // a rule right after a heading carries nothing
        }
        pieces.back().text += line + "\n";
    }
    // The contents list of the preamble names sections that may not be sent; drop it.
    auto& pre = pieces.front().text;
    if (size_t c = pre.find("\nContents:"); c != std::string::npos) {
        size_t end = pre.find("\n\n", c + 1);
        pre.erase(c + 1, end == std::string::npos ? std::string::npos : end - c);
    }
    std::erase_if(pieces, [](const CardPiece& p) { return text::trim(p.text).empty() || text::trim(p.text) == "---"; });
    return pieces;
}

void classify(std::vector<CardPiece>& pieces, const CardRequest& request) {
    for (auto& p : pieces) p.need = needOf(p, request);
    // A section's lead text (its heading) goes wherever its most needed subsection goes.
    for (auto& lead : pieces) {
        if (!lead.subsection.empty() || lead.section.empty()) continue;
        for (const auto& p : pieces)
            if (p.section == lead.section && !p.subsection.empty() && p.need != CardNeed::Omit && p.need < lead.need)
                lead.need = p.need;
    }
}

} // namespace sage::agent::prompt
