#include "prompt/PromptBudget.h"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <numeric>
#include <tuple>

namespace sage::agent::prompt {
namespace {

// Which pieces are kept, and why the others are not.
struct Selection {
    std::vector<bool> keep;
    std::vector<std::string> dropped;
};

size_t charLimit(int tokens, double charsPerToken) {
    return tokens > 0 ? size_t(double(tokens) * charsPerToken) : 0;
}

// Pieces in priority order (prompt order within a priority) while they fit; required always.
Selection select(const std::vector<Piece>& pieces, const std::vector<const std::string*>& texts, size_t limit,
                 double charsPerToken) {
    Selection s{std::vector<bool>(pieces.size(), false), std::vector<std::string>(pieces.size())};
    std::vector<size_t> order(pieces.size());
    std::iota(order.begin(), order.end(), size_t(0));
    std::stable_sort(order.begin(), order.end(),
                     [&](size_t x, size_t y) {
                         return std::tie(pieces[x].priority, pieces[x].rank) < std::tie(pieces[y].priority, pieces[y].rank);
                     });
    auto indexOf = [&](const std::string& name) {
        for (size_t k = 0; k < pieces.size(); ++k)
            if (pieces[k].name == name) return k;
        return pieces.size();
    };
    size_t used = 0;
    for (size_t i : order) {
        const Piece& p = pieces[i];
        const size_t n = texts[i]->size();
        if (!p.needs.empty()) {
            const size_t k = indexOf(p.needs);
            if (k < pieces.size() && !s.keep[k]) {
                s.dropped[i] = "'" + p.needs + "' was left out";
                continue;
            }
        }
        if (p.priority == Priority::Required || used + n <= limit) {
            s.keep[i] = true;
            used += n;
        } else {
            const int left = int((limit > used ? limit - used : 0) / charsPerToken);
            s.dropped[i] = "no room: needs " + std::to_string(estimateTokens(n, charsPerToken)) + " tokens, " +
                           std::to_string(left) + " left after higher priorities";
        }
    }
    // A heading with none of its pieces is noise.
    for (size_t i = 0; i < pieces.size(); ++i) {
        if (!s.keep[i] || !pieces[i].groupHead || pieces[i].priority == Priority::Required) continue;
        bool member = false, any = false;
        for (size_t k = 0; k < pieces.size(); ++k)
            if (k != i && pieces[k].group == pieces[i].group) {
                any = true;
                member = member || s.keep[k];
            }
        if (any && !member) {
            s.keep[i] = false;
            s.dropped[i] = "a heading without any of its pieces";
        }
    }
    return s;
}

size_t charsOf(const std::vector<Piece>& pieces, bool compact, Priority upTo) {
    size_t n = 0;
    for (const auto& p : pieces)
        if (p.priority <= upTo) n += (compact && !p.compact.empty() ? p.compact : p.text).size();
    return n;
}

} // namespace

int estimateTokens(size_t chars, double charsPerToken) {
    return int(std::ceil(double(chars) / std::max(charsPerToken, 0.5)));
}

int estimateTokens(const std::string& text, double charsPerToken) { return estimateTokens(text.size(), charsPerToken); }

void TokenCalibration::observe(size_t chars, int tokens) {
    if (tokens <= 0 || chars < 200) return;  // too short to say anything about a whole prompt
    const double observed = std::clamp(double(chars) / tokens * kMargin, kMinRatio, kMaxRatio);
    // The first server count replaces the generic bound (the model's tokenizer may be coarser);
    // later counts only lower it, so a denser prompt never slips over.
    ratio_ = fromServer_ ? std::min(ratio_, observed) : observed;
    fromServer_ = true;
    char buf[96];
    std::snprintf(buf, sizeof buf, "the server's count (%d tokens for %zu characters)", tokens, chars);
    source_ = buf;
}

void TokenCalibration::observeOverflow(size_t chars, int tokens) {
    if (tokens <= 0 || chars == 0) return shrink(0.85);
    ratio_ = std::clamp(std::min(ratio_, double(chars) / tokens * kMargin), kMinRatio, kMaxRatio);
    fromServer_ = true;
    char buf[128];
    std::snprintf(buf, sizeof buf, "the server's context-length error (%d tokens for %zu characters)", tokens, chars);
    source_ = buf;
}

void TokenCalibration::shrink(double factor) {
    ratio_ = std::clamp(ratio_ * factor, kMinRatio, kMaxRatio);
    source_ = "shrunk after a context-length error";
}

int Budget::promptTokens() const { return std::max(0, contextTokens - maxTokens); }

const char* priorityName(Priority p) {
    static const char* names[] = {"required",      "memory",        "history",   "core-card", "task-card",
                                  "memory-detail", "optional-card", "reference", "examples"};
    return names[int(p)];
}

Assembled assemble(const std::vector<Piece>& pieces, const Budget& budget) {
    Assembled a;
    a.budgetTokens = budget.promptTokens();
    a.charsPerToken = budget.charsPerToken;
    // Count characters, not per-piece token estimates, so rounding does not add up; the two
    // messages' template tokens and the rounding of the two estimates come off first.
    const size_t limit = charLimit(a.budgetTokens - 2 * kMessageOverheadTokens - 2, budget.charsPerToken);
    // The evaluation is condensed before the top experiences are given up.
    const bool compact = charsOf(pieces, false, Priority::Memory) > limit;
    std::vector<const std::string*> texts;
    for (const auto& p : pieces) texts.push_back(compact && !p.compact.empty() ? &p.compact : &p.text);
    const Selection s = select(pieces, texts, limit, budget.charsPerToken);
    for (size_t i = 0; i < pieces.size(); ++i) {
        const auto& p = pieces[i];
        const std::string& t = *texts[i];
        a.sizes.push_back({p.name, t.size(), estimateTokens(t, budget.charsPerToken), bool(s.keep[i]), &t != &p.text,
                           priorityName(p.priority), s.dropped[i]});
        if (!s.keep[i]) continue;
        (p.system ? a.system : a.user) += t;
        if (p.experienceId && std::find(a.shownExperiences.begin(), a.shownExperiences.end(), p.experienceId) ==
                                  a.shownExperiences.end())
            a.shownExperiences.push_back(p.experienceId);
    }
    a.promptTokens = estimateTokens(a.system, budget.charsPerToken) + estimateTokens(a.user, budget.charsPerToken) +
                     2 * kMessageOverheadTokens;
    a.overflow = a.promptTokens > a.budgetTokens;
    return a;
}

nlohmann::json Assembled::toJson() const {
    nlohmann::json sections = nlohmann::json::array();
    for (const auto& s : sizes) {
        nlohmann::json j = {{"name", s.name},         {"chars", s.chars},         {"tokens", s.tokens},
                            {"included", s.included}, {"compacted", s.compacted}, {"priority", s.priority}};
        if (!s.dropped.empty()) j["dropped"] = s.dropped;
        sections.push_back(j);
    }
    return {{"prompt_tokens", promptTokens},     {"budget_tokens", budgetTokens}, {"overflow", overflow},
            {"chars_per_token", charsPerToken},  {"sections", sections},
            {"shown_experiences", shownExperiences}};
}

std::string Assembled::table() const {
    std::string out;
    char buf[320];
    for (const auto& s : sizes) {
        std::snprintf(buf, sizeof buf, "%-4s %6zu chars %6d tok  %-13s ", s.included ? "yes" : "-", s.chars, s.tokens,
                      s.priority.c_str());
        out += buf + s.name + (s.compacted ? " (condensed)" : "") + (s.dropped.empty() ? "" : " -- dropped: " + s.dropped) + "\n";
    }
    std::snprintf(buf, sizeof buf, "prompt: %d tokens (estimate, chars/%.2f) of a budget of %d%s\n", promptTokens,
                  charsPerToken, budgetTokens,
                  overflow ? " -- OVERFLOW: the required parts alone do not fit; the request is not sent" : "");
    return out + buf;
}

} // namespace sage::agent::prompt
