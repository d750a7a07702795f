// StoreOverview: the whole memory at a glance — how many entries by status, stage, kind and
// origin, how retrievals turned into adoptions, what is flagged, and the best values per stage.
// Backs `sage memory stats` and the memory browser's summary line.
#pragma once

#include "sage_memory/ExperienceRepository.h"

#include <map>
#include <string>
#include <vector>

namespace sage::memory {

struct StoreOverview {
    struct TopEntry {
        Stage stage = Stage::Draft;
        std::int64_t id = 0;
        std::string title;
        double q = 0.0;
        std::int64_t adopted = 0;
    };

    std::int64_t entries = 0;
    std::map<std::string, std::int64_t> byStatus, byStage, byKind, byOrigin;  // every name, 0 included
    std::int64_t pinned = 0;
    std::int64_t flagged = 0;
    std::int64_t retrievals = 0;  // retrieval records
    std::int64_t resolved = 0;    // ... whose outcome is recorded
    std::int64_t adopted = 0;     // ... with adoption weight > 0
    std::vector<TopEntry> top;    // up to 3 per stage, highest Q first (entries with stats only)

    static StoreOverview of(ExperienceRepository& repository);
    nlohmann::json toJson() const;
};

} // namespace sage::memory
