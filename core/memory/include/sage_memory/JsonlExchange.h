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
// Import first reads and validates every line (a bad line imports nothing and names file:line),
// then writes in chunks of `chunkSize` entries, one transaction each, so that a long import never
// holds the write lock for long: a run writing to the same file meanwhile waits for one chunk at
// most, instead of failing with `database is locked` (issue 14). If writing stops half-way (disk
// full, killed), the entries already committed stay; importing the file again skips them. An id
// is kept when it is free; otherwise the entry gets a new id (and merged_into links follow it).
// A line whose title and content equal an existing entry's is skipped, so importing the same
// file twice adds nothing. Retrieval records are run data and are not exported.
#pragma once

#include "sage_memory/Curator.h"
#include "sage_memory/ExperienceRepository.h"

#include <filesystem>
#include <functional>
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

    // Each imported entry gets an audit line "imported" by `note.author` (reason: the file and line).
    ImportReport read(std::istream& in, const std::string& sourceName, const ChangeNote& note = {});
    ImportReport importFrom(const std::filesystem::path& path, const ChangeNote& note = {});

    static constexpr int kDefaultChunkSize = 200;
    void setChunkSize(int entries) { chunkSize_ = entries > 0 ? entries : kDefaultChunkSize; }
    // Called after each committed chunk (no transaction open) with the entries written so far;
    // tests use it to write from another connection between chunks.
    void setChunkObserver(std::function<void(int written)> observer) { chunkObserver_ = std::move(observer); }

private:
    ExperienceRepository& repo_;
    int chunkSize_ = kDefaultChunkSize;
    std::function<void(int)> chunkObserver_;
};

} // namespace sage::memory
