#include "sage_agent/LlmPolicy.h"

#include "OpenAiClient.h"
#include "PromptBuilder.h"

#include <algorithm>
#include <regex>
#include <set>
#include <sstream>

namespace sage::agent {
namespace {

using json = nlohmann::json;

std::string trim(const std::string& s) {
    size_t b = s.find_first_not_of(" \t\r\n"), e = s.find_last_not_of(" \t\r\n");
    return b == std::string::npos ? std::string() : s.substr(b, e - b + 1);
}

std::string lower(std::string s) {
    std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return char(std::tolower(c)); });
    return s;
}

// Reasoning models may wrap their thinking in <think>...</think>; it is not part of the answer.
std::string stripThinking(std::string text) {
    for (size_t b; (b = text.find("<think>")) != std::string::npos;) {
        size_t e = text.find("</think>", b);
        if (e == std::string::npos) break;
        text.erase(b, e + 8 - b);
    }
    return text;
}

std::vector<std::string> splitLines(const std::string& s) {
    std::vector<std::string> lines;
    std::string line;
    std::istringstream in(s);
    while (std::getline(in, line)) {
        if (!line.empty() && line.back() == '\r') line.pop_back();
        lines.push_back(line);
    }
    return lines;
}

struct Block {
    std::string lang, content;
    bool closed = false;
};

bool isCodeLanguage(const std::string& lang) {
    static const std::set<std::string> ok = {"", "cpp", "c++", "c", "cc", "cxx", "h", "hpp", "hxx", "ascendc", "cuda"};
    return ok.count(lang) > 0;
}

bool looksLikeKernelFile(const std::string& code) {
    return code.find("__global__") != std::string::npos || code.find("__aicore__") != std::string::npos ||
           code.find("SAGE_HOST") != std::string::npos || code.find("kernel_operator.h") != std::string::npos;
}

// Models sometimes copy the prompt's "  12 | " line numbers; drop them when every line has one.
std::string stripLineNumbers(const std::string& code) {
    static const std::regex numberedLine(R"(^\s*\d+ \| ?(.*)$)");
    static const std::regex bareNumber(R"(^\s*\d+ \|\s*$)");
    auto lines = splitLines(code);
    size_t numbered = 0, nonEmpty = 0;
    for (const auto& l : lines) {
        if (trim(l).empty()) continue;
        ++nonEmpty;
        numbered += std::regex_match(l, numberedLine) || std::regex_match(l, bareNumber);
    }
    if (nonEmpty == 0 || numbered != nonEmpty) return code;
    std::string out;
    std::smatch m;
    for (const auto& l : lines) {
        if (std::regex_match(l, m, numberedLine)) out += m[1].str() + "\n";
        else if (std::regex_match(l, bareNumber)) out += "\n";
        else out += l + "\n";
    }
    return out;
}

// A line holding `NAME:` possibly decorated with markdown (bullets, bold, heading marks).
std::optional<std::string> markerValue(const std::string& line, const char* name) {
    std::regex re(std::string(R"(^[\s>*_#\-]*)") + name + R"([*_\s]*:[*_\s]*(.*)$)", std::regex::icase);
    std::smatch m;
    if (!std::regex_match(line, m, re)) return std::nullopt;
    return trim(m[1].str());
}

std::string firstSentence(const std::string& text, size_t limit) {
    std::string s = trim(text);
    size_t end = std::min(s.find(". "), s.find('\n'));
    if (end != std::string::npos) s = s.substr(0, end);
    while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
    if (s.size() > limit) s = s.substr(0, limit - 3) + "...";
    return s;
}

} // namespace

LlmPolicy::LlmPolicy(LlmSettings settings) : settings_(std::move(settings)) {}

nlohmann::json LlmPolicy::settings() const {
    return {{"base_url", settings_.baseUrl},         {"model", settings_.model},
            {"temperature", settings_.temperature},  {"max_tokens", settings_.maxTokens},
            {"timeout_seconds", settings_.timeoutSeconds}, {"api_key_env", settings_.apiKeyEnv},
            {"max_retries", settings_.maxRetries},   {"retry_base_seconds", settings_.retryBaseSeconds}};
}

std::string LlmPolicy::buildPrompt(const PolicyContext& ctx) { return prompt::build(ctx).joined(); }

std::string LlmPolicy::evaluationSummary(const eval::Evaluation& ev, const std::string& source) {
    return prompt::evaluationSummary(ev, source);
}

