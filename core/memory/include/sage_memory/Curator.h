// Curator: what an engineer does to entries — add, approve, reject, archive, pin, edit, merge, delete.
// Every change that alters an entry first stores a revision holding the fields as they were,
// with who made the change, when and why; a change that alters nothing stores nothing.
#pragma once

#include "sage_memory/ExperiencePatch.h"
#include "sage_memory/ExperienceRepository.h"

#include <functional>
#include <optional>
#include <string>
#include <vector>

namespace sage::memory {

struct ChangeNote {
    std::string author;  // who ("alice", "agent", ...); "unknown" when empty
    std::string reason;  // why; a default describing the operation when empty
    // Optimistic concurrency (issue 16): the entry's revision the change was made on (as read,
    // Experience::revision). When someone changed the entry since, the change fails with
    // MemoryError(Conflict) naming who, when and what to do. Empty: no check.
    std::optional<int> expectedRevision = std::nullopt;
};

// The OS account this process runs as (from the uid, not $USER), recorded with every audit line;
// on PostgreSQL the server's session_user replaces it (schema version 4).
std::string processAccount();

class Curator {
public:
    explicit Curator(ExperienceRepository& repository) : repo_(repository) {}

    // Adds an entry written by a person (or imported by one) and its audit line ("added").
    std::int64_t add(const Experience& entry, const ChangeNote& note = {});
    // The audit line of one change, with the process's account.
    void audit(std::int64_t id, int revision, const std::string& action, const ChangeNote& note,
               const std::string& defaultReason);

    // Each returns true when the entry changed.
    bool setStatus(std::int64_t id, ExperienceStatus status, const ChangeNote& note = {});
    bool approve(std::int64_t id, const ChangeNote& note = {}) { return setStatus(id, ExperienceStatus::Approved, note); }
    bool reject(std::int64_t id, const ChangeNote& note = {}) { return setStatus(id, ExperienceStatus::Rejected, note); }
    bool archive(std::int64_t id, const ChangeNote& note = {}) { return setStatus(id, ExperienceStatus::Archived, note); }
    bool setPinned(std::int64_t id, bool pinned, const ChangeNote& note = {});
    // Returns the names of the changed fields (empty: nothing changed, no revision stored).
    std::vector<std::string> edit(std::int64_t id, const ExperiencePatch& patch, const ChangeNote& note = {});

    // Folds `absorbed` into `kept`: per stage the counters add up and Q becomes the mean of the two
    // values weighted by adopted counts (by retrieved counts when neither was adopted, plain mean when
    // neither was retrieved); kept's empty code idiom, evidence pattern and action are filled from
    // absorbed; absorbed's provenance is copied to kept (noted "merged from #B"); absorbed is archived
    // with merged_into = kept. Both entries keep their revisions, Q histories and retrieval records;
    // ExperienceRepository::qHistory(kept) shows both histories.
    void merge(std::int64_t kept, std::int64_t absorbed, const ChangeNote& note = {});

    // Deletes the entry with its stats, histories, revisions and retrieval records. Cannot be undone;
    // the audit log keeps who deleted it.
    void remove(std::int64_t id, const ChangeNote& note = {});

private:
    bool change(std::int64_t id, const ChangeNote& note, const std::string& action, const std::string& defaultReason,
                const std::function<void(Experience&)>& mutate, bool recordEvenIfUnchanged = false);
    void checkRevision(std::int64_t id, const ChangeNote& note);

    ExperienceRepository& repo_;
};

} // namespace sage::memory
