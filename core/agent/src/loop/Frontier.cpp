#include "loop/Frontier.h"

namespace sage::agent {

int Frontier::add(Candidate c) {
    const int idx = int(nodes_.size());
    const bool better = c.correct && (best_ < 0 || c.cycles() < nodes_[size_t(best_)].cycles());
    byKey_.emplace(c.key, idx);
    const bool humanCorrect = c.human && c.correct;
    nodes_.push_back(std::move(c));
    latest_ = idx;
    if (better) {
        best_ = idx;
        focus_ = -1;  // a new best takes over from the engineer's edit
    }
    if (humanCorrect) focus_ = idx;
    return idx;
}

int Frontier::pick() const {
    if (focus_ >= 0 && !nodes_[size_t(focus_)].exhausted) return focus_;
    int chosen = -1;
    for (int i = 0; i < size(); ++i) {
        const auto& n = nodes_[size_t(i)];
        if (!n.correct || n.exhausted) continue;
        if (chosen < 0 || n.cycles() < nodes_[size_t(chosen)].cycles()) chosen = i;
    }
    return chosen;
}

int Frontier::open() const {
    int n = 0;
    for (const auto& c : nodes_) n += c.correct && !c.exhausted;
    return n;
}

int Frontier::find(const std::string& key) const {
    auto it = byKey_.find(key);
    return it == byKey_.end() ? -1 : it->second;
}

std::vector<std::string> Frontier::keys() const {
    std::vector<std::string> out;
    out.reserve(nodes_.size());
    for (const auto& n : nodes_) out.push_back(n.key);
    return out;
}

} // namespace sage::agent
