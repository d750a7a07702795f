// MemoryError: the one exception type of sage::memory. Its message says what is wrong,
// where (file, line, entry id) and what to do about it; code() lets callers pick an exit status.
#pragma once

#include <stdexcept>
#include <string>

namespace sage::memory {

class MemoryError : public std::runtime_error {
public:
    enum class Code {
        InvalidInput,  // a field, flag or file line the caller gave is not acceptable
        NotFound,      // no experience (or record) with that id
        Conflict,      // the operation contradicts the current state (e.g. outcome already recorded)
        NotADatabase,  // the file is not a SQLite database, or it is damaged
        SchemaTooNew,  // the file was written by a newer SAGE
        Sqlite,        // any other SQLite failure
        Io,            // reading or writing a file failed
        Unavailable,   // the database server cannot be reached (no answer, down, connection lost for good)
    };

    MemoryError(Code code, const std::string& message);

    Code code() const noexcept { return code_; }

    // A stable word for the code ("invalid_input", "not_found", ...), for JSON output.
    static const char* codeName(Code code) noexcept;

private:
    Code code_;
};

} // namespace sage::memory
