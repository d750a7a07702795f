// Experience: one entry of the memory — advice the agent reads (content), when it applies
// (stage + trigger), what adopting it looks like in code (code idiom, evidence pattern), an
// optional structured action for the built-in policy, its review status and where it came from.
#pragma once

#include "sage_memory/ExperienceFields.h"

#include <nlohmann/json.hpp>

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace sage::memory {

// When an entry applies. Each field may be empty (= no condition on it).
struct Trigger {
    std::string category;    // op category: elementwise, reduction, matmul, ...
    std::string diagnostic;  // diagnostic kind: capacity_exceeded, race_raw, wrong_result, ...
    std::string bottleneck;  // bottleneck class: mte2_bound, vector_bound, ...

    bool empty() const { return category.empty() && diagnostic.empty() && bottleneck.empty(); }
    bool operator==(const Trigger&) const = default;
};

// Where an entry may be retrieved at all (a hard filter, unlike the trigger, which only scores):
// an entry that lists devices is retrieved only for those device ids (a 310P-only pitfall stays
// off 910B prompts), one that lists categories only for tasks of those categories. Empty = anywhere.
struct Applicability {
    std::vector<std::string> devices;     // device profile ids, e.g. "ascend310p3-sim"
    std::vector<std::string> categories;  // op categories, e.g. "matmul"

    bool empty() const { return devices.empty() && categories.empty(); }
    // Whether the entry applies to a context; an empty context value matches every entry.
    bool admits(const std::string& device, const std::string& category) const;
    bool operator==(const Applicability&) const = default;
    nlohmann::json toJson() const;
    static Applicability fromJson(const nlohmann::json& json);  // throws MemoryError(InvalidInput)
};

// Where an entry was learned (or, for merged and deduplicated entries, where it was seen again).
struct Provenance {
    std::string task;
    std::optional<std::int64_t> run;
    std::optional<std::int64_t> iteration;
    std::string diff;  // the unified diff that taught it
    std::string note;  // e.g. "merged from #12", "duplicate proposal"

    bool operator==(const Provenance&) const = default;
};

struct Experience {
    std::int64_t id = 0;  // 0 until stored
    std::string title;
    ExperienceKind kind = ExperienceKind::Insight;
    Stage stage = Stage::Any;
    Trigger trigger;
    Applicability appliesTo;
    std::string content;          // markdown the agent reads
    std::string codeIdiom;        // optional code snippet
    std::string evidencePattern;  // optional RE2 pattern (EvidencePattern), validated on store
    nlohmann::json action;        // null, or an object the policy interprets ({"type":"set_tunable",...})
    ExperienceStatus status = ExperienceStatus::Pending;
    Origin origin = Origin::Agent;
    bool pinned = false;
    std::optional<std::int64_t> mergedInto;
    std::vector<Provenance> provenance;
    std::string createdAt;  // ISO-8601 UTC, set by the store
    std::string updatedAt;
    // How many curation changes the entry has had (its last revision number), as read: an edit
    // that names it (ChangeNote::expectedRevision) fails if someone changed the entry since.
    int revision = 0;

    // Problems that keep the entry from being stored ("title is empty", ...); empty when valid.
    std::vector<std::string> problems() const;
    // The action as stored: compact JSON with sorted keys, "" when there is none.
    std::string actionText() const;

    // The editable fields (no id, status history, timestamps or provenance) as JSON — the
    // snapshot kept in a revision.
    nlohmann::json editableJson() const;
    // Every field, in the JSON Lines spelling (stats and histories are added by the exchange).
    nlohmann::json toJson() const;
    // Reads the JSON Lines spelling. Missing optional fields take their defaults
    // (kind insight, stage any, status pending, origin human). Throws MemoryError(InvalidInput).
    static Experience fromJson(const nlohmann::json& json);
};

// One curation change of an entry: the fields as they were before it, who made it, when and why.
struct Revision {
    int revision = 0;            // 1, 2, ... per entry
    nlohmann::json previous;     // Experience::editableJson() + status + pinned, before the change
    std::string author;
    std::string reason;
    std::string at;

    bool operator==(const Revision&) const = default;
};

// One line of the audit log (issue 16): who did what to which entry, when and why. Kept when the
// entry is deleted, so a deletion is on record too.
struct AuditRecord {
    std::int64_t id = 0;
    std::int64_t experienceId = 0;
    int revision = 0;     // the entry's revision after the change (0 for a deletion)
    std::string action;   // approved, rejected, archived, pending, pinned, unpinned, edited, merged, deleted
    std::string author;
    std::string reason;
    std::string at;
    // Who it was as the system knows it (issue 31): PostgreSQL's session_user, or on SQLite the OS
    // account of the process; "" on lines written before schema version 4.
    std::string account = {};
};

nlohmann::json toJson(const Provenance& provenance);
Provenance provenanceFromJson(const nlohmann::json& json);

} // namespace sage::memory
