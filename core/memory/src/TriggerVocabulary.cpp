#include "sage_memory/TriggerVocabulary.h"

#include <algorithm>

namespace sage::memory {

namespace {

template <std::size_t N>
void check(const std::string& value, const std::array<std::string_view, N>& known, const char* field,
           std::vector<std::string>& notes) {
    if (value.empty() || std::find(known.begin(), known.end(), value) != known.end()) return;
    notes.push_back(std::string(field) + " '" + value + "' is not a known value (known: " +
                    joinNames(known.data(), known.size()) + ")");
}

} // namespace

std::vector<std::string> TriggerVocabulary::unknownValues(const Trigger& trigger) {
    std::vector<std::string> notes;
    check(trigger.category, categories, "category", notes);
    check(trigger.diagnostic, diagnostics, "diagnostic", notes);
    check(trigger.bottleneck, bottlenecks, "bottleneck", notes);
    return notes;
}

} // namespace sage::memory
