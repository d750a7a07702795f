#include "sage_memory/Experience.h"

#include "sage_memory/EvidencePattern.h"
#include "sage_memory/MemoryError.h"

#include <algorithm>
#include <array>

namespace sage::memory {
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& message) { throw MemoryError(MemoryError::Code::InvalidInput, message); }

std::string readString(const json& object, const char* key, bool required = false) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) {
        if (required) bad(std::string("field '") + key + "' is missing");
        return {};
    }
    if (!it->is_string()) bad(std::string("field '") + key + "' must be a string, not " + it->type_name());
    return it->get<std::string>();
}

std::optional<std::int64_t> readOptionalInt(const json& object, const char* key) {
    const auto it = object.find(key);
    if (it == object.end() || it->is_null()) return std::nullopt;
    if (!it->is_number_integer()) bad(std::string("field '") + key + "' must be an integer or null");
    return it->get<std::int64_t>();
}

json optionalInt(const std::optional<std::int64_t>& value) { return value ? json(*value) : json(nullptr); }

template <class E> E readEnum(const json& object, const char* key, E fallback) {
    const std::string text = readString(object, key);
    return text.empty() ? fallback : requireEnum<E>(text);
}

constexpr std::array<const char*, 20> kKnownKeys{
    "id",      "title",      "kind",       "stage",      "trigger",    "applies_to", "content",   "code_idiom",
    "evidence_pattern", "action", "status", "origin",    "pinned",     "merged_into", "provenance",
    "created_at", "updated_at", "stats",    "revisions",  "q_history"};

} // namespace

std::vector<std::string> Experience::problems() const {
    std::vector<std::string> out;
    if (title.find_first_not_of(" \t\r\n") == std::string::npos) out.push_back("title is empty");
    if (content.find_first_not_of(" \t\r\n") == std::string::npos) out.push_back("content is empty");
    if (!action.is_null() && !action.is_object())
        out.push_back(std::string("action must be a JSON object or null, not ") + action.type_name());
    if (mergedInto && *mergedInto == id && id != 0) out.push_back("an entry cannot be merged into itself");
    if (const auto problem = EvidencePattern::problem(evidencePattern))
        out.push_back("entry '" + title + "': evidence_pattern '" + evidencePattern + "' " + *problem);
    return out;
}

std::string Experience::actionText() const { return action.is_null() ? std::string() : action.dump(); }

json Experience::editableJson() const {
    return json{{"title", title},
                {"kind", toString(kind)},
                {"stage", toString(stage)},
                {"trigger", {{"category", trigger.category}, {"diagnostic", trigger.diagnostic},
                             {"bottleneck", trigger.bottleneck}}},
                {"applies_to", appliesTo.toJson()},
                {"content", content},
                {"code_idiom", codeIdiom},
                {"evidence_pattern", evidencePattern},
                {"action", action},
                {"status", toString(status)},
                {"pinned", pinned}};
}

json Experience::toJson() const {
    json out = editableJson();
    out["id"] = id;
    out["origin"] = toString(origin);
    out["merged_into"] = optionalInt(mergedInto);
    out["created_at"] = createdAt;
    out["updated_at"] = updatedAt;
    json prov = json::array();
    for (const Provenance& p : provenance) prov.push_back(sage::memory::toJson(p));
    out["provenance"] = std::move(prov);
    return out;
}