LlmPolicy::ParsedReply LlmPolicy::parseReply(const std::string& reply) {
    ParsedReply r;
    const std::string text = stripThinking(reply);
    if (trim(text).empty()) {
        r.error = "the reply is empty";
        return r;
    }
    // Split into fenced blocks and prose lines.
    std::vector<Block> blocks;
    std::vector<std::string> prose;
    {
        auto lines = splitLines(text);
        bool inBlock = false;
        std::string fence;
        for (const auto& line : lines) {
            std::string t = trim(line);
            if (!inBlock) {
                if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
                    size_t n = 0;
                    while (n < t.size() && t[n] == t[0]) ++n;
                    fence = t.substr(0, n);
                    std::string info = trim(t.substr(n));
                    std::string lang = lower(info.substr(0, info.find_first_of(" \t{")));
                    blocks.push_back({lang, "", false});
                    inBlock = true;
                } else {
                    prose.push_back(line);
                }
            } else if (t.size() >= fence.size() && t.find_first_not_of(fence[0]) == std::string::npos) {
                blocks.back().closed = true;
                inBlock = false;
            } else {
                blocks.back().content += line + "\n";
            }
        }
    }
    std::vector<const Block*> code;
    for (const auto& b : blocks)
        if (isCodeLanguage(b.lang)) code.push_back(&b);
    if (code.empty()) {
        r.error = blocks.empty()
                      ? "no ```cpp code block in the reply; the contract asks for one block with the complete kernel file"
                      : "no ```cpp code block in the reply (found only a ```" + blocks.front().lang +
                            " block); the contract asks for one ```cpp block with the complete kernel file";
        return r;
    }
    std::vector<const Block*> nonEmpty;
    for (const auto* b : code)
        if (!trim(b->content).empty()) nonEmpty.push_back(b);
    if (nonEmpty.empty()) {
        r.error = "the ```cpp code block is empty; it must hold the complete kernel file";
        return r;
    }
    std::vector<const Block*> files;
    std::set<std::string> distinct;
    for (const auto* b : nonEmpty)
        if (looksLikeKernelFile(b->content)) {
            files.push_back(b);
            distinct.insert(trim(b->content));
        }
    if (distinct.size() > 1) {
        r.error = "the reply has " + std::to_string(distinct.size()) +
                  " different code blocks that each look like a kernel file; the contract asks for exactly one "
                  "block with the complete file";
        return r;
    }
    const Block* chosen = files.empty() ? nonEmpty.back() : files.back();
    if (!chosen->closed) {
        r.error = "the ```cpp code block is not closed: the reply looks cut off (is max_tokens too small?)";
        return r;
    }
    r.source = stripLineNumbers(chosen->content);

    // ADOPTED and RATIONALE live outside the code blocks; the last ADOPTED line wins.
    std::optional<std::string> adopted;
    size_t rationaleLine = std::string::npos;
    std::string rationaleHead;
    for (size_t i = 0; i < prose.size(); ++i) {
        if (auto v = markerValue(prose[i], "ADOPTED")) adopted = *v;
        if (auto v = markerValue(prose[i], "RATIONALE")) {
            rationaleLine = i;
            rationaleHead = *v;
        }
    }
    if (!adopted) {
        r.error = "no `ADOPTED:` line after the code block (write `ADOPTED: none` when no experience was applied)";
        return r;
    }
    std::string ids = *adopted;
    ids.erase(std::remove_if(ids.begin(), ids.end(), [](char c) { return c == '*' || c == '_' || c == '`'; }), ids.end());
    std::string lowered = lower(trim(ids));
    if (!(lowered.empty() || lowered.rfind("none", 0) == 0 || lowered == "-" || lowered == "n/a" || lowered == "[]")) {
        static const std::regex idToken(R"(^\[?\s*(?:e|#)?\s*(\d{1,15})\s*\]?[.)]?$)", std::regex::icase);
        std::string token;
        std::istringstream in(std::regex_replace(ids, std::regex(R"([,;])"), " "));
        std::smatch m;
        while (in >> token)
            if (std::regex_match(token, m, idToken)) {
                int64_t id = std::stoll(m[1].str());
                if (std::find(r.adopted.begin(), r.adopted.end(), id) == r.adopted.end()) r.adopted.push_back(id);
            }
    }
    if (rationaleLine != std::string::npos) {
        std::string rationale = rationaleHead;
        for (size_t i = rationaleLine + 1; i < prose.size(); ++i) {
            std::string t = trim(prose[i]);
            if (t.empty()) {
                if (rationale.empty()) continue;
                break;
            }
            if (markerValue(prose[i], "ADOPTED")) break;
            rationale += (rationale.empty() ? "" : " ") + t;
        }
        r.rationale = trim(rationale);
    }
    r.ok = true;
    return r;
}

