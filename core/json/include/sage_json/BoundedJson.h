// Parsing JSON that comes from outside (a model server, an import file, a task folder, a device
// profile) with a bound on nesting depth. A document nested thousands of levels deep is valid
// JSON, but copying, dumping or walking it recurses once per level and overflows the stack:
// it is refused before parsing, with an error naming where it came from.
//
// The pre-scan counts [ and { outside strings (escapes honoured), so brackets inside string
// values never count, and costs one pass over the text.
#pragma once

#include <nlohmann/json.hpp>

#include <cstddef>
#include <stdexcept>
#include <string>
#include <string_view>

namespace sage_json {

// Deep enough for every document the workbench reads (they nest fewer than 10 levels).
constexpr size_t kMaxDepth = 256;

class TooDeep : public std::runtime_error {
public:
    using std::runtime_error::runtime_error;
};

// The byte offset at which `text` first nests deeper than maxDepth, or npos when it never does.
inline size_t firstTooDeep(std::string_view text, size_t maxDepth = kMaxDepth) {
    size_t depth = 0;
    bool inString = false, escaped = false;
    for (size_t i = 0; i < text.size(); ++i) {
        const char c = text[i];
        if (inString) {
            if (escaped) escaped = false;
            else if (c == '\\') escaped = true;
            else if (c == '"') inString = false;
            continue;
        }
        if (c == '"') inString = true;
        else if (c == '[' || c == '{') {
            if (++depth > maxDepth) return i;
        } else if ((c == ']' || c == '}') && depth > 0) {
            --depth;
        }
    }
    return std::string_view::npos;
}

inline std::string tooDeepMessage(const std::string& source, size_t offset, size_t maxDepth) {
    return source + ": JSON nested deeper than " + std::to_string(maxDepth) + " levels (at byte " +
           std::to_string(offset) + "); refused: no valid document of this kind nests that deep";
}

// Parses with exceptions: TooDeep (a std::runtime_error) for too deep a document, nlohmann's
// parse_error for invalid JSON. Call sites catch std::exception to cover both.
inline nlohmann::json parse(std::string_view text, const std::string& source, size_t maxDepth = kMaxDepth) {
    if (size_t at = firstTooDeep(text, maxDepth); at != std::string_view::npos)
        throw TooDeep(tooDeepMessage(source, at, maxDepth));
    return nlohmann::json::parse(text);
}

// Never throws: a discarded value for invalid or too deep JSON (like parse(text, nullptr, false)).
inline nlohmann::json parseOrDiscarded(std::string_view text, size_t maxDepth = kMaxDepth) {
    if (firstTooDeep(text, maxDepth) != std::string_view::npos) return nlohmann::json(nlohmann::json::value_t::discarded);
    return nlohmann::json::parse(text, nullptr, false);
}

} // namespace sage_json
