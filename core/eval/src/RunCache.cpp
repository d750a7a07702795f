#include "sage_eval/RunCache.h"

#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <algorithm>
#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <unistd.h>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// Bump when the stored layout or the meaning of a key field changes.
// v2: outputs are content-addressed blobs shared by every entry that produced the same bytes.
// v3: a launch's timeline events are a blob too (CBOR): inline they made result.json files of up
//     to 6 MB that no budget covered (854 MB of entries beside 400 MB of outputs).
constexpr const char* kFormat = "run-v3";
constexpr const char* kBlobs = "blobs";


constexpr const char* kLayoutMarker = ".layout";

// The entry folders (one per key): not the blobs, the layout marker or private work folders.
std::vector<fs::path> entryFolders(const fs::path& root) {
    std::vector<fs::path> out;
    std::error_code ec;
    for (fs::directory_iterator it(root, ec), end; !ec && it != end; it.increment(ec))
        if (it->is_directory(ec) && !toolchain::isWorkEntry(it->path()) && it->path().filename() != kBlobs)
            out.push_back(it->path());
    return out;
}

// A layout change leaves entries no key leads to any more (the format is part of the key), with
// whatever they hold: run-v1 entries kept their outputs, 1.4 GB of them on a developer machine.
// They are swept once, by the first eviction after the change, which then records the layout.
void sweepOtherLayouts(const fs::path& root) {
    const fs::path marker = root / kLayoutMarker;
    std::error_code ec;
    if (toolchain::readTextFile(marker.string()) == kFormat) return;  // "" when missing
    for (const auto& entry : entryFolders(root)) {
        bool current = false;
        try {
            current = json::parse(toolchain::readTextFile((entry / "result.json").string())).value("format", "") == kFormat;
        } catch (const std::exception&) {
            // unreadable or damaged: not an entry of this layout
        }
        if (!current) fs::remove_all(entry, ec);
    }
    try {
        toolchain::writeFile(marker.string(), kFormat);
    } catch (const std::exception&) {
        // best effort: the sweep runs again next time
    }
}

// Blobs are dropped oldest first; then every entry stored no later than the newest dropped blob.
// That keeps no entry whose blob is gone, without reading any entry: store() touches an entry's
// blobs after the entry is in place, so every blob is at least as new as each entry naming it.
void evictBeyond(const fs::path& root, uint64_t capacity) {
    sweepOtherLayouts(root);
    const auto trimmed = toolchain::trimCacheFolder(root / kBlobs, capacity, std::chrono::seconds(0));
    if (!trimmed.newestDropped) return;
    std::error_code ec;
    for (const auto& entry : entryFolders(root))
        if (fs::last_write_time(entry, ec) <= *trimmed.newestDropped) fs::remove_all(entry, ec);
}

// "<name>.tmp.<pid>.<n>": private to this process and thread, and recognised by evictBeyond
// (skipped) and by removeStaleWorkDirs (removed once the process is gone).
fs::path privateDir(const fs::path& root, const std::string& name) {
    static std::atomic<uint64_t> counter{0};
    return root / (name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
}

fs::path blobPath(const fs::path& root, const std::string& hash) { return root / kBlobs / (hash + ".bin"); }

// Puts `blob` under blobs/<hash>.bin unless those bytes are already there, and returns the hash.
// A mapped output (the runner's file, kept next to the cache) is linked, not copied; identical
// outputs of other candidates and seeds are stored once.
std::string storeBlob(const fs::path& root, const toolchain::Blob& blob) {
    const std::string hash = toolchain::ContentHash().add(blob.data(), blob.size()).hex();
    const fs::path target = blobPath(root, hash);
    std::error_code ec;
    if (fs::is_regular_file(target, ec) && fs::file_size(target, ec) == blob.size()) return hash;
    const fs::path tmp = privateDir(root / kBlobs, hash);
    try {
        if (blob.path().empty() || (fs::create_hard_link(blob.path(), tmp, ec), ec))
            toolchain::writeFile(tmp.string(), blob.data(), blob.size());
        fs::rename(tmp, target);  // atomic; the same bytes from another process are just replaced
    } catch (...) {
        fs::remove(tmp, ec);
        throw;
    }
    return hash;
}

} // namespace

std::string RunCache::outputsStagingDir() const {
    std::error_code ec;
    const fs::path d = privateDir(dir_, "outputs");
    return fs::create_directories(d, ec) ? d.string() : std::string();
}

std::string RunCache::key(const std::string& binaryDigest, const toolchain::RunJob& job,
                          const toolchain::SandboxInput& in) {
    toolchain::RunJob one = job;
    one.sharedObject.clear();  // the path is per cache entry; the bytes are in binaryDigest
    one.runs = {in.spec};
    toolchain::ContentHash h;
    h.add(kFormat).add(binaryDigest).add(toJson(one).dump());
    // Input files are content-addressed by name (task, case, seed, tensor, generator version).
    for (const auto& [name, path] : in.inputFiles) h.add(name).add(fs::path(path).filename().string());
    for (const auto& [name, bytes] : in.inputs) h.add(name).add(bytes.data(), bytes.size());
    return h.hex();
}

