#include "sage_toolchain/CacheTrim.h"
#include "sage_toolchain/Files.h"
#include "sage_toolchain/StaleWorkDirs.h"

#include <algorithm>
#include <cstdlib>
#include <string>
#include <vector>

namespace fs = std::filesystem;

namespace sage::toolchain {
namespace {

constexpr const char* kStamp = ".trimmed";

// Never dropped by trimming: private work entries, builders' locks and the stamp file.
bool isPrivateOrLock(const fs::path& p) {
    const std::string name = p.filename().string();
    return name == kStamp || isWorkEntry(p) || (name.size() > 9 && name.compare(name.size() - 9, 9, ".building") == 0);
}

uint64_t bytesOf(const fs::directory_entry& e) {
    std::error_code ec;
    if (e.is_symlink(ec)) return 0;
    if (e.is_regular_file(ec)) return e.file_size(ec);
    uint64_t total = 0;
    for (fs::recursive_directory_iterator it(e.path(), fs::directory_options::skip_permission_denied, ec), end;
         !ec && it != end; it.increment(ec)) {
        std::error_code fec;
        if (it->is_regular_file(fec) && !it->is_symlink(fec)) total += it->file_size(fec);
    }
    return total;
}

} // namespace

uint64_t budgetFromEnvironment(const char* variable, uint64_t defaultMb) {
    uint64_t mb = defaultMb;
    if (const char* env = std::getenv(variable); env && *env) {
        char* end = nullptr;
        const unsigned long long v = std::strtoull(env, &end, 10);
        if (end && *end == 0) mb = v;
    }
    return mb << 20;
}

FolderUsage cacheFolderUsage(const fs::path& folder) {
    FolderUsage usage;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        if (it->path().filename() == kStamp) continue;
        usage.bytes += bytesOf(*it);
        ++usage.entries;
    }
    return usage;
}

void markUsed(const fs::path& entry) {
    std::error_code ec;
    fs::last_write_time(entry, fs::file_time_type::clock::now(), ec);
}

TrimResult trimCacheFolder(const fs::path& folder, uint64_t capacity, std::chrono::seconds minAge) {
    struct Item {
        fs::file_time_type used;
        uint64_t bytes;
        fs::path path;
    };
    std::vector<Item> items;
    uint64_t total = 0;
    std::error_code ec;
    for (fs::directory_iterator it(folder, ec), end; !ec && it != end; it.increment(ec)) {
        const uint64_t bytes = bytesOf(*it);
        total += bytes;  // private entries count towards the total but are never dropped here
        if (isPrivateOrLock(it->path())) continue;
        std::error_code tec;
        const auto used = fs::last_write_time(it->path(), tec);
        if (!tec) items.push_back({used, bytes, it->path()});
    }
    TrimResult result;
    if (total <= capacity) return result;
    std::sort(items.begin(), items.end(), [](const Item& a, const Item& b) { return a.used < b.used; });
    const auto keepFrom = fs::file_time_type::clock::now() - minAge;
    for (const auto& item : items) {
        if (total <= capacity || item.used > keepFrom) break;
        std::error_code rec;
        if (fs::remove_all(item.path, rec) > 0 && !rec) {  // a reader holding a mapping keeps its pages
            total -= std::min(total, item.bytes);
            result.freed += item.bytes;
            result.newestDropped = item.used;
        }
    }
    return result;
}

void trimCacheFolderSometimes(const fs::path& folder, std::chrono::seconds interval) {
    const fs::path stamp = folder / kStamp;
    std::error_code ec;
    const auto last = fs::last_write_time(stamp, ec);
    const auto now = fs::file_time_type::clock::now();
    if (!ec && now - last < interval) return;
    // Claimed before the walk, so that concurrent processes do not all walk at once.
    if (!ec) {
        markUsed(stamp);
    } else {
        try {
            writeFile(stamp.string(), "");
        } catch (const std::exception&) {
            return;  // a folder that cannot be written is not ours to trim
        }
    }
    trimCacheFolder(folder, cacheFolderBudget());
}

} // namespace sage::toolchain
