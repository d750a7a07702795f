#include "sage_memory/Transaction.h"

#include "sage_memory/Database.h"

#include <sqlite3.h>

namespace sage::memory {

Transaction::Transaction(Database& db) : db_(&db) {
    if (sqlite3_get_autocommit(db.handle())) {
        db.exec("BEGIN IMMEDIATE");
    } else {
        savepoint_ = db.nextSavepointName();
        db.exec("SAVEPOINT " + savepoint_);
    }
}

Transaction::~Transaction() {
    if (finished_) return;
    // Rolling back never throws here: a failed rollback leaves SQLite to roll back on close.
    if (savepoint_.empty())
        sqlite3_exec(db_->handle(), "ROLLBACK", nullptr, nullptr, nullptr);
    else
        sqlite3_exec(db_->handle(), ("ROLLBACK TO " + savepoint_ + "; RELEASE " + savepoint_).c_str(), nullptr,
                     nullptr, nullptr);
}

void Transaction::commit() {
    db_->exec(savepoint_.empty() ? std::string("COMMIT") : "RELEASE " + savepoint_);
    finished_ = true;
}

} // namespace sage::memory
