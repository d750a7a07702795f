#include "sage_memory/ExperienceRepository.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/TextTokens.h"
#include "sage_memory/ValueModel.h"

#include <chrono>
#include <cstdio>
#include <ctime>
#include <limits>

namespace sage::memory {
using nlohmann::json;

namespace {

constexpr const char* kSelectEntry =
    "SELECT id, title, kind, stage, trigger_category, trigger_diagnostic, trigger_bottleneck, content, code_idiom, "
    "evidence_pattern, action, status, origin, pinned, merged_into, created_at, updated_at, applies_to, "
    "(SELECT coalesce(max(r.revision), 0) FROM experience_revision r WHERE r.experience_id = experience.id) "
    "FROM experience WHERE id = ?1";

std::string appliesToText(const Applicability& a) { return a.empty() ? std::string() : a.toJson().dump(); }

template <class E> void bindOptionalEnum(Statement& stmt, int index, const std::optional<E>& value) {
    if (value) stmt.bind(index, toString(*value));
    else stmt.bindNull(index);
}

StageStats readStageStats(const Statement& row, int first) {
    StageStats s;
    s.stage = requireEnum<Stage>(row.text(first));
    s.q = row.real(first + 1);
    s.retrieved = row.int64(first + 2);
    s.adopted = row.int64(first + 3);
    s.successes = row.int64(first + 4);
    s.ignored = row.int64(first + 5);
    s.rewardSum = row.real(first + 6);
    return s;
}

} // namespace

std::string ExperienceRepository::now() {
    using namespace std::chrono;
    const auto ms = duration_cast<milliseconds>(system_clock::now().time_since_epoch()).count();
    const std::time_t seconds = static_cast<std::time_t>(ms / 1000);
    std::tm utc{};
    gmtime_r(&seconds, &utc);
    char buffer[40];
    const std::size_t n = std::strftime(buffer, sizeof buffer, "%Y-%m-%dT%H:%M:%S", &utc);
    std::snprintf(buffer + n, sizeof buffer - n, ".%03dZ", static_cast<int>(ms % 1000));
    return buffer;
}

void ExperienceRepository::throwNotFound(std::int64_t id) const {
    throw MemoryError(MemoryError::Code::NotFound,
                      db_.path().string() + ": there is no experience #" + std::to_string(id) +
                          ". List the entries with `sage memory --db " + db_.path().string() + " list`.");
}

Experience ExperienceRepository::readRow(const Statement& row) const {
    Experience e;
    e.id = row.int64(0);
    e.title = row.text(1);
    e.kind = requireEnum<ExperienceKind>(row.text(2));
    e.stage = requireEnum<Stage>(row.text(3));
    e.trigger = {row.text(4), row.text(5), row.text(6)};
    e.content = row.text(7);
    e.codeIdiom = row.text(8);
    e.evidencePattern = row.text(9);
    const std::string action = row.text(10);
    e.action = action.empty() ? json(nullptr) : json::parse(action);
    e.status = requireEnum<ExperienceStatus>(row.text(11));
    e.origin = requireEnum<Origin>(row.text(12));
    e.pinned = row.int64(13) != 0;
    e.mergedInto = row.optionalInt64(14);
    e.createdAt = row.text(15);
    e.updatedAt = row.text(16);
    if (const std::string applies = row.text(17); !applies.empty()) e.appliesTo = Applicability::fromJson(json::parse(applies));
    e.revision = static_cast<int>(row.int64(18));
    return e;
}

std::int64_t ExperienceRepository::insert(const Experience& e) {
    if (const auto problems = e.problems(); !problems.empty())
        throw MemoryError(MemoryError::Code::InvalidInput, "cannot store experience '" + e.title + "': " + problems.front());
    if (e.id != 0 && exists(e.id))
        throw MemoryError(MemoryError::Code::Conflict, db_.path().string() + ": experience #" + std::to_string(e.id) +
                                                           " already exists; store it without an id to get a new one.");
    Transaction tx(db_);
    const std::string stamp = now();
    {
        // Without an id the column is left out, so that the database assigns one (PostgreSQL's
        // identity column does not treat an explicit NULL as "assign").
        auto stmt = db_.cached(
            e.id != 0
                ? "INSERT INTO experience(id, title, kind, stage, trigger_category, trigger_diagnostic, trigger_bottleneck, "
                  "content, code_idiom, evidence_pattern, action, status, origin, pinned, merged_into, created_at, "
                  "updated_at, applies_to) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                  "?17, ?18)"
                : "INSERT INTO experience(title, kind, stage, trigger_category, trigger_diagnostic, trigger_bottleneck, "
                  "content, code_idiom, evidence_pattern, action, status, origin, pinned, merged_into, created_at, "
                  "updated_at, applies_to) VALUES (?2, ?3, ?4, ?5, ?6, ?7, ?8, ?9, ?10, ?11, ?12, ?13, ?14, ?15, ?16, "
                  "?17, ?18)");
        if (e.id != 0) stmt->bind(1, e.id);
        stmt->bind(2, e.title).bind(3, toString(e.kind)).bind(4, toString(e.stage));
        stmt->bind(5, e.trigger.category).bind(6, e.trigger.diagnostic).bind(7, e.trigger.bottleneck);
        stmt->bind(8, e.content).bind(9, e.codeIdiom).bind(10, e.evidencePattern).bind(11, e.actionText());
        stmt->bind(12, toString(e.status)).bind(13, toString(e.origin)).bind(14, e.pinned ? 1 : 0);
        stmt->bind(15, e.mergedInto);
        stmt->bind(16, e.createdAt.empty() ? stamp : e.createdAt);
        stmt->bind(17, e.updatedAt.empty() ? stamp : e.updatedAt);
        stmt->bind(18, appliesToText(e.appliesTo));
        stmt->run();
    }
    const std::int64_t id = e.id != 0 ? e.id : db_.lastInsertId();
    // An explicit id (an import) does not advance PostgreSQL's identity sequence: move it past the
    // largest id, so the next new entry does not collide.
    if (e.id != 0 && db_.isPostgres())
        db_.exec("SELECT setval(pg_get_serial_sequence('experience', 'id'), (SELECT max(id) FROM experience))");
    for (const Provenance& p : e.provenance) addProvenance(id, p);
    tx.commit();
    return id;
}

