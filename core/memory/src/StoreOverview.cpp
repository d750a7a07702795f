#include "sage_memory/StoreOverview.h"

#include "sage_memory/ValueModel.h"

namespace sage::memory {
using nlohmann::json;

namespace {

template <class E> std::map<std::string, std::int64_t> zeroCounts() {
    std::map<std::string, std::int64_t> out;
    for (const std::string_view name : EnumNames<E>::names) out[std::string(name)] = 0;
    return out;
}

void countBy(Database& db, const std::string& column, std::map<std::string, std::int64_t>& into) {
    auto stmt = db.cached("SELECT " + column + ", count(*) FROM experience GROUP BY " + column);
    while (stmt->step()) into[stmt->text(0)] = stmt->int64(1);
}

std::int64_t scalar(Database& db, const std::string& sql) {
    auto stmt = db.cached(sql);
    return stmt->step() ? stmt->int64(0) : 0;
}

} // namespace

StoreOverview StoreOverview::of(ExperienceRepository& repository) {
    Database& db = repository.database();
    StoreOverview o;
    o.byStatus = zeroCounts<ExperienceStatus>();
    o.byStage = zeroCounts<Stage>();
    o.byKind = zeroCounts<ExperienceKind>();
    o.byOrigin = zeroCounts<Origin>();
    o.entries = scalar(db, "SELECT count(*) FROM experience");
    countBy(db, "status", o.byStatus);
    countBy(db, "stage", o.byStage);
    countBy(db, "kind", o.byKind);
    countBy(db, "origin", o.byOrigin);
    o.pinned = scalar(db, "SELECT count(*) FROM experience WHERE pinned = 1");
    {
        auto stmt = db.cached(
            "SELECT count(*) FROM (SELECT experience_id FROM experience_stats GROUP BY experience_id "
            "HAVING sum(retrieved) >= ?1 AND sum(adopted) < ?2 * sum(retrieved)) AS flagged");
        stmt->bind(1, static_cast<std::int64_t>(ValueModel::kReviewMinRetrievals)).bind(2, ValueModel::kReviewMaxAdoptionRate);
        o.flagged = stmt->step() ? stmt->int64(0) : 0;
    }
    o.retrievals = scalar(db, "SELECT count(*) FROM retrieval");
    o.resolved = scalar(db, "SELECT count(*) FROM retrieval WHERE adoption_weight IS NOT NULL");
    o.adopted = scalar(db, "SELECT count(*) FROM retrieval WHERE adoption_weight > 0");
    for (const Stage stage : kLearningStages) {
        auto stmt = db.cached(
            "SELECT e.id, e.title, s.q, s.adopted FROM experience_stats s JOIN experience e ON e.id = s.experience_id "
            "WHERE s.stage = ?1 AND e.status <> 'archived' ORDER BY s.q DESC, e.id LIMIT 3");
        stmt->bind(1, toString(stage));
        while (stmt->step()) o.top.push_back({stage, stmt->int64(0), stmt->text(1), stmt->real(2), stmt->int64(3)});
    }
    return o;
}

json StoreOverview::toJson() const {
    json topJson = json::array();
    for (const TopEntry& t : top)
        topJson.push_back({{"stage", toString(t.stage)}, {"id", t.id}, {"title", t.title}, {"q", t.q}, {"adopted", t.adopted}});
    return json{{"entries", entries},       {"by_status", byStatus}, {"by_stage", byStage},
                {"by_kind", byKind},        {"by_origin", byOrigin}, {"pinned", pinned},
                {"flagged", flagged},       {"retrievals", retrievals}, {"resolved", resolved},
                {"adopted", adopted},       {"top", topJson}};
}

} // namespace sage::memory
