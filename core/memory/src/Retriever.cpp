#include "sage_memory/Retriever.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/TextTokens.h"
#include "sage_memory/ValueModel.h"

#include <algorithm>
#include <map>
#include <random>

namespace sage::memory {
using nlohmann::json;

namespace {

constexpr std::size_t kMaxQueryTerms = 32;

// BM25 column weights: title, content, trigger.
constexpr const char* kBm25 = "bm25(experience_fts, 2.0, 1.0, 1.5)";
// The PostgreSQL counterpart: ts_rank with the same column weights scaled to [0, 1] ({D, C, B, A}
// = {-, content, trigger, title}), normalised by document length (flag 1) as BM25 is. It has no
// inverse document frequency: only the relative order within one query matters (c.text below).
constexpr const char* kTsRank = "ts_rank('{0.1, 0.5, 0.75, 1.0}', e.search, to_tsquery('sage_fts', ?1), 1)";

struct Candidate {
    std::int64_t id = 0;
    double relevance = 0.0;  // −BM25, larger is better; 0 for trigger-only candidates
    Trigger trigger;
    bool pinned = false;
    bool trial = false;
    double q = 0.0;
    double text = 0.0;
    double triggerMatch = 0.0;
    double similarity = 0.0;
    double score = 0.0;
};

void checkContext(const RetrievalContext& ctx) {
    auto bad = [](const std::string& message) { throw MemoryError(MemoryError::Code::InvalidInput, message); };
    if (ctx.stage == Stage::Any) bad("retrieval needs the stage of the iteration (draft, repair or optimize), not 'any'");
    if (!(ctx.epsilon >= 0.0 && ctx.epsilon <= 1.0)) bad("epsilon must lie in [0, 1]");
    if (ctx.weights.poolFactor < 1) bad("the pool factor must be at least 1");
    if (ctx.weights.postingBudget < 1) bad("the posting budget must be at least 1");
    if (!(ctx.weights.triggerShare >= 0.0 && ctx.weights.triggerShare <= 1.0)) bad("the trigger share must lie in [0, 1]");
}

// Uniform double in [0, 1) and index in [0, n) from the raw 64-bit engine output, so a seed
// gives the same picks with every standard library.
double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }
std::size_t index(std::mt19937_64& rng, std::size_t n) { return static_cast<std::size_t>(rng() % n); }

} // namespace

std::vector<std::string> Retriever::keywordsFor(const RetrievalContext& ctx) {
    // Most specific first: when there are more keywords than the query holds, the trigger words stay.
    std::string text = ctx.category + ' ' + ctx.bottleneck;
    for (const Diagnostic& d : ctx.diagnostics) text += ' ' + d.kind;
    text += ' ' + ctx.description;
    for (const Diagnostic& d : ctx.diagnostics) text += ' ' + d.message;
    return TextTokens::keywords(text);
}

std::string Retriever::queryFor(const RetrievalContext& ctx) { return TextTokens::ftsQuery(keywordsFor(ctx)); }

std::int64_t Retriever::documentFrequency(const std::string& word, int cap) {
    if (const auto it = frequency_.find(word); it != frequency_.end()) return it->second;
    const bool pg = repo_.database().isPostgres();
    auto stmt = repo_.database().cached(
        pg ? "SELECT count(*) FROM (SELECT 1 FROM experience WHERE search @@ to_tsquery('sage_fts', ?1) LIMIT ?2) AS hits"
           : "SELECT count(*) FROM (SELECT 1 FROM experience_fts WHERE experience_fts MATCH ?1 LIMIT ?2) AS hits");
    const std::string query = TextTokens::ftsQuery({word});
    stmt->bind(1, pg ? TextTokens::tsQuery(query) : query).bind(2, cap + 1);
    const std::int64_t count = stmt->step() ? stmt->int64(0) : 0;
    frequency_.emplace(word, count);
    return count;
}