PolicyProposal LlmPolicy::propose(const PolicyContext& ctx) {
    PolicyProposal out;
    if (!ctx.task) {
        out.error = "the LLM policy was given no task";
        return out;
    }
    const prompt::Parts parts = prompt::build(ctx);
    out.prompt = parts.joined();
    OpenAiClient client(settings_);
    ChatResult chat = client.complete({{"system", parts.system}, {"user", parts.user}}, /*stream=*/true, ctx.cancel,
                                      ctx.onToken);
    out.response = chat.content;
    if (!chat.ok) {
        out.error = chat.error;
        return out;
    }
    ParsedReply parsed = parseReply(chat.content);
    if (!parsed.ok) {
        out.error = "the model's reply breaks the contract: " + parsed.error;
        if (chat.finishReason == "length")
            out.error += " (the server stopped at max_tokens = " + std::to_string(settings_.maxTokens) + ")";
        return out;
    }
    std::set<int64_t> retrieved;
    for (const auto& s : ctx.retrieved) retrieved.insert(s.experience.id);
    for (int64_t id : parsed.adopted)
        if (retrieved.count(id)) out.adoptedIds.push_back(id);  // ids that were not offered do not count
    out.ok = true;
    out.source = parsed.source;
    out.rationale = parsed.rationale;
    out.move = parsed.rationale.empty() ? std::string("llm ") + std::string(memory::toString(ctx.stage))
                                        : firstSentence(parsed.rationale, 80);
    return out;
}

std::optional<Lesson> LlmPolicy::distill(const PolicyContext& ctx, const PolicyProposal& proposal,
                                         const eval::Evaluation& before, const eval::Evaluation& after) {
    if (proposal.source.empty()) return std::nullopt;
    const prompt::Parts parts = prompt::distill(ctx, proposal, before, after);
    LlmSettings s = settings_;
    s.maxTokens = s.maxTokens > 0 ? std::min(s.maxTokens, 1024) : 1024;
    ChatResult chat = OpenAiClient(s).complete({{"system", parts.system}, {"user", parts.user}}, /*stream=*/false,
                                               ctx.cancel, {});
    if (!chat.ok) return std::nullopt;

    // The JSON object: a ```json block, or the outermost braces of the text.
    std::string text = stripThinking(chat.content);
    std::string candidate;
    for (const char* open : {"```json", "```JSON", "```"}) {
        size_t b = text.find(open);
        if (b == std::string::npos) continue;
        b = text.find('\n', b);
        size_t e = b == std::string::npos ? b : text.find("```", b);
        if (b != std::string::npos && e != std::string::npos) {
            candidate = text.substr(b + 1, e - b - 1);
            break;
        }
    }
    if (candidate.find('{') == std::string::npos) {
        size_t b = text.find('{'), e = text.rfind('}');
        if (b == std::string::npos || e == std::string::npos || e < b) return std::nullopt;
        candidate = text.substr(b, e - b + 1);
    }
    json j = json::parse(candidate, nullptr, false);
    if (j.is_discarded()) {  // tolerate trailing commas
        j = json::parse(std::regex_replace(candidate, std::regex(R"(,\s*([}\]]))"), "$1"), nullptr, false);
        if (j.is_discarded()) return std::nullopt;
    }
    if (j.is_array() && !j.empty()) j = j[0];
    if (!j.is_object()) return std::nullopt;
    auto str = [&](const char* k) {
        return j.contains(k) && j[k].is_string() ? trim(j[k].get<std::string>()) : std::string();
    };
    Lesson lesson;
    lesson.title = str("title");
    lesson.content = str("content");
    if (lesson.title.empty() || lesson.content.empty()) return std::nullopt;
    if (lesson.title.size() > 120) lesson.title = lesson.title.substr(0, 117) + "...";
    std::string kind = lower(str("kind"));
    std::replace(kind.begin(), kind.end(), '-', '_');
    std::replace(kind.begin(), kind.end(), ' ', '_');
    if (kind == "repair" || kind == "fix") kind = "repair_rule";
    if (kind == "optimisation" || kind == "optimize" || kind == "optimise" || kind == "performance") kind = "optimization";
    if (kind == "api") kind = "api_usage";
    static const std::set<std::string> kinds = {"insight", "repair_rule", "optimization", "pitfall", "api_usage"};
    lesson.kind = kinds.count(kind) ? kind
                                    : (ctx.stage == memory::Stage::Repair ? "repair_rule"
                                       : ctx.stage == memory::Stage::Optimize ? "optimization" : "insight");
    lesson.evidencePattern = str("evidence_pattern");
    if (lesson.evidencePattern.empty()) lesson.evidencePattern = str("evidencePattern");
    return lesson;
}

} // namespace sage::agent
