// DatabaseLocation: what `--db` names — a SQLite file path, or a PostgreSQL server as a
// postgresql:// (or postgres://) URL (issue 16).
//
// Credentials never travel in the URL: a URL that carries a password (user:secret@host, or a
// password= parameter) is refused, because command lines are visible to other users (ps, shell
// history, Slurm job records). libpq takes the password from PGPASSWORD or ~/.pgpass. Every
// message and every stored name uses redacted(), which masks a password if one slipped through.
#pragma once

#include <string>
#include <string_view>

namespace sage::memory {

class DatabaseLocation {
public:
    static bool isServerUrl(std::string_view location);
    // The URL with any password (in the authority or as password=...) replaced by "***".
    static std::string redacted(std::string_view location);
    static bool carriesPassword(std::string_view location);
    // Throws MemoryError(InvalidInput) for a server URL carrying a password; the message shows the
    // redacted URL and says where the password goes instead.
    static void requireNoPassword(std::string_view location);
};

} // namespace sage::memory
