// ExperienceRepository: the rows of the experience store — entries, provenance, stats, Q history
// and revisions — read and written one table operation at a time. It holds no policy: the
// retriever, the adoption ledger, the curator and the distiller build on it. Multi-statement
// writes are the caller's transaction (see Transaction); single writes here open their own.
#pragma once

#include "sage_memory/Database.h"
#include "sage_memory/Experience.h"
#include "sage_memory/ExperienceStats.h"

#include <optional>
#include <string>
#include <vector>

namespace sage::memory {

struct ExperienceFilter {
    std::optional<ExperienceStatus> status;
    std::optional<Stage> stage;  // exact stage of the entry ("any" matches only "any" entries)
    std::optional<ExperienceKind> kind;
    std::optional<Origin> origin;
    bool flaggedOnly = false;  // retrieved often, rarely adopted (ValueModel::flaggedForReview)
    bool pinnedOnly = false;
    std::string text;          // keywords that must appear (any of them) in title/content/trigger
    int limit = 0;             // 0 = no limit
    int offset = 0;
};

// A list row: the entry without its long text, with its learned statistics.
struct ExperienceSummary {
    std::int64_t id = 0;
    std::string title;
    ExperienceKind kind = ExperienceKind::Insight;
    Stage stage = Stage::Any;
    Trigger trigger;
    ExperienceStatus status = ExperienceStatus::Pending;
    Origin origin = Origin::Agent;
    bool pinned = false;
    std::optional<std::int64_t> mergedInto;
    std::string updatedAt;
    int revision = 0;           // see Experience::revision
    std::string lastChangedBy;  // author of the last curation change ("" when never curated)
    ExperienceStats stats;
    bool flagged() const { return stats.flaggedForReview(); }
};

class ExperienceRepository {
public:
    explicit ExperienceRepository(Database& db) : db_(db) {}

    // The current time as ISO-8601 UTC with milliseconds ("2025-03-01T12:00:00.123Z").
    static std::string now();

    // Stores a new entry with its provenance. e.id == 0 assigns the next id, otherwise that id is
    // used (Conflict if taken). Empty timestamps are set to now. Returns the id.
    std::int64_t insert(const Experience& e);
    std::optional<Experience> find(std::int64_t id);
    Experience get(std::int64_t id);  // throws MemoryError(NotFound)
    bool exists(std::int64_t id);
    // Writes every stored field of e (not provenance) and sets updated_at to now.
    void update(const Experience& e);
    void remove(std::int64_t id);
    // Sets merged_into without touching updated_at (used when restoring an export).
    void linkMerged(std::int64_t id, std::optional<std::int64_t> target);
    // An entry with exactly this title and content, if there is one.
    std::optional<std::int64_t> findByText(const std::string& title, const std::string& content);
    std::vector<ExperienceSummary> list(const ExperienceFilter& filter);
    std::int64_t count();
    // Entries with the same trigger and action (exact), excluding archived ones.
    std::vector<std::int64_t> withTriggerAndAction(const Trigger& trigger, const std::string& actionText);
    // Up to `limit` ids whose title/content/trigger match the FTS expression, best BM25 first.
    std::vector<std::int64_t> textMatches(const std::string& ftsQuery, int limit);

    std::vector<Provenance> provenance(std::int64_t id);
    void addProvenance(std::int64_t id, const Provenance& provenance);

    ExperienceStats stats(std::int64_t id);
    StageStats stageStats(std::int64_t id, Stage stage);
    void saveStageStats(std::int64_t id, const StageStats& stats);

    void appendValuePoint(const ValuePoint& point);
    // Q changes of the entry and of every entry merged into it (recursively), oldest first.
    std::vector<ValuePoint> qHistory(std::int64_t id, bool includeMerged = true);

    // Records the entry's state before a change; returns the revision number.
    int addRevision(std::int64_t id, const nlohmann::json& previous, const std::string& author, const std::string& reason);
    void insertRevision(std::int64_t id, const Revision& revision);
    std::vector<Revision> revisions(std::int64_t id);
    int currentRevision(std::int64_t id);

    // The audit log: appended by the curator, newest first; `id` 0 = every entry.
    void addAudit(const AuditRecord& record);
    std::vector<AuditRecord> auditLog(std::int64_t id = 0, int limit = 100);

    // Facts about the whole memory (table memory_meta), e.g. "bench.learned".
    std::optional<std::string> metadata(const std::string& key);
    void setMetadata(const std::string& key, const std::string& value);

    Database& database() { return db_; }
    [[noreturn]] void throwNotFound(std::int64_t id) const;

private:
    Experience readRow(const Statement& row) const;

    Database& db_;
};

} // namespace sage::memory
