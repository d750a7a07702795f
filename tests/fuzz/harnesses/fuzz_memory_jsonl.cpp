// A memory import (JSONL): JsonlExchange::read into a scratch database.
#include "FuzzInput.h"
#include "sage_memory/Database.h"
#include "sage_memory/ExperienceRepository.h"
#include "sage_memory/JsonlExchange.h"
#include "sage_memory/MemorySchema.h"

#include <sstream>

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    static sage::memory::Database db((sage::fuzz::scratch() / "memory.db").string(), {sage::memory::MemorySchema::module()});
    static sage::memory::ExperienceRepository repo(db);
    sage::memory::JsonlExchange exchange(repo);
    std::istringstream in(sage::fuzz::text(data, size));
    try {
        exchange.read(in, "fuzz.jsonl");
    } catch (const std::exception&) {
    }
    return 0;
}
