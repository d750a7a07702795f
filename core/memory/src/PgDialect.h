// PgDialect: the store's SQL (SQLite's dialect) as PostgreSQL runs it. Only what the store and
// the modules on it use is translated; anything else is left for the server to reject loudly.
#pragma once

#include <string>
#include <string_view>
#include <vector>

namespace sage::memory {

class PgDialect {
public:
    struct Translated {
        std::string sql;
        int parameters = 0;      // highest $N used
        std::vector<bool> used;  // used[N-1]: $N appears (an unused one still needs a type)
    };
    // "?", "?N" → "$N" (outside quotes): a bare "?" takes the next number, as in SQLite.
    static Translated placeholders(std::string_view sql);
    // Schema text of a module without its own PostgreSQL migration: INTEGER PRIMARY KEY (rowid
    // alias) → identity column, INTEGER → BIGINT, REAL → DOUBLE PRECISION, WITHOUT ROWID dropped,
    // json_type(col) → jsonb_typeof(col::jsonb).
    static std::string ddl(std::string_view sql);
    // Functions SQLite has built in that the translated SQL calls: strftime(format, 'now').
    static const char* compatibilityFunctions();
};

} // namespace sage::memory
