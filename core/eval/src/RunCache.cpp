#include "sage_eval/RunCache.h"

#include "sage_toolchain/Files.h"
#include "sage_toolchain/Hash.h"

#include <atomic>
#include <filesystem>
#include <unistd.h>

namespace sage::eval {
namespace fs = std::filesystem;
using nlohmann::json;

namespace {
// Bump when the stored layout or the meaning of a key field changes.
constexpr const char* kFormat = "run-v1";
} // namespace

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
    static std::atomic<uint64_t> counter{0};
    const fs::path dir = fs::path(dir_) / key;
    const fs::path tmp = dir.string() + ".tmp." + std::to_string(::getpid()) + "." + std::to_string(counter++);
    std::error_code ec;
    try {
        fs::create_directories(tmp);
        json launches = json::array(), names = json::array();
        for (const auto& l : result.launches) launches.push_back(toolchain::toJson(l, true));
        for (const auto& [name, blob] : outputs) {
            toolchain::writeFile((tmp / (name + ".bin")).string(), blob.data(), blob.size());
            names.push_back(name);
        }
        json j = {{"status", result.status}, {"message", result.message}, {"seconds", result.seconds},
                  {"launches", launches}, {"outputs", names},
                  {"network_isolated", networkIsolated}};
        toolchain::writeFile((tmp / "result.json").string(), j.dump());
        fs::rename(tmp, dir, ec);  // atomic; if another process stored the same key first, keep theirs
    } catch (const std::exception&) {
    }
    if (fs::exists(tmp, ec)) fs::remove_all(tmp, ec);
}

} // namespace sage::eval
