#include "ScriptedReply.h"

#include "sage_agent/BuiltinPolicy.h"
#include "sage_agent/Tunables.h"

#include <algorithm>
#include <fstream>
#include <functional>
#include <random>
#include <regex>
#include <sstream>

namespace sage::llmsim {
using nlohmann::json;

namespace {

std::vector<std::string> lines(const std::string& text) {
    std::vector<std::string> out;
    std::istringstream in(text);
    std::string l;
    while (std::getline(in, l)) out.push_back(l);
    return out;
}

// The first balanced {...} in `text` that parses as a JSON object with a "type".
json firstAction(const std::string& text) {
    for (std::size_t start = text.find('{'); start != std::string::npos; start = text.find('{', start + 1)) {
        int depth = 0;
        for (std::size_t i = start; i < text.size() && i - start < 2000; ++i) {
            if (text[i] == '{') ++depth;
            if (text[i] == '}' && --depth == 0) {
                const json j = json::parse(text.substr(start, i - start + 1), nullptr, false);
                if (j.is_object() && j.contains("type") && j["type"].is_string()) return j;
                break;
            }
        }
    }
    return nullptr;
}

double unit(std::mt19937_64& rng) { return static_cast<double>(rng() >> 11) * 0x1.0p-53; }

// A barrier "that orders every pipe": before the first DataCopy line (for actions the built-in
// policy only applies on a reported race).
std::string insertBarrierBeforeCopy(const std::string& source) {
    std::string out;
    bool done = false;
    for (const std::string& l : lines(source)) {
        if (!done && l.find("DataCopy(") != std::string::npos) {
            out += l.substr(0, l.find_first_not_of(" \t")) + "AscendC::PipeBarrier<PIPE_ALL>();\n";
            done = true;
        }
        out += l + "\n";
    }
    return done ? out : source;
}

std::optional<std::string> applyAction(const std::string& source, const json& action) {
    if (auto m = agent::BuiltinPolicy::apply(source, action, nullptr)) return m->source;
    if (action.is_object() && action.value("type", "") == "transform" && action.value("name", "") == "insert_barrier") {
        std::string out = insertBarrierBeforeCopy(source);
        if (out != source) return out;
    }
    return std::nullopt;
}

} // namespace

std::vector<RetrievedBlock> ScriptedReply::parseExperiences(const std::string& prompt) {
    // Headers: "[E12] title (...", "E12: title", "#12 title", "- [#12] title".
    static const std::regex header(R"(^\s*(?:[-*]\s*)?\[?(?:E|#)(\d+)\]?[:.)]?\s+([A-Za-z0-9_.:-][^\s(]*))");
    std::vector<RetrievedBlock> out;
    std::string body;
    auto flush = [&] {
        if (!out.empty() && out.back().action.is_null()) out.back().action = firstAction(body);
        body.clear();
    };
    bool inside = false, avoid = false;
    for (const std::string& l : lines(prompt)) {
        if (l.rfind("## ", 0) == 0) {
            flush();
            inside = l.find("xperience") != std::string::npos;
            avoid = inside && (l.find("avoid") != std::string::npos || l.find("Avoid") != std::string::npos);
            continue;
        }
        if (!inside) continue;
        std::smatch m;
        if (std::regex_search(l, m, header)) {
            flush();
            RetrievedBlock b;
            b.id = std::stoll(m[1].str());
            b.title = m[2].str();
            b.rank = static_cast<int>(out.size()) + 1;
            b.avoid = avoid;
            out.push_back(b);
            continue;
        }
        body += l + "\n";
    }
    flush();
    return out;
}

std::string ScriptedReply::parentKernel(const std::string& prompt) {
    static const std::regex numberedLine(R"(^\s*\d+ \| ?(.*)$)");
    for (const char* heading : {"## Parent candidate", "## Naive baseline"}) {
        const std::size_t at = prompt.find(heading);
        if (at == std::string::npos) continue;
        const std::size_t open = prompt.find("```cpp\n", at);
        if (open == std::string::npos) continue;
        const std::size_t close = prompt.find("\n```", open + 7);
        if (close == std::string::npos) continue;
        std::string out;
        for (const std::string& l : lines(prompt.substr(open + 7, close - open - 7))) {
            std::smatch m;
            out += (std::regex_match(l, m, numberedLine) ? m[1].str() : l) + "\n";
        }
        return out;
    }
    return {};
}

std::map<std::string, json> ScriptedReply::loadPack(const std::string& path) {
    std::map<std::string, json> out;
    std::ifstream in(path);
    std::string line;
    while (std::getline(in, line)) {
        const json e = json::parse(line, nullptr, false);
        if (e.is_object() && e.contains("title") && e.value("action", json()).is_object())
            out[e["title"].get<std::string>()] = e["action"];
    }
    return out;
}

ScriptedChoice ScriptedReply::answer(const std::string& prompt) const {
    std::mt19937_64 rng(options_.seed ^ std::hash<std::string>{}(prompt));
    const std::string parent = parentKernel(prompt);
    auto blocks = parseExperiences(prompt);
    for (auto& b : blocks)
        if (b.action.is_null())
            if (auto it = actionsByTitle_.find(b.title); it != actionsByTitle_.end()) b.action = it->second;
    ScriptedChoice c;
    std::string source = parent;
    const bool draft = prompt.find("## Parent candidate") == std::string::npos;
    if (!draft && !parent.empty()) {
        // Rank-biased choice among the entries whose action changes the kernel; the ones the prompt
        // says to avoid only when this reply ignores that instruction.
        const bool anyAvoid = std::any_of(blocks.begin(), blocks.end(), [](const RetrievedBlock& b) { return b.avoid; });
        const bool ignoresAvoid = anyAvoid && unit(rng) < options_.ignoreAvoid;
        std::vector<std::pair<const RetrievedBlock*, std::string>> applicable;
        std::vector<double> weights;
        for (const auto& b : blocks) {
            if (b.avoid && !ignoresAvoid) continue;
            if (auto s = applyAction(parent, b.action); s && *s != parent) {
                applicable.emplace_back(&b, *s);
                weights.push_back(std::ldexp(1.0, -b.rank));
            }
        }
        if (!applicable.empty()) {
            double total = 0;
            for (double w : weights) total += w;
            double pick = unit(rng) * total;
            std::size_t i = 0;
            while (i + 1 < weights.size() && pick >= weights[i]) pick -= weights[i++];
            source = applicable[i].second;
            c.applied = applicable[i].first->id;
            if (unit(rng) >= options_.undeclared) c.declared.push_back(c.applied);
        } else {
            // Nothing from memory applies: a step up of a random tunable, declared as nothing.
            auto tunables = agent::parseTunables(parent);
            if (!tunables.empty()) {
                const auto& t = tunables[static_cast<std::size_t>(rng() % tunables.size())];
                if (auto s = applyAction(parent, {{"type", "step_tunable"}, {"name", t.key}, {"direction", "up"}})) source = *s;
            }
        }
        if (unit(rng) < options_.falseClaim) {
            std::vector<std::int64_t> others;
            for (const auto& b : blocks)
                if (b.id != c.applied) others.push_back(b.id);
            if (!others.empty()) c.declared.push_back(others[static_cast<std::size_t>(rng() % others.size())]);
        }
    }
    std::ostringstream reply;
    reply << "Scripted reply (sage-llmsim): " << (c.applied ? "applied E" + std::to_string(c.applied) : "no memory action")
          << ".\n\n```cpp\n" << source << (source.empty() || source.back() == '\n' ? "" : "\n") << "```\nADOPTED: ";
    if (c.declared.empty()) reply << "none";
    for (std::size_t i = 0; i < c.declared.size(); ++i) reply << (i ? ", " : "") << "E" << c.declared[i];
    reply << "\n";
    c.reply = reply.str();
    return c;
}

} // namespace sage::llmsim
