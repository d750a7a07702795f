#include "sage_memory/JsonlExchange.h"

#include "sage_memory/MemoryError.h"
#include "sage_json/BoundedJson.h"

#include <algorithm>
#include <fstream>
#include <map>
#include <sstream>
#include <system_error>

namespace sage::memory {
using nlohmann::json;
namespace fs = std::filesystem;

namespace {

json revisionJson(const Revision& r) {
    return json{{"revision", r.revision}, {"previous", r.previous}, {"author", r.author}, {"reason", r.reason}, {"at", r.at}};
}

Revision revisionFromJson(const json& object) {
    if (!object.is_object() || !object.contains("revision") || !object["revision"].is_number_integer() ||
        !object.contains("previous") || !object.value("author", json()).is_string() ||
        !object.value("reason", json()).is_string() || !object.value("at", json()).is_string())
        throw MemoryError(MemoryError::Code::InvalidInput,
                          "a revision must be {revision: integer, previous: object, author, reason, at: strings}");
    return Revision{object["revision"].get<int>(), object["previous"], object["author"].get<std::string>(),
                    object["reason"].get<std::string>(), object["at"].get<std::string>()};
}

struct ParsedLine {
    Experience experience;
    ExperienceStats stats;
    std::vector<Revision> revisions;
    std::vector<ValuePoint> history;
};

// A memory entry is a few KB: a longer import line is refused before it is parsed, and an
// error quotes at most this much of what the parser saw (a bad line is never echoed whole).
constexpr size_t kMaxLineBytes = 4 << 20;
constexpr size_t kMaxQuotedBytes = 400;

std::string clipped(const std::string& text) {
    return text.size() <= kMaxQuotedBytes ? text : text.substr(0, kMaxQuotedBytes) + "... [" + std::to_string(text.size()) + " bytes]";
}

// The next line of `in` (without its newline) into `line`; false at the end. A line longer than
// kMaxLineBytes is read past but not kept: `tooLong` is set and `line` left empty.
bool readLine(std::istream& in, std::string& line, bool& tooLong) {
    line.clear();
    tooLong = false;
    char buf[1 << 16];
    for (bool any = false;;) {
        in.getline(buf, sizeof buf);
        const size_t got = size_t(in.gcount());
        const bool bufferFull = in.fail() && !in.eof() && got == sizeof buf - 1;
        if (got == 0 && !in) return any;
        any = true;
        const size_t chars = bufferFull || in.eof() ? got : got - 1;  // gcount counts the newline
        if (!tooLong && line.size() + chars > kMaxLineBytes) {
            tooLong = true;
            line.clear();
            line.shrink_to_fit();
        }
        if (!tooLong) line.append(buf, chars);
        if (!bufferFull) return true;
        in.clear();
    }
}

ParsedLine parseLine(const std::string& line) {
    json object;
    try {
        object = sage_json::parse(line, "memory import line");
    } catch (const std::exception& e) {  // invalid, or nested too deep (sage_json::TooDeep)
        throw MemoryError(MemoryError::Code::InvalidInput, std::string("not valid JSON (") + clipped(e.what()) + ")");
    }
    ParsedLine parsed;
    parsed.experience = Experience::fromJson(object);
    if (auto it = object.find("stats"); it != object.end() && !it->is_null()) parsed.stats = ExperienceStats::fromJson(*it);
    if (auto it = object.find("revisions"); it != object.end() && !it->is_null()) {
        if (!it->is_array()) throw MemoryError(MemoryError::Code::InvalidInput, "field 'revisions' must be an array");
        for (const json& r : *it) parsed.revisions.push_back(revisionFromJson(r));
    }
    if (auto it = object.find("q_history"); it != object.end() && !it->is_null()) {
        if (!it->is_array()) throw MemoryError(MemoryError::Code::InvalidInput, "field 'q_history' must be an array");
        for (const json& p : *it) parsed.history.push_back(ValuePoint::fromJson(p, 0));
    }
    return parsed;
}

} // namespace

json JsonlExchange::entryJson(std::int64_t id) {
    json line = repo_.get(id).toJson();
    json stats = json::object();
    const json allStats = repo_.stats(id).toJson();
    for (const Stage stage : kLearningStages) {
        const std::string name(toString(stage));
        if (!(repo_.stageStats(id, stage) == StageStats{stage})) stats[name] = allStats[name];
    }
    line["stats"] = std::move(stats);
    json revisions = json::array();
    for (const Revision& r : repo_.revisions(id)) revisions.push_back(revisionJson(r));
    line["revisions"] = std::move(revisions);
    json history = json::array();
    for (const ValuePoint& p : repo_.qHistory(id, false)) history.push_back(p.toJson());
    line["q_history"] = std::move(history);
    return line;
}

int JsonlExchange::write(std::ostream& out, const ExperienceFilter& filter) {
    int count = 0;
    for (const ExperienceSummary& summary : repo_.list(filter)) {
        out << entryJson(summary.id).dump(-1, ' ', false, json::error_handler_t::replace) << '\n';
        ++count;
    }
    return count;
}

int JsonlExchange::exportTo(const fs::path& path, const ExperienceFilter& filter) {
    const fs::path temporary = path.string() + ".tmp";
    int count = 0;
    {
        std::ofstream out(temporary, std::ios::binary | std::ios::trunc);
        if (!out)
            throw MemoryError(MemoryError::Code::Io, temporary.string() +
                                                         ": cannot be written. Check that the folder exists and is writable.");
        count = write(out, filter);
        out.flush();
        if (!out) {
            std::error_code ignored;
            fs::remove(temporary, ignored);
            throw MemoryError(MemoryError::Code::Io, temporary.string() + ": writing failed (disk full?). Nothing was exported.");
        }
    }
    std::error_code ec;
    fs::rename(temporary, path, ec);
    if (ec)
        throw MemoryError(MemoryError::Code::Io, path.string() + ": cannot be replaced (" + ec.message() +
                                                     "); the export is in " + temporary.string());
    return count;
}

ImportReport JsonlExchange::read(std::istream& in, const std::string& sourceName, const ChangeNote& note) {
    // 1. Read and validate everything: a bad line imports nothing.
    std::vector<std::pair<int, ParsedLine>> entries;  // (line number, entry)
    std::string line;
    int lineNumber = 0;
    bool tooLong = false;
    while (readLine(in, line, tooLong)) {
        ++lineNumber;
        if (tooLong)
            throw MemoryError(MemoryError::Code::InvalidInput,
                              sourceName + ":" + std::to_string(lineNumber) + ": the line is longer than " +
                                  std::to_string(kMaxLineBytes >> 20) +
                                  " MiB (an exported entry is a few KB). Nothing was imported; is this a memory export?");
        if (!line.empty() && line.back() == '\r') line.pop_back();
        if (line.find_first_not_of(" \t") == std::string::npos) continue;
        try {
            entries.emplace_back(lineNumber, parseLine(line));
        } catch (const MemoryError& e) {
            throw MemoryError(e.code(), sourceName + ":" + std::to_string(lineNumber) + ": " + clipped(e.what()) +
                                            ". Nothing was imported; fix the line and import again.");
        }
    }
    if (in.bad()) throw MemoryError(MemoryError::Code::Io, sourceName + ": reading failed. Nothing was imported.");

    // 2. Write in chunks, one transaction each.
    ImportReport report;
    std::map<std::int64_t, std::int64_t> newIdOf;                    // file id -> stored id
    std::vector<std::pair<std::int64_t, std::int64_t>> mergedLinks;  // stored id -> file id of merged_into
    std::size_t next = 0;
    while (next < entries.size()) {
        Transaction tx(repo_.database());
        const std::size_t end = std::min(entries.size(), next + static_cast<std::size_t>(chunkSize_));
        for (; next < end; ++next) {
            auto& [number, parsed] = entries[next];
            Experience& e = parsed.experience;
            const std::int64_t fileId = e.id;
            if (const auto existing = repo_.findByText(e.title, e.content)) {
                ++report.skipped;
                if (fileId) newIdOf[fileId] = *existing;
                continue;
            }
            if (fileId && repo_.exists(fileId)) {
                e.id = 0;
                ++report.renumbered;
            }
            const std::optional<std::int64_t> mergedInto = e.mergedInto;
            e.mergedInto.reset();
            const std::int64_t id = repo_.insert(e);
            if (fileId) newIdOf[fileId] = id;
            if (fileId && id != fileId)
                report.notes.push_back(sourceName + ":" + std::to_string(number) + ": entry #" + std::to_string(fileId) +
                                       " imported as #" + std::to_string(id) + " (its id was taken)");
            if (mergedInto) mergedLinks.emplace_back(id, *mergedInto);
            const std::string where = "imported from " + sourceName + ":" + std::to_string(number);
            ChangeNote lineNote = note;
            lineNote.reason = note.reason.empty() ? where : note.reason + " (" + where + ")";
            Curator(repo_).audit(id, 0, "imported", lineNote, where);
            for (const StageStats& s : parsed.stats.stages)
                if (!(s == StageStats{s.stage})) repo_.saveStageStats(id, s);
            for (const Revision& r : parsed.revisions) repo_.insertRevision(id, r);
            for (ValuePoint p : parsed.history) {
                p.experienceId = id;
                repo_.appendValuePoint(p);
            }
            ++report.imported;
        }
        tx.commit();
        if (chunkObserver_) chunkObserver_(static_cast<int>(next));
    }

    // 3. merged_into links, once every entry has its stored id.
    if (!mergedLinks.empty()) {
        Transaction tx(repo_.database());
        for (const auto& [id, fileTarget] : mergedLinks) {
            if (auto it = newIdOf.find(fileTarget); it != newIdOf.end()) {
                repo_.linkMerged(id, it->second);
            } else if (repo_.exists(fileTarget)) {
                repo_.linkMerged(id, fileTarget);
            } else {
                report.notes.push_back("entry #" + std::to_string(id) + " was merged into #" + std::to_string(fileTarget) +
                                       ", which is not in the file or the database; the link was dropped");
            }
        }
        tx.commit();
    }
    return report;
}

ImportReport JsonlExchange::importFrom(const fs::path& path, const ChangeNote& note) {
    std::ifstream in(path, std::ios::binary);
    if (!in)
        throw MemoryError(MemoryError::Code::Io, path.string() + ": cannot be opened for reading. Check the path.");
    return read(in, path.string(), note);
}

} // namespace sage::memory
