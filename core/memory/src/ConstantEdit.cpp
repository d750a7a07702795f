#include "sage_memory/ConstantEdit.h"

#include "sage_memory/EvidenceMatcher.h"

#include <re2/re2.h>

#include <algorithm>
#include <cctype>

namespace sage::memory {
using nlohmann::json;

namespace {

bool sameName(std::string_view a, std::string_view b) {
    return a.size() == b.size() && std::equal(a.begin(), a.end(), b.begin(), [](char x, char y) {
               return std::tolower(static_cast<unsigned char>(x)) == std::tolower(static_cast<unsigned char>(y));
           });
}

std::string typeOf(const json& action) {
    if (!action.is_object()) return {};
    const auto it = action.find("type");
    return it != action.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string nameOf(const json& action) {
    const auto it = action.find("name");
    return it != action.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool hasPrefix(const std::string& s, const char* prefix) { return s.rfind(prefix, 0) == 0; }

// +1: the action wants the value raised, -1 lowered, 0: a fixed value (see target).
struct Want {
    int direction = 0;
    std::optional<long long> target;
    bool toMax = false, toMin = false;
};

std::optional<Want> wanted(const json& action) {
    const std::string type = typeOf(action);
    Want w;
    if (hasPrefix(type, "set_")) {
        const json v = action.value("value", json());
        if (v.is_number_integer()) w.target = v.get<long long>();
        else if (v.is_number()) w.target = static_cast<long long>(v.get<double>());
        else if (v.is_string() && (v == "max" || v == "cores")) w.toMax = true, w.direction = 1;
        else if (v.is_string() && v == "min") w.toMin = true, w.direction = -1;
        else return std::nullopt;
        return w;
    }
    if (hasPrefix(type, "scale_")) {
        const json f = action.value("factor", json());
        if (!f.is_number() || f.get<double>() <= 0.0 || f.get<double>() == 1.0) return std::nullopt;
        w.direction = f.get<double>() > 1.0 ? 1 : -1;
        return w;
    }
    if (hasPrefix(type, "step_")) {
        w.direction = action.value("direction", json("up")) == "down" ? -1 : 1;
        return w;
    }
    return std::nullopt;
}

} // namespace

bool ConstantEdit::isConstantEdit(const json& action) {
    const std::string type = typeOf(action);
    static const char* kTypes[] = {"set_tunable", "set_constant", "scale_tunable", "scale_constant", "step_tunable",
                                   "step_constant"};
    return !nameOf(action).empty() &&
           std::any_of(std::begin(kTypes), std::end(kTypes), [&](const char* t) { return type == t; });
}

std::optional<ConstantEdit::Declaration> ConstantEdit::find(std::string_view lines, std::string_view name) {
    static const RE2 assignment(R"(\b([A-Za-z_]\w*)\s*=\s*(-?\d+))");
    static const RE2 marker(R"(@tunable\s+([A-Za-z_]\w*))");
    static const RE2 allowedList(R"(\{([-\d,\s]+)\})");
    for (const std::string& line : EvidenceMatcher::lines(lines)) {
        re2::StringPiece input(line);
        std::string ident, number;
        bool declares = false;
        long long value = 0;
        while (RE2::FindAndConsume(&input, assignment, &ident, &number)) {
            if (sameName(ident, name)) {
                declares = true;
                value = std::stoll(number);
                break;
            }
        }
        std::string key;
        if (!declares && RE2::PartialMatch(line, marker, &key) && sameName(key, name)) {
            re2::StringPiece again(line);
            if (RE2::FindAndConsume(&again, assignment, &ident, &number)) declares = true, value = std::stoll(number);
        }
        if (!declares) continue;
        Declaration d;
        d.value = value;
        std::string list;
        if (line.find("@tunable") != std::string::npos && RE2::PartialMatch(line, allowedList, &list)) {
            re2::StringPiece items(list);
            std::string item;
            static const RE2 number(R"((-?\d+))");
            while (RE2::FindAndConsume(&items, number, &item)) d.allowed.push_back(std::stoll(item));
        }
        return d;
    }
    return std::nullopt;
}

bool ConstantEdit::evidenced(const json& action, std::string_view removed, std::string_view added, std::string* detail) {
    auto say = [&](const std::string& text) {
        if (detail) *detail = text;
    };
    if (!isConstantEdit(action)) return false;
    const std::string name = nameOf(action);
    const auto want = wanted(action);
    if (!want) {
        say("the action on " + name + " has no usable value, factor or direction");
        return false;
    }
    const auto after = find(added, name);
    if (!after) {
        say(name + " was not changed");
        return false;
    }
    const auto before = find(removed, name);
    const std::string change = name + " " + (before ? std::to_string(before->value) : std::string("(new)")) + " -> " +
                               std::to_string(after->value);
    bool ok = false;
    if (want->target) {
        ok = after->value == *want->target && (!before || before->value != *want->target);
        say(change + ", the action sets it to " + std::to_string(*want->target));
        return ok;
    }
    if ((want->toMax || want->toMin) && !after->allowed.empty()) {
        const auto [lo, hi] = std::minmax_element(after->allowed.begin(), after->allowed.end());
        ok = after->value == (want->toMax ? *hi : *lo) && (!before || before->value != after->value);
    } else if (before) {
        ok = want->direction > 0 ? after->value > before->value : after->value < before->value;
    }
    say(change + ", the action wants it " + (want->direction > 0 ? "raised" : "lowered"));
    return ok;
}

} // namespace sage::memory
