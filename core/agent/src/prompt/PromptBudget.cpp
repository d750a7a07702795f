#include "prompt/PromptBudget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>

namespace sage::agent::prompt {

int estimateTokens(const std::string& text) { return int(std::ceil(double(text.size()) / kCharsPerToken)); }

int Budget::promptTokens() const { return std::max(0, contextTokens - maxTokens); }

const char* priorityName(Priority p) {
    static const char* names[] = {"required", "history", "task-card", "experiences", "optional-card", "reference", "examples"};
    return names[int(p)];
}

Assembled assemble(const std::vector<Piece>& pieces, const Budget& budget) {
    Assembled a;
    a.budgetTokens = budget.promptTokens();
    std::vector<size_t> order(pieces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) { return pieces[x].priority < pieces[y].priority; });
    std::vector<bool> keep(pieces.size(), false);
    // Count characters, not per-piece token estimates, so rounding does not add up; the two
    // messages' template tokens and the rounding of the two estimates come off first.
    const int room = a.budgetTokens - 2 * kMessageOverheadTokens - 2;
    const size_t limit = room > 0 ? size_t(double(room) * kCharsPerToken) : 0;
    size_t required = 0;
    for (const auto& p : pieces)
        if (p.priority == Priority::Required) required += p.text.size();
    const bool compact = required > limit;
    auto textOf = [&](const Piece& p) -> const std::string& { return compact && !p.compact.empty() ? p.compact : p.text; };
    size_t used = 0;
    for (size_t i : order) {
        const size_t n = textOf(pieces[i]).size();
        if (pieces[i].priority == Priority::Required || used + n <= limit) {
            keep[i] = true;
            used += n;
        }
    }
    // A heading with none of its pieces is noise.
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (!keep[i] || !pieces[i].groupHead || pieces[i].priority == Priority::Required) continue;
        bool member = false, any = false;
        for (size_t k = 0; k < pieces.size(); ++k)
            if (k != i && pieces[k].group == pieces[i].group) {
                any = true;
                member = member || keep[k];
            }
        if (any && !member) keep[i] = false;
    }
    for (size_t i = 0; i < pieces.size(); ++i) {
        const auto& p = pieces[i];
        const std::string& t = textOf(p);
        a.sizes.push_back({p.name, t.size(), estimateTokens(t), bool(keep[i]), &t != &p.text, priorityName(p.priority)});
        if (keep[i]) (p.system ? a.system : a.user) += t;
    }
    a.promptTokens = estimateTokens(a.system) + estimateTokens(a.user) + 2 * kMessageOverheadTokens;
    a.overflow = a.promptTokens > a.budgetTokens;
    return a;
}

nlohmann::json Assembled::toJson() const {
    nlohmann::json sections = nlohmann::json::array();
    for (const auto& s : sizes)
        sections.push_back({{"name", s.name}, {"chars", s.chars}, {"tokens", s.tokens}, {"included", s.included}, {"compacted", s.compacted},
                            {"priority", s.priority}});
    return {{"prompt_tokens", promptTokens}, {"budget_tokens", budgetTokens}, {"overflow", overflow},
            {"chars_per_token", kCharsPerToken}, {"sections", sections}};
}

std::string Assembled::table() const {
    std::string out;
    char buf[256];
    for (const auto& s : sizes) {
        std::snprintf(buf, sizeof buf, "%-4s %6zu chars %6d tok  %-13s %s%s\n", s.included ? "yes" : "-", s.chars, s.tokens,
                      s.priority.c_str(), s.name.c_str(), s.compacted ? " (condensed)" : "");
        out += buf;
    }
    std::snprintf(buf, sizeof buf, "prompt: %d tokens (estimate, chars/%.1f) of a budget of %d%s\n", promptTokens,
                  kCharsPerToken, budgetTokens, overflow ? " -- OVERFLOW: the required parts alone do not fit" : "");
    return out + buf;
}

} // namespace sage::agent::prompt