std::vector<std::string> Retriever::affordableKeywords(const std::vector<std::string>& keywords, int postingBudget) {
    std::int64_t entries = 0;
    {
        auto stmt = repo_.database().cached("SELECT coalesce(max(id), 0) FROM experience");
        if (stmt->step()) entries = stmt->int64(0);
    }
    if (entries <= postingBudget) return keywords;  // scoring every entry is affordable
    // Frequencies change slowly; the cache is dropped when the memory has grown by a tenth.
    if (postingBudget != frequencyCap_ || entries > frequencyHorizon_ + frequencyHorizon_ / 10) {
        frequency_.clear();
        frequencyHorizon_ = entries;
        frequencyCap_ = postingBudget;
    }
    std::vector<std::pair<std::int64_t, std::string>> ranked;
    for (std::size_t i = 0; i < keywords.size() && i < kMaxQueryTerms; ++i)
        if (const std::int64_t df = documentFrequency(keywords[i], postingBudget); df > 0)
            ranked.emplace_back(df, keywords[i]);
    std::stable_sort(ranked.begin(), ranked.end(), [](const auto& a, const auto& b) { return a.first < b.first; });
    std::vector<std::string> kept;
    std::int64_t postings = 0;
    for (const auto& [df, word] : ranked) {
        if (!kept.empty() && postings + df > postingBudget) break;
        kept.push_back(word);  // the rarest word is kept even when it alone is over budget
        postings += df;
    }
    return kept;
}

double Retriever::triggerMatch(const Trigger& trigger, const RetrievalContext& ctx) {
    int set = 0;
    int matched = 0;
    if (!trigger.category.empty()) {
        ++set;
        matched += trigger.category == ctx.category;
    }
    if (!trigger.bottleneck.empty()) {
        ++set;
        matched += trigger.bottleneck == ctx.bottleneck;
    }
    if (!trigger.diagnostic.empty()) {
        ++set;
        matched += std::any_of(ctx.diagnostics.begin(), ctx.diagnostics.end(),
                               [&](const Diagnostic& d) { return d.kind == trigger.diagnostic; });
    }
    return set ? static_cast<double>(matched) / set : 0.0;
}

