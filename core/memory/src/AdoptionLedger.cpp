#include "sage_memory/AdoptionLedger.h"

#include "sage_memory/EvidenceMatcher.h"
#include "sage_memory/MemoryError.h"

#include <algorithm>
#include <unordered_map>

namespace sage::memory {

namespace {

std::string iterationName(std::int64_t run, std::int64_t iteration) {
    return "run " + std::to_string(run) + " iteration " + std::to_string(iteration);
}

std::optional<bool> optionalBool(const Statement& row, int column) {
    if (row.isNull(column)) return std::nullopt;
    return row.int64(column) != 0;
}

constexpr const char* kInterruptedBasis = "interrupted";

} // namespace

void AdoptionLedger::recordRetrievals(std::int64_t run, std::int64_t iteration, Stage stage,
                                      const std::vector<ScoredExperience>& retrieved) {
    if (stage == Stage::Any)
        throw MemoryError(MemoryError::Code::InvalidInput, "retrievals are recorded for draft, repair or optimize, not 'any'");
    Database& db = repo_.database();
    Transaction tx(db);
    const std::string at = ExperienceRepository::now();
    for (const ScoredExperience& item : retrieved) {
        const std::int64_t id = item.experience.id;
        // Checked first: after a failed statement PostgreSQL accepts no other in the transaction.
        if (!repo_.exists(id)) repo_.throwNotFound(id);
        try {
            auto stmt = db.cached(
                "INSERT INTO retrieval(run, iteration, experience_id, stage, rank, score, explored, retrieved_at) "
                "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8)");
            stmt->bind(1, run).bind(2, iteration).bind(3, id).bind(4, toString(stage)).bind(5, item.rank);
            stmt->bind(6, item.score).bind(7, item.explored ? 1 : 0).bind(8, at);
            stmt->run();
        } catch (const MemoryError& e) {
            if (e.code() != MemoryError::Code::Conflict) throw;
            throw MemoryError(MemoryError::Code::Conflict, "experience #" + std::to_string(id) +
                                                               " is already recorded as retrieved in " +
                                                               iterationName(run, iteration));
        }
        StageStats stats = repo_.stageStats(id, stage);
        ++stats.retrieved;
        repo_.saveStageStats(id, stats);
    }
    tx.commit();
}

CreditReport AdoptionLedger::recordOutcome(std::int64_t run, std::int64_t iteration,
                                           const std::vector<AdoptionSignal>& adoptions, const IterationOutcome& outcome) {
    if (!(outcome.reward >= -1.0 && outcome.reward <= 1.0))
        throw MemoryError(MemoryError::Code::InvalidInput, "the reward must lie in [-1, 1] (see ValueModel)");
    if (!(outcome.alpha > 0.0 && outcome.alpha <= 1.0))
        throw MemoryError(MemoryError::Code::InvalidInput, "the learning rate alpha must lie in (0, 1]");
    Database& db = repo_.database();
    Transaction tx(db);
    CreditReport report;
    report.records = retrievals(run, iteration);
    std::unordered_map<std::int64_t, AdoptionSignal> byId;
    for (const AdoptionSignal& s : adoptions) {
        const bool known = std::any_of(report.records.begin(), report.records.end(),
                                       [&](const RetrievalRecord& r) { return r.experienceId == s.experienceId; });
        if (known) byId[s.experienceId] = s;
        else report.notRetrieved.push_back(s.experienceId);
    }
    const std::string at = ExperienceRepository::now();
    for (RetrievalRecord& record : report.records) {
        // A record closed as interrupted by another process (which took this run for a dead one:
        // on a cluster it cannot see other hosts' processes) still takes the real outcome.
        if (record.resolved() && record.evidenceBasis != kInterruptedBasis)
            throw MemoryError(MemoryError::Code::Conflict, "the outcome of " + iterationName(run, iteration) +
                                                               " is already recorded; each iteration is credited once");
        const AdoptionSignal signal = byId.count(record.experienceId) ? byId[record.experienceId] : AdoptionSignal{};
        const double adoption = ValueModel::adoptionWeight(signal.declared, signal.evidenced);
        // An entry the policy never saw (cut from the prompt) is credited in no mode, not even
        // all_retrieved: credit is for what the policy could have acted on.
        const double credit = signal.basis == kNotShownBasis ? 0.0 : creditWeight(outcome.mode, adoption);
        StageStats stats = repo_.stageStats(record.experienceId, record.stage);
        const double qBefore = stats.q;
        if (adoption > 0.0) {
            ++stats.adopted;
            stats.rewardSum += outcome.reward;
            stats.successes += outcome.success ? 1 : 0;
        } else {
            ++stats.ignored;
        }
        if (credit > 0.0) stats.q = ValueModel::updatedQ(stats.q, credit, outcome.reward, outcome.alpha);
        repo_.saveStageStats(record.experienceId, stats);
        if (credit > 0.0)
            repo_.appendValuePoint({record.experienceId, record.stage, stats.q, "outcome", run, iteration, at});
        auto stmt = db.cached(
            "UPDATE retrieval SET declared = ?2, evidenced = ?3, adoption_weight = ?4, credit_weight = ?5, reward = ?6, "
            "q_before = ?7, q_after = ?8, resolved_at = ?9, evidence_basis = ?10, evidence_detail = ?11 WHERE id = ?1");
        stmt->bind(1, record.id).bind(2, signal.declared ? 1 : 0).bind(3, signal.evidenced ? 1 : 0);
        stmt->bind(4, adoption).bind(5, credit).bind(6, outcome.reward).bind(7, qBefore).bind(8, stats.q).bind(9, at);
        if (signal.basis.empty()) stmt->bindNull(10);
        else stmt->bind(10, signal.basis);
        if (signal.detail.empty()) stmt->bindNull(11);
        else stmt->bind(11, signal.detail);
        stmt->run();
        record.declared = signal.declared;
        record.evidenced = signal.evidenced;
        record.adoptionWeight = adoption;
        record.creditWeight = credit;
        record.reward = outcome.reward;
        record.qBefore = qBefore;
        record.qAfter = stats.q;
        record.resolvedAt = at;
        record.evidenceBasis = signal.basis;
        record.evidenceDetail = signal.detail;
    }
    tx.commit();
    return report;
}

int AdoptionLedger::closeUnresolved(Database& db, std::int64_t run) {
    if (db.schemaVersion(Database::kPrimaryModule) == 0) return 0;
    auto stmt = db.prepare(
        "UPDATE retrieval SET adoption_weight = 0, credit_weight = 0, resolved_at = ?2, evidence_basis = ?3, "
        "evidence_detail = 'the run ended before this iteration had an outcome' "
        "WHERE run = ?1 AND adoption_weight IS NULL");
    stmt.bind(1, run).bind(2, ExperienceRepository::now()).bind(3, kInterruptedBasis);
    stmt.run();
    return db.changes();
}

std::vector<RetrievalRecord> AdoptionLedger::retrievals(std::int64_t run, std::int64_t iteration) {
    return query("run = ?1 AND iteration = ?2", run, iteration);
}

std::vector<RetrievalRecord> AdoptionLedger::retrievalsOf(std::int64_t experienceId) {
    return query("experience_id = ?1 AND ?2 = ?2", experienceId, 0);
}

std::vector<RetrievalRecord> AdoptionLedger::query(std::string_view where, std::int64_t a, std::int64_t b) {
    auto stmt = repo_.database().cached(
        "SELECT id, run, iteration, experience_id, stage, rank, score, explored, declared, evidenced, adoption_weight, "
        "credit_weight, reward, q_before, q_after, retrieved_at, coalesce(resolved_at, ''), coalesce(evidence_basis, ''), "
        "coalesce(evidence_detail, '') FROM retrieval WHERE " +
        std::string(where) + " ORDER BY id");
    stmt->bind(1, a).bind(2, b);
    std::vector<RetrievalRecord> out;
    while (stmt->step()) {
        RetrievalRecord r;
        r.id = stmt->int64(0);
        r.run = stmt->int64(1);
        r.iteration = stmt->int64(2);
        r.experienceId = stmt->int64(3);
        r.stage = requireEnum<Stage>(stmt->text(4));
        r.rank = static_cast<int>(stmt->int64(5));
        r.score = stmt->real(6);
        r.explored = stmt->int64(7) != 0;
        r.declared = optionalBool(*stmt, 8);
        r.evidenced = optionalBool(*stmt, 9);
        r.adoptionWeight = stmt->optionalReal(10);
        r.creditWeight = stmt->optionalReal(11);
        r.reward = stmt->optionalReal(12);
        r.qBefore = stmt->optionalReal(13);
        r.qAfter = stmt->optionalReal(14);
        r.retrievedAt = stmt->text(15);
        r.resolvedAt = stmt->text(16);
        r.evidenceBasis = stmt->text(17);
        r.evidenceDetail = stmt->text(18);
        out.push_back(std::move(r));
    }
    return out;
}

std::vector<AdoptionSignal> AdoptionLedger::assess(const std::vector<ScoredExperience>& retrieved,
                                                   const std::vector<std::int64_t>& declaredIds,
                                                   const CandidateChange& change) {
    std::vector<AdoptionSignal> out;
    for (const ScoredExperience& item : retrieved) {
        const std::int64_t id = item.experience.id;
        const Evidence evidence = EvidenceMatcher::assess(item.experience, change);
        out.push_back({id, std::find(declaredIds.begin(), declaredIds.end(), id) != declaredIds.end(), evidence.evidenced,
                       toString(evidence.basis), evidence.detail});
    }
    return out;
}

std::vector<AdoptionSignal> AdoptionLedger::assess(const std::vector<ScoredExperience>& retrieved,
                                                   const std::vector<std::int64_t>& declaredIds,
                                                   const CandidateChange& change,
                                                   const std::vector<std::int64_t>& shownIds) {
    auto shown = [&](std::int64_t id) { return std::find(shownIds.begin(), shownIds.end(), id) != shownIds.end(); };
    std::vector<ScoredExperience> seen;
    for (const ScoredExperience& item : retrieved)
        if (shown(item.experience.id)) seen.push_back(item);
    std::vector<AdoptionSignal> judged = assess(seen, declaredIds, change);
    std::vector<AdoptionSignal> out;
    for (const ScoredExperience& item : retrieved) {
        const std::int64_t id = item.experience.id;
        auto it = std::find_if(judged.begin(), judged.end(), [&](const AdoptionSignal& s) { return s.experienceId == id; });
        if (it != judged.end()) out.push_back(*it);
        else out.push_back({id, false, false, kNotShownBasis, "retrieved but not shown to the policy (e.g. cut from the prompt)"});
    }
    return out;
}

std::vector<AdoptionSignal> AdoptionLedger::assess(const std::vector<ScoredExperience>& retrieved,
                                                   const std::vector<std::int64_t>& declaredIds,
                                                   std::string_view parentSource, std::string_view candidateSource) {
    return assess(retrieved, declaredIds, CandidateChange::between(parentSource, candidateSource));
}

std::vector<AdoptionSignal> AdoptionLedger::assess(const std::vector<ScoredExperience>& retrieved,
                                                   const std::vector<std::int64_t>& declaredIds,
                                                   std::string_view addedText) {
    return assess(retrieved, declaredIds, CandidateChange{std::string(), std::string(addedText)});
}

} // namespace sage::memory