std::optional<Experience> ExperienceRepository::find(std::int64_t id) {
    std::optional<Experience> out;
    {
        auto stmt = db_.cached(kSelectEntry);
        stmt->bind(1, id);
        if (!stmt->step()) return std::nullopt;
        out = readRow(*stmt);
    }
    out->provenance = provenance(id);
    return out;
}

Experience ExperienceRepository::get(std::int64_t id) {
    auto e = find(id);
    if (!e) throwNotFound(id);
    return std::move(*e);
}

bool ExperienceRepository::exists(std::int64_t id) {
    auto stmt = db_.cached("SELECT 1 FROM experience WHERE id = ?1");
    stmt->bind(1, id);
    return stmt->step();
}

void ExperienceRepository::update(const Experience& e) {
    if (const auto problems = e.problems(); !problems.empty())
        throw MemoryError(MemoryError::Code::InvalidInput,
                          "cannot save experience #" + std::to_string(e.id) + ": " + problems.front());
    auto stmt = db_.cached(
        "UPDATE experience SET title = ?2, kind = ?3, stage = ?4, trigger_category = ?5, trigger_diagnostic = ?6, "
        "trigger_bottleneck = ?7, content = ?8, code_idiom = ?9, evidence_pattern = ?10, action = ?11, status = ?12, "
        "origin = ?13, pinned = ?14, merged_into = ?15, updated_at = ?16, applies_to = ?17 WHERE id = ?1");
    stmt->bind(1, e.id).bind(2, e.title).bind(3, toString(e.kind)).bind(4, toString(e.stage));
    stmt->bind(5, e.trigger.category).bind(6, e.trigger.diagnostic).bind(7, e.trigger.bottleneck);
    stmt->bind(8, e.content).bind(9, e.codeIdiom).bind(10, e.evidencePattern).bind(11, e.actionText());
    stmt->bind(12, toString(e.status)).bind(13, toString(e.origin)).bind(14, e.pinned ? 1 : 0);
    stmt->bind(15, e.mergedInto).bind(16, now()).bind(17, appliesToText(e.appliesTo));
    stmt->run();
    if (db_.changes() == 0) throwNotFound(e.id);
}

