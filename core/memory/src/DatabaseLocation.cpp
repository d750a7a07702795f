#include "sage_memory/DatabaseLocation.h"

#include "sage_memory/MemoryError.h"

#include <algorithm>
#include <cctype>
#include <vector>

namespace sage::memory {

namespace {

bool startsWithNoCase(std::string_view text, std::string_view prefix) {
    return text.size() >= prefix.size() &&
           std::equal(prefix.begin(), prefix.end(), text.begin(), [](char a, char b) {
               return std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b));
           });
}

// [start, end) of the password in "scheme://user:password@host..." or npos.
std::pair<std::size_t, std::size_t> authorityPassword(std::string_view url) {
    const std::size_t scheme = url.find("://");
    if (scheme == std::string_view::npos) return {std::string_view::npos, 0};
    const std::size_t begin = scheme + 3;
    const std::size_t authorityEnd = std::min(url.find('/', begin), url.find('?', begin));
    // The last '@' of the authority ends the user info (a password may itself hold '@' if unescaped).
    const std::size_t at = url.substr(0, authorityEnd).rfind('@');
    if (at == std::string_view::npos || at < begin) return {std::string_view::npos, 0};
    const std::size_t colon = url.find(':', begin);
    if (colon == std::string_view::npos || colon > at) return {std::string_view::npos, 0};
    return {colon + 1, at};
}

// [start, end) of the value of each "password=" parameter in the query part.
std::vector<std::pair<std::size_t, std::size_t>> parameterPasswords(std::string_view url) {
    std::vector<std::pair<std::size_t, std::size_t>> out;
    const std::size_t query = url.find('?');
    if (query == std::string_view::npos) return out;
    std::size_t pos = query + 1;
    while (pos < url.size()) {
        const std::size_t end = std::min(url.find('&', pos), url.size());
        const std::string_view item = url.substr(pos, end - pos);
        if (startsWithNoCase(item, "password=")) out.emplace_back(pos + 9, end);
        pos = end + 1;
    }
    return out;
}

} // namespace

bool DatabaseLocation::isServerUrl(std::string_view location) {
    return startsWithNoCase(location, "postgresql://") || startsWithNoCase(location, "postgres://");
}

bool DatabaseLocation::carriesPassword(std::string_view location) {
    if (!isServerUrl(location)) return false;
    return authorityPassword(location).first != std::string_view::npos || !parameterPasswords(location).empty();
}

std::string DatabaseLocation::redacted(std::string_view location) {
    if (!isServerUrl(location)) return std::string(location);
    std::vector<std::pair<std::size_t, std::size_t>> spans = parameterPasswords(location);
    if (const auto a = authorityPassword(location); a.first != std::string_view::npos) spans.push_back(a);
    std::sort(spans.begin(), spans.end());
    std::string out;
    std::size_t pos = 0;
    for (const auto& [begin, end] : spans) {
        out.append(location.substr(pos, begin - pos));
        out += "***";
        pos = end;
    }
    out.append(location.substr(pos));
    return out;
}

void DatabaseLocation::requireNoPassword(std::string_view location) {
    if (!carriesPassword(location)) return;
    throw MemoryError(MemoryError::Code::InvalidInput,
                      redacted(location) +
                          ": the URL carries a password, which would be visible to other users (ps, shell history, "
                          "Slurm job records). Remove it from the URL and put it in ~/.pgpass "
                          "(host:port:database:user:password, mode 0600) or in the PGPASSWORD environment variable.");
}

} // namespace sage::memory
