// SEARCH/REPLACE blocks and unified diffs of a reply, applied to a parent kernel.
#include "FuzzInput.h"
#include "core/agent/src/reply/SourceEdits.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    namespace r = sage::agent::reply;
    static const std::string parent = "a\nconstexpr int TILE = 1024;\nb\n  x = y;\nc\n";
    const std::string text = sage::fuzz::text(data, size);
    try {
        std::string error;
        auto edits = r::findSearchReplace(text, error);
        if (r::looksLikeUnifiedDiff(text)) {
            auto hunks = r::editsFromUnifiedDiff(text);
            edits.insert(edits.end(), hunks.begin(), hunks.end());
        }
        (void)r::applyEdits(parent, edits);
    } catch (const std::exception&) {
    }
    return 0;
}
