// JsonlExchange: export and import as JSON Lines, one entry per line, ordered by id:
//   {"id":..,"title":..,"kind":..,"stage":..,"trigger":{..},"content":..,"code_idiom":..,
//    "evidence_pattern":..,"action":{..}|null,"status":..,"origin":..,"pinned":..,"merged_into":..,
//    "provenance":[..],"created_at":..,"updated_at":..,
//    "stats":{"repair":{"q":..,"retrieved":..,...}},   (stages with anything learned)
//    "revisions":[{"revision":1,"previous":{..},"author":..,"reason":..,"at":..}],
//    "q_history":[{"stage":..,"q":..,"cause":..,"run":..,"iteration":..,"at":..}]}
// Keys are sorted and numbers printed to round-trip, so export → import into a fresh file →
// export gives the same bytes. Only "title" and "content" are required on import; hand-written
// files (like the seed pack) may leave out everything else.
//
// Import runs in one transaction (a bad line imports nothing and names file:line). An entry's id
// is kept when it is free; otherwise the entry gets a new id (and merged_into links follow it).
// A line whose title and content equal an existing entry's is skipped, so importing the same
// file twice adds nothing. Retrieval records are run data and are not exported.
#pragma once

#include "sage_memory/ExperienceRepository.h"

#include <filesystem>
#include <iosfwd>
#include <string>
#include <vector>

namespace sage::memory {

struct ImportReport {
    int imported = 0;
    int skipped = 0;     // already present (same title and content)
    int renumbered = 0;  // imported under a new id because theirs was taken
    std::vector<std::string> notes;
};

class JsonlExchange {
public:
    explicit JsonlExchange(ExperienceRepository& repository) : repo_(repository) {}

    // The export line of one entry.
    nlohmann::json entryJson(std::int64_t id);
    // Writes the entries the filter selects (all by default); returns how many.
    int write(std::ostream& out, const ExperienceFilter& filter = {});
    // Writes to a temporary file beside `path` and renames it, so a failed export leaves no half file.
    int exportTo(const std::filesystem::path& path, const ExperienceFilter& filter = {});

    ImportReport read(std::istream& in, const std::string& sourceName);
    ImportReport importFrom(const std::filesystem::path& path);

private:
    ExperienceRepository& repo_;
};

} // namespace sage::memory
