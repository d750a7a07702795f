#include "sage_memory/ExperienceStore.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/MemorySchema.h"

namespace sage::memory {

namespace {

std::shared_ptr<Database> migrated(std::shared_ptr<Database> database) {
    if (!database) throw MemoryError(MemoryError::Code::InvalidInput, "ExperienceStore needs an open database");
    database->migrate(MemorySchema::module());
    return database;
}

} // namespace

ExperienceStore::ExperienceStore(const std::filesystem::path& path)
    : ExperienceStore(std::make_shared<Database>(path, std::vector<SchemaModule>{MemorySchema::module()})) {}

ExperienceStore::ExperienceStore(std::shared_ptr<Database> database)
    : db_(migrated(std::move(database))),
      repo_(*db_),
      retriever_(repo_),
      ledger_(repo_),
      distiller_(repo_),
      curator_(repo_),
      exchange_(repo_),
      trials_(repo_, curator_) {}

} // namespace sage::memory
