// retryingWrite: runs a write that opens its own (outermost) transaction, and runs it once more when
// the server cut that transaction (issue 31). The server rolled everything of the first attempt
// back, so the second starts from the same state; its connection is opened again by PgConnection.
// Only for writes whose effects are all inside the database (no output, no counters) and that are
// not nested in a caller's transaction: then the caller's transaction is lost and the error stands.
#pragma once

#include "sage_memory/Database.h"
#include "sage_memory/MemoryError.h"

namespace sage::memory {

template <class Write> auto retryingWrite(Database& db, Write&& write) {
    const bool outermost = !db.connection().inTransaction();
    try {
        return write();
    } catch (const MemoryError& e) {
        if (!outermost || e.code() != MemoryError::Code::Unavailable || db.connection().inTransaction()) throw;
        return write();
    }
}

} // namespace sage::memory
