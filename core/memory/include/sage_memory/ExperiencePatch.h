// ExperiencePatch: the fields an edit changes; unset fields stay as they are.
// Built from CLI flags or from a JSON object holding any subset of the editable fields
// (the same spelling as the JSON Lines format; "trigger" may name only some of its fields).
#pragma once

#include "sage_memory/Experience.h"

#include <optional>
#include <string>
#include <vector>

namespace sage::memory {

struct ExperiencePatch {
    std::optional<std::string> title;
    std::optional<ExperienceKind> kind;
    std::optional<Stage> stage;
    std::optional<std::string> category;
    std::optional<std::string> diagnostic;
    std::optional<std::string> bottleneck;
    std::optional<Applicability> appliesTo;
    std::optional<std::string> content;
    std::optional<std::string> codeIdiom;
    std::optional<std::string> evidencePattern;
    std::optional<nlohmann::json> action;  // JSON null clears the action
    std::optional<ExperienceStatus> status;
    std::optional<bool> pinned;

    bool empty() const;
    // Applies the set fields; returns the names of the fields whose value actually changed.
    std::vector<std::string> applyTo(Experience& experience) const;
    // Throws MemoryError(InvalidInput) on unknown or ill-typed fields.
    static ExperiencePatch fromJson(const nlohmann::json& object);
};

} // namespace sage::memory