void ExperienceRepository::remove(std::int64_t id) {
    auto stmt = db_.cached("DELETE FROM experience WHERE id = ?1");
    stmt->bind(1, id).run();
    if (db_.changes() == 0) throwNotFound(id);
}

void ExperienceRepository::linkMerged(std::int64_t id, std::optional<std::int64_t> target) {
    auto stmt = db_.cached("UPDATE experience SET merged_into = ?2 WHERE id = ?1");
    stmt->bind(1, id).bind(2, target).run();
    if (db_.changes() == 0) throwNotFound(id);
}

std::optional<std::int64_t> ExperienceRepository::findByText(const std::string& title, const std::string& content) {
    auto stmt = db_.cached("SELECT id FROM experience WHERE title = ?1 AND content = ?2 ORDER BY id LIMIT 1");
    stmt->bind(1, title).bind(2, content);
    if (!stmt->step()) return std::nullopt;
    return stmt->int64(0);
}

std::vector<ExperienceSummary> ExperienceRepository::list(const ExperienceFilter& filter) {
    auto stmt = db_.cached(
        "SELECT e.id, e.title, e.kind, e.stage, e.trigger_category, e.trigger_diagnostic, e.trigger_bottleneck, "
        "e.status, e.origin, e.pinned, e.merged_into, e.updated_at, "
        "s.stage, s.q, s.retrieved, s.adopted, s.successes, s.ignored, s.reward_sum, "
        "(SELECT coalesce(max(r.revision), 0) FROM experience_revision r WHERE r.experience_id = e.id), "
        "coalesce((SELECT r.author FROM experience_revision r WHERE r.experience_id = e.id "
        "          ORDER BY r.revision DESC LIMIT 1), '') "
        // CAST(? AS TEXT): PostgreSQL must know a parameter's type even where it is only tested for NULL.
        "FROM (SELECT * FROM experience WHERE (CAST(?1 AS TEXT) IS NULL OR status = ?1) "
        "  AND (CAST(?2 AS TEXT) IS NULL OR stage = ?2) "
        "  AND (CAST(?3 AS TEXT) IS NULL OR kind = ?3) AND (CAST(?4 AS TEXT) IS NULL OR origin = ?4) "
        "  AND (?5 = 0 OR pinned = 1) "
        "  AND (?6 = 0 OR id IN (SELECT experience_id FROM experience_stats GROUP BY experience_id "
        "        HAVING sum(retrieved) >= ?8 AND sum(adopted) < ?9 * sum(retrieved))) "
        + std::string(db_.isPostgres()
                          ? "  AND (CAST(?7 AS TEXT) IS NULL OR search @@ to_tsquery('sage_fts', ?7)) "
                          : "  AND (?7 IS NULL OR id IN (SELECT rowid FROM experience_fts WHERE experience_fts MATCH ?7)) ") +
        "  ORDER BY id LIMIT ?10 OFFSET ?11) e "
        "LEFT JOIN experience_stats s ON s.experience_id = e.id ORDER BY e.id");
    bindOptionalEnum(*stmt, 1, filter.status);
    bindOptionalEnum(*stmt, 2, filter.stage);
    bindOptionalEnum(*stmt, 3, filter.kind);
    bindOptionalEnum(*stmt, 4, filter.origin);
    stmt->bind(5, filter.pinnedOnly ? 1 : 0).bind(6, filter.flaggedOnly ? 1 : 0);
    const std::string query = TextTokens::ftsQuery(TextTokens::keywords(filter.text));
    if (query.empty()) stmt->bindNull(7);
    else stmt->bind(7, db_.isPostgres() ? TextTokens::tsQuery(query) : query);
    stmt->bind(8, static_cast<std::int64_t>(ValueModel::kReviewMinRetrievals))
        .bind(9, ValueModel::kReviewMaxAdoptionRate)
        .bind(10, filter.limit > 0 ? std::int64_t{filter.limit} : std::numeric_limits<std::int64_t>::max())
        .bind(11, filter.offset > 0 ? filter.offset : 0);
    std::vector<ExperienceSummary> out;
    while (stmt->step()) {
        if (out.empty() || out.back().id != stmt->int64(0)) {
            ExperienceSummary s;
            s.id = stmt->int64(0);
            s.title = stmt->text(1);
            s.kind = requireEnum<ExperienceKind>(stmt->text(2));
            s.stage = requireEnum<Stage>(stmt->text(3));
            s.trigger = {stmt->text(4), stmt->text(5), stmt->text(6)};
            s.status = requireEnum<ExperienceStatus>(stmt->text(7));
            s.origin = requireEnum<Origin>(stmt->text(8));
            s.pinned = stmt->int64(9) != 0;
            s.mergedInto = stmt->optionalInt64(10);
            s.updatedAt = stmt->text(11);
            s.revision = static_cast<int>(stmt->int64(19));
            s.lastChangedBy = stmt->text(20);
            out.push_back(std::move(s));
        }
        if (!stmt->isNull(12)) {
            const StageStats stage = readStageStats(*stmt, 12);
            out.back().stats.at(stage.stage) = stage;
        }
    }
    return out;
}

