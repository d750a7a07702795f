// MemoryMode: how the agent uses the memory, one switch shared by the agent, the CLI and the GUI.
//   off           no retrieval, no learning (the no-memory control)
//   similarity    retrieval by similarity only (w_q = 0), values not learned
//   all_retrieved every retrieved entry is credited with the outcome at weight 1 (EvoKernel/MemRL control)
//   adoption      only adopted entries are credited, at their adoption weight (SAGE, the default)
#pragma once

#include "sage_memory/ExperienceFields.h"

namespace sage::memory {

enum class MemoryMode { Off, Similarity, AllRetrieved, Adoption };

template <> struct EnumNames<MemoryMode> {
    static constexpr std::string_view field = "memory mode";
    static constexpr std::array<std::string_view, 4> names{"off", "similarity", "all_retrieved", "adoption"};
};

inline constexpr MemoryMode kDefaultMemoryMode = MemoryMode::Adoption;

// Does this mode retrieve at all / use learned values in the score / update values?
constexpr bool retrieves(MemoryMode mode) { return mode != MemoryMode::Off; }
constexpr bool ranksByValue(MemoryMode mode) {
    return mode == MemoryMode::AllRetrieved || mode == MemoryMode::Adoption;
}
constexpr bool learnsValues(MemoryMode mode) { return ranksByValue(mode); }

// The weight a retrieved entry's value update gets under this mode, given its adoption weight.
double creditWeight(MemoryMode mode, double adoptionWeight);

} // namespace sage::memory
