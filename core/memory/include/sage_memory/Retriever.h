// Retriever: stage-aware retrieval. Candidates come from two sources — FTS5 BM25 over
// title/content/trigger with a query built from the context, and exact trigger matches (the
// context's diagnostic kinds, bottleneck, category), so a matching rule is found even when its
// wording shares nothing with the context. Both are filtered by stage (the context's stage or
// "any") and status (approved, plus pending if asked), scored (see RetrievalContext.h) and the
// top N returned, with optional seeded ε-greedy exploration.
#pragma once

#include "sage_memory/ExperienceRepository.h"
#include "sage_memory/RetrievalContext.h"

#include <string>
#include <unordered_map>
#include <vector>

namespace sage::memory {

class Retriever {
public:
    explicit Retriever(ExperienceRepository& repository) : repo_(repository) {}

    std::vector<ScoredExperience> retrieve(const RetrievalContext& context);

    // The context's keywords, most specific first (category, bottleneck, diagnostic kinds, then
    // description and diagnostic messages), and the FTS5 expression over all of them.
    static std::vector<std::string> keywordsFor(const RetrievalContext& context);
    static std::string queryFor(const RetrievalContext& context);
    // The keywords retrieve() keeps under the posting budget, rarest first.
    std::vector<std::string> affordableKeywords(const std::vector<std::string>& keywords, int postingBudget);
    static double triggerMatch(const Trigger& trigger, const RetrievalContext& context);

private:
    // How many entries contain the word (counted up to cap + 1), cached per connection.
    std::int64_t documentFrequency(const std::string& word, int cap);

    ExperienceRepository& repo_;
    std::unordered_map<std::string, std::int64_t> frequency_;
    std::int64_t frequencyHorizon_ = 0;  // max(id) when the cache was started
    int frequencyCap_ = 0;
};

} // namespace sage::memory