std::int64_t ExperienceRepository::count() {
    auto stmt = db_.cached("SELECT count(*) FROM experience");
    stmt->step();
    return stmt->int64(0);
}

std::vector<std::int64_t> ExperienceRepository::withTriggerAndAction(const Trigger& trigger, const std::string& actionText) {
    auto stmt = db_.cached(
        "SELECT id FROM experience WHERE trigger_category = ?1 AND trigger_diagnostic = ?2 AND trigger_bottleneck = ?3 "
        "AND action = ?4 AND status <> 'archived' ORDER BY id");
    stmt->bindAll(trigger.category, trigger.diagnostic, trigger.bottleneck, actionText);
    std::vector<std::int64_t> ids;
    while (stmt->step()) ids.push_back(stmt->int64(0));
    return ids;
}

std::vector<std::int64_t> ExperienceRepository::textMatches(const std::string& ftsQuery, int limit) {
    std::vector<std::int64_t> ids;
    if (ftsQuery.empty()) return ids;
    auto stmt = db_.cached(db_.isPostgres()
                               ? "SELECT id FROM experience WHERE search @@ to_tsquery('sage_fts', ?1) "
                                 "ORDER BY ts_rank('{0.1, 0.5, 0.75, 1.0}', search, to_tsquery('sage_fts', ?1), 1) DESC, "
                                 "id LIMIT ?2"
                               : "SELECT rowid FROM experience_fts WHERE experience_fts MATCH ?1 ORDER BY rank LIMIT ?2");
    stmt->bind(1, db_.isPostgres() ? TextTokens::tsQuery(ftsQuery) : ftsQuery).bind(2, limit);
    while (stmt->step()) ids.push_back(stmt->int64(0));
    return ids;
}

std::vector<Provenance> ExperienceRepository::provenance(std::int64_t id) {
    auto stmt = db_.cached(
        "SELECT task, run, iteration, diff, note FROM experience_provenance WHERE experience_id = ?1 ORDER BY seq");
    stmt->bind(1, id);
    std::vector<Provenance> out;
    while (stmt->step())
        out.push_back({stmt->text(0), stmt->optionalInt64(1), stmt->optionalInt64(2), stmt->text(3), stmt->text(4)});
    return out;
}

