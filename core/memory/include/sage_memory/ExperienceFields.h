// The closed vocabularies of an experience (kind, stage, status, origin) and their spelling.
// Each enum has one name table (EnumNames<E>); toString/parseEnum/requireEnum work for all of
// them, so the store, the JSON Lines format, the CLI and the GUI share one spelling.
#pragma once

#include <array>
#include <cstddef>
#include <optional>
#include <string>
#include <string_view>
#include <type_traits>

namespace sage::memory {

enum class ExperienceKind { Insight, RepairRule, Optimization, Pitfall, ApiUsage, Exemplar };
// The agent stage an experience applies to. `Any` is valid for an entry, never for a value:
// values are learned per concrete stage (see kLearningStages).
enum class Stage { Draft, Repair, Optimize, Any };
// Trial: a lesson the agent distilled from its own runs. Automated runs retrieve it with a lower
// prior; its learned value promotes it to approved or retires it to archived, and a person may
// approve, edit or reject it first (Curator). Appended last: the stored spelling is the name.
enum class ExperienceStatus { Pending, Approved, Rejected, Archived, Trial };
enum class Origin { Seed, Agent, Human };

// The stages that carry a learned value Q.
inline constexpr std::array<Stage, 3> kLearningStages{Stage::Draft, Stage::Repair, Stage::Optimize};

template <class E> struct EnumNames;
template <> struct EnumNames<ExperienceKind> {
    static constexpr std::string_view field = "kind";
    static constexpr std::array<std::string_view, 6> names{
        "insight", "repair_rule", "optimization", "pitfall", "api_usage", "exemplar"};
};
template <> struct EnumNames<Stage> {
    static constexpr std::string_view field = "stage";
    static constexpr std::array<std::string_view, 4> names{"draft", "repair", "optimize", "any"};
};
template <> struct EnumNames<ExperienceStatus> {
    static constexpr std::string_view field = "status";
    static constexpr std::array<std::string_view, 5> names{"pending", "approved", "rejected", "archived", "trial"};
};
template <> struct EnumNames<Origin> {
    static constexpr std::string_view field = "origin";
    static constexpr std::array<std::string_view, 3> names{"seed", "agent", "human"};
};

// An enum with a name table. Constrains the helpers below so they never match other types.
template <class E> concept NamedEnum = std::is_enum_v<E> && requires { EnumNames<E>::names; };

template <NamedEnum E> constexpr std::string_view toString(E value) {
    return EnumNames<E>::names[static_cast<std::size_t>(value)];
}

// Exact spelling; '-' is accepted for '_' ("all-retrieved" == "all_retrieved"). nullopt if unknown.
template <NamedEnum E> std::optional<E> parseEnum(std::string_view text) {
    const auto& names = EnumNames<E>::names;
    for (std::size_t i = 0; i < names.size(); ++i) {
        const std::string_view name = names[i];
        if (name.size() != text.size()) continue;
        bool same = true;
        for (std::size_t c = 0; c < name.size() && same; ++c)
            same = name[c] == text[c] || (name[c] == '_' && text[c] == '-');
        if (same) return static_cast<E>(i);
    }
    return std::nullopt;
}

// "a, b, c": the accepted spellings, for error messages and --help.
std::string joinNames(const std::string_view* names, std::size_t count);
template <NamedEnum E> std::string enumChoices() {
    return joinNames(EnumNames<E>::names.data(), EnumNames<E>::names.size());
}

// Throws MemoryError(InvalidInput) naming the field, the bad value and the accepted values.
[[noreturn]] void throwBadEnum(std::string_view field, std::string_view value, const std::string& choices);
template <NamedEnum E> E requireEnum(std::string_view text) {
    if (auto value = parseEnum<E>(text)) return *value;
    throwBadEnum(EnumNames<E>::field, text, enumChoices<E>());
}

} // namespace sage::memory
