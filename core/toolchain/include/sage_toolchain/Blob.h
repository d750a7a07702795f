// Read-only bytes that are either owned in memory or a memory-mapped file. The evaluator hands
// tensors around as Blobs so that cached references and cached run outputs are verified in place
// (mapped, no copy, no decode to double) while fresh outputs stay the vectors the runner returned.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

namespace sage::toolchain {

class Blob {
public:
    Blob() = default;
    static Blob own(std::vector<uint8_t> bytes);
    // Maps `path` read-only; an invalid Blob (valid() false) when the file is missing or unreadable.
    static Blob map(const std::string& path);
    bool valid() const { return valid_; }
    const uint8_t* data() const { return data_; }
    size_t size() const { return size_; }
    // The file a mapped Blob was mapped from (empty for owned bytes): a cache can hard-link it
    // instead of writing the bytes again. The mapping stays valid if the file is renamed or removed.
    const std::string& path() const { return path_; }

private:
    struct Mapping;
    std::shared_ptr<const void> keep_;  // the vector or the mapping; shared so Blobs copy cheaply
    const uint8_t* data_ = nullptr;
    size_t size_ = 0;
    bool valid_ = false;
    std::string path_;
};

} // namespace sage::toolchain
