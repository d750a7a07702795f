// Transaction: RAII write transaction. The outermost one is BEGIN IMMEDIATE (takes the write
// lock up front, so a busy database waits busy_timeout instead of failing mid-way); a nested
// one becomes a SAVEPOINT. Not committed by the end of scope => rolled back.
#pragma once

#include <string>

namespace sage::memory {

class Database;

class Transaction {
public:
    explicit Transaction(Database& db);
    ~Transaction();
    Transaction(const Transaction&) = delete;
    Transaction& operator=(const Transaction&) = delete;

    void commit();

private:
    Database* db_;
    std::string savepoint_;  // empty for the outermost transaction
    bool finished_ = false;
};

} // namespace sage::memory