bool RunCache::cacheable(toolchain::RunStatus status) { return toolchain::simulatorDecided(status); }

// Run outputs are large (tens of MB per evaluation): the cache keeps at most SAGE_RUN_CACHE_MB
// (default 1024) of blobs and drops the least recently stored ones beyond that.
uint64_t RunCache::budgetBytes() { return toolchain::budgetFromEnvironment("SAGE_RUN_CACHE_MB", 1024); }

void RunCache::trim() const { evictBeyond(dir_, budgetBytes()); }

toolchain::FolderUsage RunCache::usage() const {
    auto usage = toolchain::cacheFolderUsage(dir_);  // every byte, blobs included
    usage.entries = entryFolders(dir_).size();
    return usage;
}

std::optional<RunCache::Entry> RunCache::load(const std::string& key) const {
    const fs::path dir = fs::path(dir_) / key;
    std::string text = toolchain::readTextFile((dir / "result.json").string());
    if (text.empty()) return std::nullopt;
    Entry e;
    try {
        json j = json::parse(text);
        if (j.value("format", "") != kFormat) return std::nullopt;
        const auto status = toolchain::parseRunStatus(j.at("status").get<std::string>());
        if (!status) return std::nullopt;  // not a status this version writes: run it again
        e.result.status = *status;
        e.result.message = j.value("message", "");
        e.result.seconds = j.value("seconds", 0.0);
        e.networkIsolated = j.value("network_isolated", false);
        // A blob named in the entry, or nothing when the name is not one store() wrote (never a
        // path outside blobs/) or the blob was evicted or damaged: then the run is made again.
        auto blobNamed = [&](const json& hashJson) -> std::optional<toolchain::Blob> {
            const std::string hash = hashJson.get<std::string>();
            if (hash.size() != 32 || hash.find_first_not_of("0123456789abcdef") != std::string::npos) return std::nullopt;
            auto blob = toolchain::Blob::map(blobPath(dir_, hash).string());
            if (!blob.valid()) return std::nullopt;
            return blob;
        };
        for (json l : j.at("launches")) {
            if (l.contains("events_blob")) {
                auto events = blobNamed(l["events_blob"]);
                if (!events) return std::nullopt;
                l["events"] = json::from_cbor(events->data(), events->data() + events->size());
            }
            e.result.launches.push_back(toolchain::launchResultFromJson(l));
        }
        for (const auto& [name, hashJson] : j.at("outputs").items()) {
            auto blob = blobNamed(hashJson);
            if (!blob) return std::nullopt;
            e.outputs[name] = std::move(*blob);
        }
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return e;
}

void RunCache::store(const std::string& key, const toolchain::RunResult& result,
                     const std::map<std::string, toolchain::Blob>& outputs, bool networkIsolated) const {
    const fs::path root(dir_);
    const fs::path tmp = privateDir(root, key);
    std::error_code ec;
    try {
        fs::create_directories(root / kBlobs);
        json launches = json::array(), hashes = json::object();
        std::vector<fs::path> blobFiles;
        for (const auto& [name, blob] : outputs) {
            const std::string hash = storeBlob(root, blob);
            hashes[name] = hash;
            blobFiles.push_back(blobPath(root, hash));
        }
        for (const auto& l : result.launches) {
            json lj = toolchain::toJson(l, true);
            if (!l.events.empty()) {  // the timeline: often the same for every seed, stored once
                const std::string hash = storeBlob(root, toolchain::Blob::own(json::to_cbor(lj["events"])));
                lj.erase("events");
                lj["events_blob"] = hash;
                blobFiles.push_back(blobPath(root, hash));
            }
            launches.push_back(std::move(lj));
        }
        json j = {{"format", kFormat}, {"status", toString(result.status)}, {"message", result.message},
                  {"seconds", result.seconds}, {"launches", launches}, {"outputs", hashes},
                  {"network_isolated", networkIsolated}};
        fs::create_directories(tmp);
        toolchain::writeFile((tmp / "result.json").string(), j.dump());
        fs::rename(tmp, root / key, ec);  // atomic; if another process stored the same key first, keep theirs
        // Now that the entry is in place, its blobs become at least as new as it (evictBeyond).
        const auto now = fs::file_time_type::clock::now();
        for (const auto& f : blobFiles) fs::last_write_time(f, now, ec);
        // Eviction walks every blob and entry (a stat each): doing it on each store made a
        // bench's stores quadratic. Every 16th store of a process keeps the cache within about
        // 16 entries' outputs (the first store of a process always evicts) of its capacity.
        static std::atomic<uint64_t> stores{0};
        if (stores.fetch_add(1) % 16 == 0) evictBeyond(root, budgetBytes());
    } catch (const std::exception&) {
    }
    if (fs::exists(tmp, ec)) fs::remove_all(tmp, ec);
}

} // namespace sage::eval