Experience Experience::fromJson(const json& object) {
    if (!object.is_object()) bad(std::string("an experience must be a JSON object, not ") + object.type_name());
    for (const auto& item : object.items())
        if (std::find_if(kKnownKeys.begin(), kKnownKeys.end(), [&](const char* k) { return item.key() == k; }) ==
            kKnownKeys.end())
            bad("unknown field '" + item.key() +
                "' (known: id, title, kind, stage, trigger, applies_to, content, code_idiom, evidence_pattern, action, status, "
                "origin, pinned, merged_into, provenance, created_at, updated_at)");
    Experience e;
    e.id = readOptionalInt(object, "id").value_or(0);
    e.title = readString(object, "title", true);
    e.kind = readEnum(object, "kind", ExperienceKind::Insight);
    e.stage = readEnum(object, "stage", Stage::Any);
    e.status = readEnum(object, "status", ExperienceStatus::Pending);
    e.origin = readEnum(object, "origin", Origin::Human);
    if (auto it = object.find("trigger"); it != object.end() && !it->is_null()) {
        if (!it->is_object()) bad("field 'trigger' must be an object {category, diagnostic, bottleneck}");
        for (const auto& item : it->items())
            if (item.key() != "category" && item.key() != "diagnostic" && item.key() != "bottleneck")
                bad("unknown trigger field '" + item.key() + "' (known: category, diagnostic, bottleneck)");
        e.trigger = {readString(*it, "category"), readString(*it, "diagnostic"), readString(*it, "bottleneck")};
    }
    if (auto it = object.find("applies_to"); it != object.end() && !it->is_null()) e.appliesTo = Applicability::fromJson(*it);
    e.content = readString(object, "content", true);
    e.codeIdiom = readString(object, "code_idiom");
    e.evidencePattern = readString(object, "evidence_pattern");
    if (auto it = object.find("action"); it != object.end()) e.action = *it;
    if (auto it = object.find("pinned"); it != object.end() && !it->is_null()) {
        if (!it->is_boolean()) bad("field 'pinned' must be true or false");
        e.pinned = it->get<bool>();
    }
    e.mergedInto = readOptionalInt(object, "merged_into");
    if (auto it = object.find("provenance"); it != object.end() && !it->is_null()) {
        if (!it->is_array()) bad("field 'provenance' must be an array");
        for (const json& p : *it) e.provenance.push_back(provenanceFromJson(p));
    }
    e.createdAt = readString(object, "created_at");
    e.updatedAt = readString(object, "updated_at");
    if (const auto problems = e.problems(); !problems.empty()) bad(problems.front());
    return e;
}

bool Applicability::admits(const std::string& device, const std::string& category) const {
    auto in = [](const std::vector<std::string>& list, const std::string& value) {
        return list.empty() || value.empty() || std::find(list.begin(), list.end(), value) != list.end();
    };
    return in(devices, device) && in(categories, category);
}

json Applicability::toJson() const { return json{{"devices", devices}, {"categories", categories}}; }

Applicability Applicability::fromJson(const json& object) {
    if (!object.is_object()) bad("field 'applies_to' must be an object {devices: [...], categories: [...]}");
    Applicability a;
    for (const auto& item : object.items()) {
        if (item.key() != "devices" && item.key() != "categories")
            bad("unknown applies_to field '" + item.key() + "' (known: devices, categories)");
        if (item.value().is_null()) continue;
        if (!item.value().is_array()) bad("field 'applies_to." + item.key() + "' must be an array of strings");
        auto& list = item.key() == "devices" ? a.devices : a.categories;
        for (const json& v : item.value()) {
            if (!v.is_string() || v.get<std::string>().empty())
                bad("field 'applies_to." + item.key() + "' must hold non-empty strings");
            list.push_back(v.get<std::string>());
        }
        std::sort(list.begin(), list.end());
        list.erase(std::unique(list.begin(), list.end()), list.end());
    }
    return a;
}

json toJson(const Provenance& p) {
    return json{{"task", p.task}, {"run", optionalInt(p.run)}, {"iteration", optionalInt(p.iteration)},
                {"diff", p.diff}, {"note", p.note}};
}

Provenance provenanceFromJson(const json& object) {
    if (!object.is_object()) bad("a provenance item must be an object {task, run, iteration, diff, note}");
    return Provenance{readString(object, "task"), readOptionalInt(object, "run"), readOptionalInt(object, "iteration"),
                      readString(object, "diff"), readString(object, "note")};
}

} // namespace sage::memory
