// ExperienceStore: the experience memory behind one SQLite file — the entry point the agent,
// the CLI and the GUI use. It owns a connection (Database) and the parts that work on it:
//
//   entries      add / get / list / stats / revisions / qHistory       (ExperienceRepository)
//   retrieval    retrieve(context)                                      (Retriever)
//   adoption     recordRetrievals / recordOutcome / flaggedForReview    (AdoptionLedger)
//   distillation addProposed                                            (Distiller)
//   curation     approve / reject / edit / merge / archive / remove / setPinned (Curator)
//   trials       lessons on trial promoted or retired by their learned value (TrialLifecycle)
//   exchange     exportTo / importFrom (JSON Lines)                      (JsonlExchange)
//
// Threads: one ExperienceStore is one connection and belongs to one thread at a time; each thread
// (the GUI, the agent worker) opens its own ExperienceStore on the same file. WAL mode lets them
// read while another writes; writers wait up to Database::kBusyTimeoutMs for each other.
#pragma once

#include "sage_memory/AdoptionLedger.h"
#include "sage_memory/Curator.h"
#include "sage_memory/Database.h"
#include "sage_memory/Distiller.h"
#include "sage_memory/ExperienceRepository.h"
#include "sage_memory/JsonlExchange.h"
#include "sage_memory/Retriever.h"
#include "sage_memory/StoreOverview.h"
#include "sage_memory/TrialLifecycle.h"

#include <filesystem>
#include <memory>

namespace sage::memory {

class ExperienceStore {
public:
    // Opens or creates the file and migrates the memory schema. Throws MemoryError (file untouched)
    // for a file that is not SQLite, is damaged, or has a newer schema.
    explicit ExperienceStore(const std::filesystem::path& path);
    // Works on a connection another module opened (e.g. with its own schema modules as well);
    // migrates the memory schema on it.
    explicit ExperienceStore(std::shared_ptr<Database> database);

    Database& database() { return *db_; }
    std::shared_ptr<Database> sharedDatabase() const { return db_; }
    const std::filesystem::path& path() const { return db_->path(); }

    // Entries
    std::int64_t add(const Experience& e) { return repo_.insert(e); }
    // The same by a person: with an audit line "added" (issue 31).
    std::int64_t add(const Experience& e, const ChangeNote& note) { return curator_.add(e, note); }
    Experience get(std::int64_t id) { return repo_.get(id); }
    std::optional<Experience> find(std::int64_t id) { return repo_.find(id); }
    std::vector<ExperienceSummary> list(const ExperienceFilter& filter = {}) { return repo_.list(filter); }
    std::int64_t count() { return repo_.count(); }
    ExperienceStats stats(std::int64_t id) { return repo_.stats(id); }
    std::vector<Revision> revisions(std::int64_t id) { return repo_.revisions(id); }
    std::vector<ValuePoint> qHistory(std::int64_t id, bool includeMerged = true) { return repo_.qHistory(id, includeMerged); }
    StoreOverview overview() { return StoreOverview::of(repo_); }

    // Retrieval and adoption
    std::vector<ScoredExperience> retrieve(const RetrievalContext& context) { return retriever_.retrieve(context); }
    void recordRetrievals(std::int64_t run, std::int64_t iteration, Stage stage, const std::vector<ScoredExperience>& items) {
        ledger_.recordRetrievals(run, iteration, stage, items);
    }
    CreditReport recordOutcome(std::int64_t run, std::int64_t iteration, const std::vector<AdoptionSignal>& adoptions,
                               const IterationOutcome& outcome) {
        CreditReport report = ledger_.recordOutcome(run, iteration, adoptions, outcome);
        trials_.settle(report);  // lessons on trial whose learned value now decides
        return report;
    }
    std::vector<ExperienceSummary> flaggedForReview() {
        ExperienceFilter filter;
        filter.flaggedOnly = true;
        return repo_.list(filter);
    }
    ProposalResult addProposed(const Proposal& proposal) { return distiller_.addProposed(proposal); }

    // Curation
    bool approve(std::int64_t id, const ChangeNote& note = {}) { return curator_.approve(id, note); }
    bool reject(std::int64_t id, const ChangeNote& note = {}) { return curator_.reject(id, note); }
    bool archive(std::int64_t id, const ChangeNote& note = {}) { return curator_.archive(id, note); }
    bool setPinned(std::int64_t id, bool pinned, const ChangeNote& note = {}) { return curator_.setPinned(id, pinned, note); }
    std::vector<std::string> edit(std::int64_t id, const ExperiencePatch& patch, const ChangeNote& note = {}) {
        return curator_.edit(id, patch, note);
    }
    void merge(std::int64_t kept, std::int64_t absorbed, const ChangeNote& note = {}) { curator_.merge(kept, absorbed, note); }
    void remove(std::int64_t id, const ChangeNote& note = {}) { curator_.remove(id, note); }
    // Who approved, rejected, edited, merged or deleted what, newest first; id 0 = every entry.
    std::vector<AuditRecord> auditLog(std::int64_t id = 0, int limit = 100) { return repo_.auditLog(id, limit); }
    // Facts about the whole memory, e.g. which `sage bench --phase learn` filled it.
    std::optional<std::string> metadata(const std::string& key) { return repo_.metadata(key); }
    void setMetadata(const std::string& key, const std::string& value) { repo_.setMetadata(key, value); }

    // Exchange
    int exportTo(const std::filesystem::path& file, const ExperienceFilter& filter = {}) {
        return exchange_.exportTo(file, filter);
    }
    ImportReport importFrom(const std::filesystem::path& file, const ChangeNote& note = {}) {
        return exchange_.importFrom(file, note);
    }

    // The parts, for what the shortcuts above do not cover.
    ExperienceRepository& repository() { return repo_; }
    Retriever& retriever() { return retriever_; }
    AdoptionLedger& ledger() { return ledger_; }
    Distiller& distiller() { return distiller_; }
    Curator& curator() { return curator_; }
    JsonlExchange& exchange() { return exchange_; }

private:
    std::shared_ptr<Database> db_;
    ExperienceRepository repo_;
    Retriever retriever_;
    AdoptionLedger ledger_;
    Distiller distiller_;
    Curator curator_;
    JsonlExchange exchange_;
    TrialLifecycle trials_;
};

} // namespace sage::memory