std::vector<ScoredExperience> Retriever::retrieve(const RetrievalContext& ctx) {
    if (!retrieves(ctx.mode) || ctx.limit <= 0) return {};
    checkContext(ctx);
    Database& db = repo_.database();
    const int pool = ctx.limit * ctx.weights.poolFactor;
    const std::string stage(toString(ctx.stage));
    // The statuses automated runs may see: approved always, lessons on trial unless left out,
    // unreviewed entries only when asked for. Spelled from the enum, bound as parameters.
    const std::string trialStatus(toString(ctx.includeTrial ? ExperienceStatus::Trial : ExperienceStatus::Approved));
    const std::string pendingStatus(toString(ctx.includePending ? ExperienceStatus::Pending : ExperienceStatus::Approved));

    std::map<std::int64_t, double> relevance;  // ordered by id: ties break the same way every time
    const auto keywords = affordableKeywords(keywordsFor(ctx), ctx.weights.postingBudget);
    if (const std::string query = TextTokens::ftsQuery(keywords, kMaxQueryTerms); !query.empty()) {
        auto stmt = db.cached(
            db.isPostgres()
                ? std::string("SELECT e.id, ") + kTsRank + " AS relevance FROM experience e "
                      "WHERE e.search @@ to_tsquery('sage_fts', ?1) AND e.stage IN (?2, 'any') "
                      "AND e.status IN ('approved', ?3, ?5) ORDER BY relevance DESC, e.id LIMIT ?4"
                : std::string("SELECT experience_fts.rowid, -") + kBm25 +
                      " FROM experience_fts JOIN experience e ON e.id = experience_fts.rowid "
                      "WHERE experience_fts MATCH ?1 AND e.stage IN (?2, 'any') AND e.status IN ('approved', ?3, ?5) "
                      "ORDER BY " + kBm25 + " LIMIT ?4");
        stmt->bind(1, db.isPostgres() ? TextTokens::tsQuery(query) : query).bind(2, stage).bind(3, trialStatus).bind(4, pool);
        stmt->bind(5, pendingStatus);
        while (stmt->step()) relevance.emplace(stmt->int64(0), std::max(0.0, stmt->real(1)));
    }
    auto addTriggerMatches = [&](const char* column, const std::string& value) {
        if (value.empty()) return;
        // "<> ''" lets SQLite use the partial trigger indexes.
        auto stmt = db.cached(std::string("SELECT id FROM experience WHERE ") + column + " = ?1 AND " + column +
                              " <> '' AND stage IN (?2, 'any') AND status IN ('approved', ?3, ?5) LIMIT ?4");
        stmt->bind(1, value).bind(2, stage).bind(3, trialStatus).bind(4, pool).bind(5, pendingStatus);
        while (stmt->step()) relevance.emplace(stmt->int64(0), 0.0);
    };
    for (const Diagnostic& d : ctx.diagnostics) addTriggerMatches("trigger_diagnostic", d.kind);
    addTriggerMatches("trigger_bottleneck", ctx.bottleneck);
    addTriggerMatches("trigger_category", ctx.category);
    if (relevance.empty()) return {};

    std::vector<Candidate> candidates;  // applicable entries only
    {
        // The ids are integers this process read from the store: listed literally, which both
        // backends understand (SQLite's json_each has no PostgreSQL twin of the same name).
        std::string ids;
        for (const auto& [id, rel] : relevance) {
            if (!ids.empty()) ids += ',';
            ids += std::to_string(id);
        }
        auto stmt = db.prepare(
            "SELECT e.id, e.trigger_category, e.trigger_diagnostic, e.trigger_bottleneck, e.pinned, coalesce(s.q, ?2), "
            "e.applies_to, e.status "
            "FROM experience e LEFT JOIN experience_stats s ON s.experience_id = e.id AND s.stage = ?1 "
            "WHERE e.id IN (" + ids + ") ORDER BY e.id");
        stmt.bind(1, stage).bind(2, ValueModel::kInitialQ);
        auto* row = &stmt;
        while (row->step()) {
            // Applicability is a hard filter: a 310P-only pitfall never reaches a 910B prompt.
            if (const std::string applies = row->text(6); !applies.empty() &&
                !Applicability::fromJson(json::parse(applies)).admits(ctx.device, ctx.category))
                continue;
            Candidate c;
            c.id = row->int64(0);
            c.relevance = relevance[c.id];
            c.trigger = {row->text(1), row->text(2), row->text(3)};
            c.pinned = row->int64(4) != 0;
            c.trial = row->text(7) == toString(ExperienceStatus::Trial);
            c.q = row->real(5);
            candidates.push_back(std::move(c));
        }
    }

    double best = 0.0;
    for (const Candidate& c : candidates) best = std::max(best, c.relevance);
    const ScoreWeights& w = ctx.weights;
    const double valueWeight = ranksByValue(ctx.mode) ? w.value : 0.0;
    for (Candidate& c : candidates) {
        c.text = best > 0.0 ? c.relevance / best : 0.0;
        c.triggerMatch = triggerMatch(c.trigger, ctx);
        c.similarity = (1.0 - w.triggerShare) * c.text + w.triggerShare * c.triggerMatch;
        c.score = w.similarity * c.similarity + valueWeight * (c.q + 1.0) / 2.0 + (c.pinned ? w.pinBonus : 0.0) -
                  (c.trial ? w.trialPenalty : 0.0);
    }
    std::stable_sort(candidates.begin(), candidates.end(),
                     [](const Candidate& a, const Candidate& b) { return a.score > b.score; });
    if (candidates.size() > static_cast<std::size_t>(pool)) candidates.resize(static_cast<std::size_t>(pool));

    std::mt19937_64 rng(ctx.seed);
    std::vector<ScoredExperience> out;
    if (candidates.empty()) return out;
    while (!candidates.empty() && out.size() < static_cast<std::size_t>(ctx.limit)) {
        std::size_t pick = 0;
        bool explored = false;
        if (ctx.epsilon > 0.0 && unit(rng) < ctx.epsilon && candidates.size() > 1) {
            pick = 1 + index(rng, candidates.size() - 1);
            explored = true;
        }
        const Candidate c = candidates[pick];
        candidates.erase(candidates.begin() + static_cast<std::ptrdiff_t>(pick));
        ScoredExperience s;
        s.experience = repo_.get(c.id);
        s.rank = static_cast<int>(out.size()) + 1;
        s.score = c.score;
        s.similarity = c.similarity;
        s.textSimilarity = c.text;
        s.triggerMatch = c.triggerMatch;
        s.q = c.q;
        s.explored = explored;
        out.push_back(std::move(s));
    }
    return out;
}

} // namespace sage::memory
