#include "sage_eval/RunCache.h"

#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"

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
constexpr const char* kFormat = "run-v1";

// Run outputs are large (tens of MB per evaluation): the cache keeps at most SAGE_RUN_CACHE_MB
// (default 1024) and drops the least recently stored entries beyond that.
uint64_t capacityBytes() {
    const char* env = std::getenv("SAGE_RUN_CACHE_MB");
    uint64_t mb = 1024;
    if (env && *env) {
        char* end = nullptr;
        unsigned long long v = std::strtoull(env, &end, 10);
        if (end && *end == 0) mb = v;
    }
    return mb << 20;
}

void evictBeyond(const fs::path& root, uint64_t capacity) {
    std::error_code ec;
    struct Item {
        fs::file_time_type time;
        uint64_t bytes;
        fs::path dir;
    };
    std::vector<Item> items;
    uint64_t total = 0;
    for (const auto& e : fs::directory_iterator(root, ec)) {
        if (!e.is_directory(ec) || e.path().filename().string().find(".tmp.") != std::string::npos) continue;
        Item it{fs::last_write_time(e.path(), ec), 0, e.path()};
        for (const auto& f : fs::directory_iterator(e.path(), ec))
            if (f.is_regular_file(ec)) it.bytes += f.file_size(ec);
        total += it.bytes;
        items.push_back(std::move(it));
    }
    if (total <= capacity) return;
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.time < b.time; });
    for (const auto& it : items) {
        if (total <= capacity) break;
        fs::remove_all(it.dir, ec);  // a reader holding a mapping keeps its pages; the next lookup misses
        total -= std::min(total, it.bytes);
    }
}

// "<name>.tmp.<pid>.<n>": private to this process and thread, and recognised by evictBeyond
// (skipped) and by removeStaleWorkDirs (removed once the process is gone).
fs::path privateDir(const fs::path& root, const std::string& name) {
    static std::atomic<uint64_t> counter{0};
    return root / (name + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++));
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

bool RunCache::cacheable(const std::string& status) {
    return status == "ok" || status == "race" || status == "sim_error";
}

std::optional<RunCache::Entry> RunCache::load(const std::string& key) const {
    const fs::path dir = fs::path(dir_) / key;
    std::string text = toolchain::readTextFile((dir / "result.json").string());
    if (text.empty()) return std::nullopt;
    Entry e;
    try {
        json j = json::parse(text);
        e.result.status = j.at("status").get<std::string>();
        e.result.message = j.value("message", "");
        e.result.seconds = j.value("seconds", 0.0);
        e.networkIsolated = j.value("network_isolated", false);
        for (const auto& l : j.at("launches")) e.result.launches.push_back(toolchain::launchResultFromJson(l));
        for (const auto& name : j.at("outputs")) {
            auto blob = toolchain::Blob::map((dir / (name.get<std::string>() + ".bin")).string());
            if (!blob.valid()) return std::nullopt;  // damaged entry: run again
            e.outputs[name.get<std::string>()] = std::move(blob);
        }
    } catch (const std::exception&) {
        return std::nullopt;
    }
    return e;
}

void RunCache::store(const std::string& key, const toolchain::RunResult& result,
                     const std::map<std::string, toolchain::Blob>& outputs, bool networkIsolated) const {
    const fs::path dir = fs::path(dir_) / key;
    const fs::path tmp = privateDir(dir_, key);
    std::error_code ec;
    try {
        fs::create_directories(tmp);
        json launches = json::array(), names = json::array();
        for (const auto& l : result.launches) launches.push_back(toolchain::toJson(l, true));
        for (const auto& [name, blob] : outputs) {
            // A mapped output (the runner's file, kept next to the cache) is linked, not copied.
            std::error_code lec;
            if (blob.path().empty() || (fs::create_hard_link(blob.path(), tmp / (name + ".bin"), lec), lec))
                toolchain::writeFile((tmp / (name + ".bin")).string(), blob.data(), blob.size());
            names.push_back(name);
        }
        json j = {{"status", result.status}, {"message", result.message}, {"seconds", result.seconds},
                  {"launches", launches}, {"outputs", names},
                  {"network_isolated", networkIsolated}};
        toolchain::writeFile((tmp / "result.json").string(), j.dump());
        fs::rename(tmp, dir, ec);  // atomic; if another process stored the same key first, keep theirs
        // Eviction walks every entry (a stat per file): doing it on each store made a bench's
        // stores quadratic. Every 16th store of a process keeps the cache within about 16 entries
        // (the first store of a process always evicts) of its capacity.
        static std::atomic<uint64_t> stores{0};
        if (stores.fetch_add(1) % 16 == 0) evictBeyond(fs::path(dir_), capacityBytes());
    } catch (const std::exception&) {
    }
    if (fs::exists(tmp, ec)) fs::remove_all(tmp, ec);
}

} // namespace sage::eval