void ExperienceRepository::addProvenance(std::int64_t id, const Provenance& p) {
    auto stmt = db_.cached(
        "INSERT INTO experience_provenance(experience_id, seq, task, run, iteration, diff, note) "
        "VALUES (?1, (SELECT coalesce(max(seq), 0) + 1 FROM experience_provenance WHERE experience_id = ?1), "
        "?2, ?3, ?4, ?5, ?6)");
    stmt->bind(1, id).bind(2, p.task).bind(3, p.run).bind(4, p.iteration).bind(5, p.diff).bind(6, p.note);
    stmt->run();
}

ExperienceStats ExperienceRepository::stats(std::int64_t id) {
    auto stmt = db_.cached(
        "SELECT stage, q, retrieved, adopted, successes, ignored, reward_sum FROM experience_stats WHERE experience_id = ?1");
    stmt->bind(1, id);
    ExperienceStats out;
    while (stmt->step()) {
        const StageStats s = readStageStats(*stmt, 0);
        out.at(s.stage) = s;
    }
    return out;
}

StageStats ExperienceRepository::stageStats(std::int64_t id, Stage stage) {
    auto stmt = db_.cached(
        "SELECT stage, q, retrieved, adopted, successes, ignored, reward_sum FROM experience_stats "
        "WHERE experience_id = ?1 AND stage = ?2");
    stmt->bind(1, id).bind(2, toString(stage));
    if (stmt->step()) return readStageStats(*stmt, 0);
    StageStats fresh;
    fresh.stage = stage;
    fresh.q = ValueModel::kInitialQ;
    return fresh;
}

void ExperienceRepository::saveStageStats(std::int64_t id, const StageStats& s) {
    auto stmt = db_.cached(
        "INSERT INTO experience_stats(experience_id, stage, q, retrieved, adopted, successes, ignored, reward_sum) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7, ?8) ON CONFLICT(experience_id, stage) DO UPDATE SET q = excluded.q, "
        "retrieved = excluded.retrieved, adopted = excluded.adopted, successes = excluded.successes, "
        "ignored = excluded.ignored, reward_sum = excluded.reward_sum");
    stmt->bind(1, id).bind(2, toString(s.stage)).bind(3, s.q).bind(4, s.retrieved).bind(5, s.adopted);
    stmt->bind(6, s.successes).bind(7, s.ignored).bind(8, s.rewardSum);
    stmt->run();
}

