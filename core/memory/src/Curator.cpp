#include "sage_memory/Curator.h"

#include "sage_memory/MemoryError.h"

#include <pwd.h>
#include <unistd.h>

namespace sage::memory {

namespace {

double weightedMean(double a, double wa, double b, double wb) {
    if (wa + wb <= 0.0) return (a + b) / 2.0;
    return (a * wa + b * wb) / (wa + wb);
}

StageStats combine(const StageStats& a, const StageStats& b) {
    StageStats out = a;
    if (a.adopted + b.adopted > 0)
        out.q = weightedMean(a.q, static_cast<double>(a.adopted), b.q, static_cast<double>(b.adopted));
    else
        out.q = weightedMean(a.q, static_cast<double>(a.retrieved), b.q, static_cast<double>(b.retrieved));
    out.retrieved = a.retrieved + b.retrieved;
    out.adopted = a.adopted + b.adopted;
    out.successes = a.successes + b.successes;
    out.ignored = a.ignored + b.ignored;
    out.rewardSum = a.rewardSum + b.rewardSum;
    return out;
}

std::string entryName(std::int64_t id) {
    std::string name(1, '#');  // not "#" + to_string(): GCC 12 warns falsely (-Wrestrict) on that
    name += std::to_string(id);
    return name;
}

} // namespace

std::string processAccount() {
    const passwd* entry = ::getpwuid(::geteuid());
    return entry && entry->pw_name ? std::string(entry->pw_name) : "uid " + std::to_string(::geteuid());
}

std::int64_t Curator::add(const Experience& entry, const ChangeNote& note) {
    Transaction tx(repo_.database());
    const std::int64_t id = repo_.insert(entry);
    audit(id, 0, "added", note, "added");
    tx.commit();
    return id;
}

void Curator::audit(std::int64_t id, int revision, const std::string& action, const ChangeNote& note,
                    const std::string& defaultReason) {
    AuditRecord record{0, id, revision, action, note.author, note.reason.empty() ? defaultReason : note.reason, {}};
    record.account = processAccount();
    repo_.addAudit(record);
}

// Under the writer lock (the transaction), so two curators cannot both pass the check.
void Curator::checkRevision(std::int64_t id, const ChangeNote& note) {
    if (!note.expectedRevision) return;
    const int current = repo_.currentRevision(id);
    if (current == *note.expectedRevision) return;
    std::string who = "someone";
    std::string what = "changed it";
    std::string when;
    for (const AuditRecord& r : repo_.auditLog(id, 1)) {
        who = r.author;
        what = r.action.empty() ? what : r.action + " it";
        when = " at " + r.at;
    }
    throw MemoryError(MemoryError::Code::Conflict,
                      "experience " + entryName(id) + " was changed since you read it: you edited revision " +
                          std::to_string(*note.expectedRevision) + ", but " + who + " " + what + when +
                          " (now revision " + std::to_string(current) + "). Nothing was saved. Reload the entry (`sage "
                          "memory show " + std::to_string(id) + "`, or reopen it in the memory browser), then apply "
                          "your change again.");
}

bool Curator::change(std::int64_t id, const ChangeNote& note, const std::string& action,
                     const std::string& defaultReason, const std::function<void(Experience&)>& mutate,
                     bool recordEvenIfUnchanged) {
    Transaction tx(repo_.database());
    const Experience before = repo_.get(id);
    checkRevision(id, note);
    Experience after = before;
    mutate(after);
    const bool changed = after.editableJson() != before.editableJson() || after.mergedInto != before.mergedInto;
    if (!changed && !recordEvenIfUnchanged) return false;
    const std::string reason = note.reason.empty() ? defaultReason : note.reason;
    const int revision = repo_.addRevision(id, before.editableJson(), note.author, reason);
    repo_.update(after);
    audit(id, revision, action, note, reason);
    tx.commit();
    return changed;
}

bool Curator::setStatus(std::int64_t id, ExperienceStatus status, const ChangeNote& note) {
    const std::string action(toString(status));
    return change(id, note, action, action, [&](Experience& e) { e.status = status; });
}

bool Curator::setPinned(std::int64_t id, bool pinned, const ChangeNote& note) {
    const std::string action = pinned ? "pinned" : "unpinned";
    return change(id, note, action, action, [&](Experience& e) { e.pinned = pinned; });
}

std::vector<std::string> Curator::edit(std::int64_t id, const ExperiencePatch& patch, const ChangeNote& note) {
    std::vector<std::string> changed;
    change(id, note, "edited", "edited", [&](Experience& e) {
        changed = patch.applyTo(e);
        if (const auto problems = e.problems(); !problems.empty())
            throw MemoryError(MemoryError::Code::InvalidInput,
                              "cannot edit experience " + entryName(id) + ": " + problems.front());
    });
    return changed;
}

void Curator::merge(std::int64_t kept, std::int64_t absorbed, const ChangeNote& note) {
    if (kept == absorbed)
        throw MemoryError(MemoryError::Code::InvalidInput, "cannot merge experience " + entryName(kept) + " into itself");
    Transaction tx(repo_.database());
    const Experience a = repo_.get(kept);
    const Experience b = repo_.get(absorbed);
    checkRevision(kept, note);
    if (b.mergedInto)
        throw MemoryError(MemoryError::Code::Conflict, "experience " + entryName(absorbed) + " was already merged into " +
                                                           entryName(*b.mergedInto) + "; merge into that entry instead");
    if (a.mergedInto)
        throw MemoryError(MemoryError::Code::Conflict, "experience " + entryName(kept) + " was merged into " +
                                                           entryName(*a.mergedInto) + "; merge into that entry instead");
    const std::string reason = note.reason.empty() ? "" : ": " + note.reason;
    const ExperienceStats statsA = repo_.stats(kept);
    const ExperienceStats statsB = repo_.stats(absorbed);
    const std::string at = ExperienceRepository::now();
    for (const Stage stage : kLearningStages) {
        const StageStats& sa = statsA.at(stage);
        const StageStats& sb = statsB.at(stage);
        if (sb == StageStats{stage}) continue;  // nothing learned in this stage
        const StageStats merged = combine(sa, sb);
        repo_.saveStageStats(kept, merged);
        if (merged.q != sa.q) repo_.appendValuePoint({kept, stage, merged.q, "merge", std::nullopt, std::nullopt, at});
    }
    for (Provenance p : b.provenance) {
        p.note = "merged from " + entryName(absorbed) + (p.note.empty() ? "" : "; " + p.note);
        repo_.addProvenance(kept, p);
    }
    const ChangeNote keptNote{note.author, "merged " + entryName(absorbed) + " into this entry" + reason};
    change(kept, keptNote, "merged", "", [&](Experience& e) {
        if (e.codeIdiom.empty()) e.codeIdiom = b.codeIdiom;
        if (e.evidencePattern.empty()) e.evidencePattern = b.evidencePattern;
        if (e.action.is_null()) e.action = b.action;
    }, true);
    const ChangeNote absorbedNote{note.author, "merged into " + entryName(kept) + reason};
    change(absorbed, absorbedNote, "merged", "", [&](Experience& e) {
        e.status = ExperienceStatus::Archived;
        e.mergedInto = kept;
    });
    tx.commit();
}

void Curator::remove(std::int64_t id, const ChangeNote& note) {
    Transaction tx(repo_.database());
    checkRevision(id, note);
    repo_.remove(id);
    audit(id, 0, "deleted", note, "deleted");
    tx.commit();
}

} // namespace sage::memory
