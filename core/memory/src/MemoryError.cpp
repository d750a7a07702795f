#include "sage_memory/MemoryError.h"

namespace sage::memory {

MemoryError::MemoryError(Code code, const std::string& message)
    : std::runtime_error(message), code_(code) {}

const char* MemoryError::codeName(Code code) noexcept {
    switch (code) {
    case Code::InvalidInput: return "invalid_input";
    case Code::NotFound: return "not_found";
    case Code::Conflict: return "conflict";
    case Code::NotADatabase: return "not_a_database";
    case Code::SchemaTooNew: return "schema_too_new";
    case Code::Sqlite: return "sqlite";
    case Code::Io: return "io";
    case Code::Unavailable: return "unavailable";
    }
    return "unknown";
}

} // namespace sage::memory
