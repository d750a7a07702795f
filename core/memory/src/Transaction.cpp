#include "sage_memory/Transaction.h"

#include "sage_memory/Database.h"

namespace sage::memory {

Transaction::Transaction(Database& db) : db_(&db) {
    if (!db.connection().inTransaction()) {
        db.connection().beginWrite();
    } else {
        savepoint_ = db.nextSavepointName();
        db.exec("SAVEPOINT " + savepoint_);
    }
}

Transaction::~Transaction() {
    if (finished_) return;
    // Rolling back never throws here: a failed rollback leaves the server to roll back on close.
    db_->connection().rollbackQuietly(savepoint_);
}

void Transaction::commit() {
    db_->exec(savepoint_.empty() ? std::string("COMMIT") : "RELEASE " + savepoint_);
    finished_ = true;
}

} // namespace sage::memory
