#include "sage_memory/ExperienceFields.h"

#include "sage_memory/MemoryError.h"

namespace sage::memory {

std::string joinNames(const std::string_view* names, std::size_t count) {
    std::string out;
    for (std::size_t i = 0; i < count; ++i) {
        if (i) out += ", ";
        out += names[i];
    }
    return out;
}

void throwBadEnum(std::string_view field, std::string_view value, const std::string& choices) {
    throw MemoryError(MemoryError::Code::InvalidInput,
                      std::string(field) + " '" + std::string(value) + "' is not known; use one of: " + choices);
}

} // namespace sage::memory