void ExperienceRepository::appendValuePoint(const ValuePoint& p) {
    auto stmt = db_.cached(
        "INSERT INTO q_history(experience_id, stage, q, cause, run, iteration, at) VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    stmt->bind(1, p.experienceId).bind(2, toString(p.stage)).bind(3, p.q).bind(4, p.cause);
    stmt->bind(5, p.run).bind(6, p.iteration).bind(7, p.at.empty() ? now() : p.at);
    stmt->run();
}

std::vector<ValuePoint> ExperienceRepository::qHistory(std::int64_t id, bool includeMerged) {
    auto stmt = db_.cached(
        "WITH RECURSIVE family(id) AS (SELECT ?1 UNION SELECT e.id FROM experience e JOIN family f "
        "  ON e.merged_into = f.id WHERE ?2 <> 0) "
        "SELECT experience_id, stage, q, cause, run, iteration, at FROM q_history "
        "WHERE experience_id IN (SELECT id FROM family) ORDER BY at, id");
    stmt->bind(1, id).bind(2, includeMerged ? 1 : 0);
    std::vector<ValuePoint> out;
    while (stmt->step()) {
        ValuePoint p;
        p.experienceId = stmt->int64(0);
        p.stage = requireEnum<Stage>(stmt->text(1));
        p.q = stmt->real(2);
        p.cause = stmt->text(3);
        p.run = stmt->optionalInt64(4);
        p.iteration = stmt->optionalInt64(5);
        p.at = stmt->text(6);
        out.push_back(std::move(p));
    }
    return out;
}

int ExperienceRepository::addRevision(std::int64_t id, const json& previous, const std::string& author,
                                      const std::string& reason) {
    Revision revision;
    {
        auto next = db_.cached("SELECT coalesce(max(revision), 0) + 1 FROM experience_revision WHERE experience_id = ?1");
        next->bind(1, id);
        next->step();
        revision.revision = static_cast<int>(next->int64(0));
    }
    revision.previous = previous;
    revision.author = author.empty() ? "unknown" : author;
    revision.reason = reason;
    revision.at = now();
    insertRevision(id, revision);
    return revision.revision;
}

void ExperienceRepository::insertRevision(std::int64_t id, const Revision& r) {
    auto stmt = db_.cached(
        "INSERT INTO experience_revision(experience_id, revision, previous, author, reason, at) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6)");
    stmt->bind(1, id).bind(2, r.revision).bind(3, r.previous.dump()).bind(4, r.author).bind(5, r.reason).bind(6, r.at);
    stmt->run();
}

std::vector<Revision> ExperienceRepository::revisions(std::int64_t id) {
    auto stmt = db_.cached(
        "SELECT revision, previous, author, reason, at FROM experience_revision WHERE experience_id = ?1 "
        "ORDER BY revision");
    stmt->bind(1, id);
    std::vector<Revision> out;
    while (stmt->step())
        out.push_back({static_cast<int>(stmt->int64(0)), json::parse(stmt->text(1)), stmt->text(2), stmt->text(3),
                       stmt->text(4)});
    return out;
}

int ExperienceRepository::currentRevision(std::int64_t id) {
    auto stmt = db_.cached("SELECT coalesce(max(revision), 0) FROM experience_revision WHERE experience_id = ?1");
    stmt->bind(1, id);
    return stmt->step() ? static_cast<int>(stmt->int64(0)) : 0;
}

void ExperienceRepository::addAudit(const AuditRecord& r) {
    auto stmt = db_.cached(
        "INSERT INTO memory_audit(experience_id, revision, action, author, reason, at, account) "
        "VALUES (?1, ?2, ?3, ?4, ?5, ?6, ?7)");
    stmt->bind(1, r.experienceId).bind(2, r.revision).bind(3, r.action);
    stmt->bind(4, r.author.empty() ? std::string("unknown") : r.author).bind(5, r.reason);
    stmt->bind(6, r.at.empty() ? now() : r.at).bind(7, r.account);  // PostgreSQL sets session_user itself
    stmt->run();
}

std::vector<AuditRecord> ExperienceRepository::auditLog(std::int64_t id, int limit) {
    auto stmt = db_.cached(
        "SELECT id, experience_id, revision, action, author, reason, at, account FROM memory_audit "
        "WHERE ?1 = 0 OR experience_id = ?1 ORDER BY id DESC LIMIT ?2");
    stmt->bind(1, id).bind(2, limit > 0 ? std::int64_t{limit} : std::numeric_limits<std::int64_t>::max());
    std::vector<AuditRecord> out;
    while (stmt->step())
        out.push_back({stmt->int64(0), stmt->int64(1), static_cast<int>(stmt->int64(2)), stmt->text(3), stmt->text(4),
                       stmt->text(5), stmt->text(6), stmt->text(7)});
    return out;
}

std::optional<std::string> ExperienceRepository::metadata(const std::string& key) {
    auto stmt = db_.cached("SELECT value FROM memory_meta WHERE key = ?1");
    stmt->bind(1, key);
    if (!stmt->step()) return std::nullopt;
    return stmt->text(0);
}

void ExperienceRepository::setMetadata(const std::string& key, const std::string& value) {
    auto stmt = db_.cached(
        "INSERT INTO memory_meta(key, value) VALUES (?1, ?2) ON CONFLICT(key) DO UPDATE SET value = excluded.value");
    stmt->bind(1, key).bind(2, value).run();
}

} // namespace sage::memory
