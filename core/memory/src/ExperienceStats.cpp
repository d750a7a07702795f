#include "sage_memory/ExperienceStats.h"

#include "sage_memory/MemoryError.h"
#include "sage_memory/ValueModel.h"

namespace sage::memory {
using nlohmann::json;

namespace {

std::size_t indexOf(Stage stage) {
    if (stage == Stage::Any)
        throw MemoryError(MemoryError::Code::InvalidInput,
                          "stage 'any' has no learned value; use draft, repair or optimize");
    return static_cast<std::size_t>(stage);
}

template <class T> T field(const json& object, const char* key, const char* where) {
    const auto it = object.find(key);
    if (it == object.end())
        throw MemoryError(MemoryError::Code::InvalidInput, std::string(where) + ": field '" + key + "' is missing");
    try {
        return it->get<T>();
    } catch (const json::exception&) {
        throw MemoryError(MemoryError::Code::InvalidInput,
                          std::string(where) + ": field '" + key + "' has the wrong type (" + it->type_name() + ")");
    }
}

json optionalInt(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }

std::optional<std::int64_t> optionalIntField(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer())
        throw MemoryError(MemoryError::Code::InvalidInput, std::string("q_history: field '") + key + "' must be an integer");
    return it->get<std::int64_t>();
}

} // namespace

StageStats& ExperienceStats::at(Stage stage) { return stages[indexOf(stage)]; }
const StageStats& ExperienceStats::at(Stage stage) const { return stages[indexOf(stage)]; }

StageStats ExperienceStats::totals() const {
    StageStats total{Stage::Any};
    double weightedQ = 0.0;
    double plainQ = 0.0;
    for (const StageStats& s : stages) {
        total.retrieved += s.retrieved;
        total.adopted += s.adopted;
        total.successes += s.successes;
        total.ignored += s.ignored;
        total.rewardSum += s.rewardSum;
        weightedQ += s.q * static_cast<double>(s.adopted);
        plainQ += s.q;
    }
    total.q = total.adopted ? weightedQ / static_cast<double>(total.adopted) : plainQ / static_cast<double>(stages.size());
    return total;
}

bool ExperienceStats::flaggedForReview() const {
    const StageStats total = totals();
    return ValueModel::flaggedForReview(static_cast<long>(total.retrieved), static_cast<long>(total.adopted));
}

json ExperienceStats::toJson() const {
    json out = json::object();
    for (const StageStats& s : stages)
        out[std::string(toString(s.stage))] = json{{"q", s.q},
                                                   {"retrieved", s.retrieved},
                                                   {"adopted", s.adopted},
                                                   {"successes", s.successes},
                                                   {"ignored", s.ignored},
                                                   {"reward_sum", s.rewardSum}};
    return out;
}

ExperienceStats ExperienceStats::fromJson(const json& object) {
    if (!object.is_object()) throw MemoryError(MemoryError::Code::InvalidInput, "field 'stats' must be an object");
    ExperienceStats stats;
    for (const auto& item : object.items()) {
        const Stage stage = requireEnum<Stage>(item.key());
        StageStats& s = stats.at(stage);
        const json& v = item.value();
        s.q = field<double>(v, "q", "stats");
        s.retrieved = field<std::int64_t>(v, "retrieved", "stats");
        s.adopted = field<std::int64_t>(v, "adopted", "stats");
        s.successes = field<std::int64_t>(v, "successes", "stats");
        s.ignored = field<std::int64_t>(v, "ignored", "stats");
        s.rewardSum = field<double>(v, "reward_sum", "stats");
    }
    return stats;
}

json ValuePoint::toJson() const {
    return json{{"stage", toString(stage)}, {"q", q},     {"cause", cause},
                {"run", optionalInt(run)},  {"iteration", optionalInt(iteration)}, {"at", at}};
}

ValuePoint ValuePoint::fromJson(const json& object, std::int64_t experienceId) {
    if (!object.is_object()) throw MemoryError(MemoryError::Code::InvalidInput, "a q_history item must be an object");
    ValuePoint point;
    point.experienceId = experienceId;
    point.stage = requireEnum<Stage>(field<std::string>(object, "stage", "q_history"));
    indexOf(point.stage);
    point.q = field<double>(object, "q", "q_history");
    point.cause = field<std::string>(object, "cause", "q_history");
    point.run = optionalIntField(object, "run");
    point.iteration = optionalIntField(object, "iteration");
    point.at = field<std::string>(object, "at", "q_history");
    return point;
}

} // namespace sage::memory
