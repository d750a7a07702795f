#include "sage_memory/Distiller.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/TextTokens.h"
#include "sage_memory/ValueModel.h"

#include <cstdio>

namespace sage::memory {

std::optional<DuplicateMatch> Distiller::findDuplicate(const Experience& e) {
    if (!e.action.is_null() && !e.trigger.empty()) {
        const auto same = repo_.withTriggerAndAction(e.trigger, e.actionText());
        if (!same.empty()) return DuplicateMatch{same.front(), 1.0, "same trigger and action"};
    }
    const std::string text = e.title + "\n" + e.content;
    const auto words = TextTokens::keywordSet(text);
    std::optional<DuplicateMatch> best;
    for (const std::int64_t id : repo_.textMatches(TextTokens::ftsQuery(TextTokens::keywords(text)), kTextCandidates)) {
        const auto other = repo_.find(id);
        if (!other || other->status == ExperienceStatus::Archived) continue;
        const double similarity = TextTokens::jaccard(words, TextTokens::keywordSet(other->title + "\n" + other->content));
        if (similarity >= ValueModel::kDedupJaccard && (!best || similarity > best->similarity)) {
            char reason[64];
            std::snprintf(reason, sizeof reason, "text similarity %.2f", similarity);
            best = DuplicateMatch{id, similarity, reason};
        }
    }
    return best;
}

void Distiller::creditProposal(std::int64_t id, const Proposal& proposal, const char* cause) {
    StageStats stats = repo_.stageStats(id, proposal.stage);
    stats.q = ValueModel::clampQ(stats.q + ValueModel::kDedupGain * proposal.reward);
    repo_.saveStageStats(id, stats);
    ValuePoint point{id, proposal.stage, stats.q, cause, std::nullopt, std::nullopt, ExperienceRepository::now()};
    if (const auto& provenance = proposal.experience.provenance; !provenance.empty()) {
        point.run = provenance.front().run;
        point.iteration = provenance.front().iteration;
    }
    repo_.appendValuePoint(point);
}

ProposalResult Distiller::addProposed(const Proposal& proposal) {
    if (proposal.stage == Stage::Any)
        throw MemoryError(MemoryError::Code::InvalidInput,
                          "a proposal needs the stage of the iteration that taught it (draft, repair or optimize)");
    if (!(proposal.reward >= -1.0 && proposal.reward <= 1.0))
        throw MemoryError(MemoryError::Code::InvalidInput, "the reward of a proposal must lie in [-1, 1]");
    if (const auto problems = proposal.experience.problems(); !problems.empty())
        throw MemoryError(MemoryError::Code::InvalidInput, "cannot store the proposed experience: " + problems.front());
    Transaction tx(repo_.database());
    ProposalResult result;
    if (const auto duplicate = findDuplicate(proposal.experience)) {
        const auto& provenance = proposal.experience.provenance;
        if (learnsValues(proposal.mode)) creditProposal(duplicate->id, proposal, "dedup");
        for (Provenance p : provenance) {
            p.note = "duplicate proposal (" + duplicate->reason + ")" + (p.note.empty() ? "" : "; " + p.note);
            repo_.addProvenance(duplicate->id, p);
        }
        result = {duplicate->id, true, duplicate->similarity, duplicate->reason};
    } else {
        Experience fresh = proposal.experience;
        fresh.id = 0;
        // An agent's lesson goes on trial (retrieved with a lower prior); anything else waits for review.
        if (fresh.status != ExperienceStatus::Trial) fresh.status = ExperienceStatus::Pending;
        fresh.mergedInto.reset();
        fresh.createdAt.clear();
        fresh.updatedAt.clear();
        result = {repo_.insert(fresh), false, 0.0, "new entry"};
        // The iteration that taught the lesson is its first piece of evidence, weighed like a
        // duplicate proposal's: a lesson of a 30x gain starts above one of a 1.06x gain.
        if (learnsValues(proposal.mode)) creditProposal(result.id, proposal);
    }
    tx.commit();
    return result;
}

} // namespace sage::memory
