#include "sage_memory/ExperiencePatch.h"

#include "sage_memory/MemoryError.h"

namespace sage::memory {
using nlohmann::json;

namespace {

[[noreturn]] void bad(const std::string& message) { throw MemoryError(MemoryError::Code::InvalidInput, message); }

std::string stringField(const json& value, const std::string& key) {
    if (!value.is_string()) bad("field '" + key + "' must be a string, not " + value.type_name());
    return value.get<std::string>();
}

template <class T> void assign(const std::optional<T>& patch, T& field, const char* name, std::vector<std::string>& changed) {
    if (patch && !(*patch == field)) {
        field = *patch;
        changed.emplace_back(name);
    }
}

} // namespace

bool ExperiencePatch::empty() const {
    return !title && !kind && !stage && !category && !diagnostic && !bottleneck && !appliesTo && !content && !codeIdiom &&
           !evidencePattern && !action && !status && !pinned;
}

std::vector<std::string> ExperiencePatch::applyTo(Experience& e) const {
    std::vector<std::string> changed;
    assign(title, e.title, "title", changed);
    assign(kind, e.kind, "kind", changed);
    assign(stage, e.stage, "stage", changed);
    assign(category, e.trigger.category, "trigger.category", changed);
    assign(diagnostic, e.trigger.diagnostic, "trigger.diagnostic", changed);
    assign(bottleneck, e.trigger.bottleneck, "trigger.bottleneck", changed);
    assign(appliesTo, e.appliesTo, "applies_to", changed);
    assign(content, e.content, "content", changed);
    assign(codeIdiom, e.codeIdiom, "code_idiom", changed);
    assign(evidencePattern, e.evidencePattern, "evidence_pattern", changed);
    assign(action, e.action, "action", changed);
    assign(status, e.status, "status", changed);
    assign(pinned, e.pinned, "pinned", changed);
    return changed;
}

ExperiencePatch ExperiencePatch::fromJson(const json& object) {
    if (!object.is_object()) bad(std::string("an edit must be a JSON object, not ") + object.type_name());
    ExperiencePatch patch;
    for (const auto& item : object.items()) {
        const std::string& key = item.key();
        const json& value = item.value();
        if (key == "title") patch.title = stringField(value, key);
        else if (key == "kind") patch.kind = requireEnum<ExperienceKind>(stringField(value, key));
        else if (key == "stage") patch.stage = requireEnum<Stage>(stringField(value, key));
        else if (key == "status") patch.status = requireEnum<ExperienceStatus>(stringField(value, key));
        else if (key == "applies_to") patch.appliesTo = value.is_null() ? Applicability{} : Applicability::fromJson(value);
        else if (key == "content") patch.content = stringField(value, key);
        else if (key == "code_idiom") patch.codeIdiom = stringField(value, key);
        else if (key == "evidence_pattern") patch.evidencePattern = stringField(value, key);
        else if (key == "action") {
            if (!value.is_null() && !value.is_object()) bad("field 'action' must be a JSON object or null");
            patch.action = value;
        } else if (key == "pinned") {
            if (!value.is_boolean()) bad("field 'pinned' must be true or false");
            patch.pinned = value.get<bool>();
        } else if (key == "trigger") {
            if (!value.is_object()) bad("field 'trigger' must be an object {category, diagnostic, bottleneck}");
            for (const auto& t : value.items()) {
                if (t.key() == "category") patch.category = stringField(t.value(), "trigger.category");
                else if (t.key() == "diagnostic") patch.diagnostic = stringField(t.value(), "trigger.diagnostic");
                else if (t.key() == "bottleneck") patch.bottleneck = stringField(t.value(), "trigger.bottleneck");
                else bad("unknown trigger field '" + t.key() + "' (known: category, diagnostic, bottleneck)");
            }
        } else {
            bad("field '" + key +
                "' cannot be edited (editable: title, kind, stage, trigger, applies_to, content, code_idiom, evidence_pattern, "
                "action, status, pinned)");
        }
    }
    return patch;
}

} // namespace sage::memory
