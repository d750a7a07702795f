#include "sage_agent/LlmPolicy.h"

#include "OpenAiClient.h"
#include "PromptBuilder.h"
#include "Text.h"
#include "reply/ReplyParser.h"

#include "sage_agent/BuiltinPolicy.h"

#include <algorithm>
#include <cstdio>
#include <regex>
#include <set>

namespace sage::agent {
namespace {

using json = nlohmann::json;
using text::lower;
using text::trim;

std::string firstSentence(const std::string& text, size_t limit) {
    std::string s = trim(text);
    size_t end = std::min(s.find(". "), s.find('\n'));
    if (end != std::string::npos) s = s.substr(0, end);
    while (!s.empty() && (s.back() == '.' || s.back() == ' ')) s.pop_back();
    if (s.size() > limit) s = s.substr(0, limit - 3) + "...";
    return s;
}

// The conversation as stored with the iteration: every message sent, in order.
std::string transcript(const std::vector<ChatMessage>& messages) {
    std::string out;
    for (size_t i = 0; i < messages.size(); ++i) {
        const auto& m = messages[i];
        if (i) out += "\n";
        if (m.role == "system" || (m.role == "user" && i == 1)) out += "### " + m.role + "\n";
        else if (m.role == "assistant") out += "### assistant (reply " + std::to_string(i / 2) + ", not usable)\n";
        else out += "### user (feedback " + std::to_string(i / 2) + ")\n";
        out += m.content;
    }
    return out;
}

// An earlier reply echoed back in a feedback round, shortened to the room left in the window.
std::string clipped(const std::string& reply, size_t maxChars) {
    if (reply.size() <= maxChars) return reply;
    const size_t head = maxChars * 2 / 3, tail = maxChars - head;
    return reply.substr(0, head) + "\n[... " + std::to_string(reply.size() - head - tail) + " characters omitted ...]\n" +
           reply.substr(reply.size() - tail);
}

// An unusable reply is echoed back at most this long (head and tail): the feedback names the
// problem, the echo only reminds the model what it sent.
constexpr size_t kMaxEchoedReplyChars = 3000;

std::string ratioText(double r) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%.2f", r);
    return buf;
}

std::string joinedNotes(const std::vector<std::string>& notes) {
    std::string out;
    for (const auto& n : notes) out += "- " + n + "\n";
    return out;
}

std::string answerlessProblem(const ChatResult& chat) {
    if (chat.toolCalls)
        return chat.error + "; no tools are available here: write the answer as text in the reply format";
    return chat.error + "; answer directly: the kernel (or SEARCH/REPLACE blocks) first, with at most a few sentences "
                        "of reasoning";
}

const AttemptRecord* attemptWithKey(const PolicyContext& ctx, const std::string& key) {
    for (const auto& a : ctx.history)
        if (a.sourceKey == key) return &a;
    return nullptr;
}

} // namespace

struct LlmPolicy::ChatOutcome {
    prompt::Parts parts;
    ChatResult chat;
};

LlmPolicy::LlmPolicy(LlmSettings settings)
    : settings_(std::move(settings)), calibration_(std::make_shared<prompt::TokenCalibration>()) {}

double LlmPolicy::charsPerToken() const { return calibration_->charsPerToken(); }

nlohmann::json LlmPolicy::settings() const {
    return {{"base_url", settings_.baseUrl},         {"model", settings_.model},
            {"temperature", settings_.temperature},  {"max_tokens", settings_.maxTokens},
            {"context_tokens", settings_.contextTokens},
            {"timeout_seconds", settings_.timeoutSeconds}, {"idle_timeout_seconds", settings_.idleTimeoutSeconds},
            {"connect_timeout_seconds", settings_.connectTimeoutSeconds},
            {"max_retry_after_seconds", settings_.maxRetryAfterSeconds}, {"max_reply_bytes", settings_.maxReplyBytes},
            {"api_key_env", settings_.apiKeyEnv},
            {"max_retries", settings_.maxRetries},   {"retry_base_seconds", settings_.retryBaseSeconds}};
}

std::string LlmPolicy::buildPrompt(const PolicyContext& ctx) { return prompt::build(ctx).joined(); }

std::string LlmPolicy::evaluationSummary(const eval::Evaluation& ev, const std::string& source) {
    return prompt::evaluationSummary(ev, source);
}

LlmPolicy::ParsedReply LlmPolicy::parseReply(const std::string& reply, const std::string& parent) {
    return reply::parse(reply, parent);
}

// The problem with a parsed reply, "" when it can be evaluated.
std::string LlmPolicy::replyProblem(const PolicyContext& ctx, const ParsedReply& parsed, const ChatOutcome& chat) const {
    if (!parsed.ok) {
        std::string problem = parsed.error;
        if (chat.chat.finishReason == "length")
            problem += " (the reply stopped at max_tokens = " + std::to_string(settings_.maxTokens) +
                       (ctx.parentSource.empty() ? "; keep the reasoning short"
                                                 : "; SEARCH/REPLACE blocks are much shorter than the whole file") + ")";
        return problem;
    }
    const std::string key = sourceKey(parsed.source);
    const bool tried = std::find(ctx.triedMoves.begin(), ctx.triedMoves.end(), key) != ctx.triedMoves.end();
    if (!tried && parsed.source != ctx.parentSource) return {};
    const AttemptRecord* earlier = attemptWithKey(ctx, key);
    std::string problem = "this kernel is identical to one already evaluated in this run";
    if (earlier)
        problem += " (iteration " + std::to_string(earlier->iteration) + ": " + std::string(toString(earlier->status)) +
                   (earlier->cycles ? ", " + std::to_string(earlier->cycles) + " cycles" : std::string()) + ")";
    else if (parsed.source == ctx.parentSource)
        problem += " (it is the parent, unchanged)";
    return problem + "; evaluating it again would teach nothing. Make a different change";
}

// One request that fits the window: never sent over the budget; a context-length refusal
// recalibrates the token estimate from the server's count and is retried once, smaller.
LlmPolicy::ChatOutcome LlmPolicy::request(const PolicyContext& ctx, const std::vector<ChatMessage>& exchange,
                                          PolicyProposal& out) {
    ChatOutcome result;
    for (int shrink = 0;; ++shrink) {
        prompt::Budget budget{settings_.contextTokens, settings_.maxTokens, calibration_->charsPerToken()};
        // The exchange takes room from the prompt's optional parts, so the request still fits.
        for (const auto& m : exchange)
            budget.maxTokens += prompt::estimateTokens(m.content, budget.charsPerToken) + prompt::kMessageOverheadTokens;
        result.parts = prompt::build(ctx, budget);
        std::vector<ChatMessage> messages = {{"system", result.parts.system}, {"user", result.parts.user}};
        messages.insert(messages.end(), exchange.begin(), exchange.end());
        out.prompt = transcript(messages) + "\n### prompt sizes\n" + result.parts.layout.table();
        out.shownIds = result.parts.layout.shownExperiences;
        if (result.parts.layout.overflow) {
            result.chat.error = "the prompt does not fit the context window: its required parts need about " +
                                std::to_string(result.parts.layout.promptTokens) + " tokens, but --llm-context " +
                                std::to_string(settings_.contextTokens) + " minus --llm-max-tokens " +
                                std::to_string(settings_.maxTokens) + " leaves " +
                                std::to_string(result.parts.layout.budgetTokens) +
                                "; the request was not sent (raise --llm-context or lower --llm-max-tokens)";
            return result;
        }
        size_t chars = 0;
        for (const auto& m : messages) chars += m.content.size();
        const auto onNotice = [&](const std::string& line) { note(ctx, out, line); };
        result.chat = OpenAiClient(settings_).complete(messages, /*stream=*/true, ctx.cancel, ctx.onToken, onNotice);
        if (result.chat.promptTokens > 0)
            calibration_->observe(chars, result.chat.promptTokens - int(messages.size()) * prompt::kMessageOverheadTokens);
        if (!result.chat.contextOverflow || shrink == 1) return result;
        calibration_->observeOverflow(chars, result.chat.overflowPromptTokens);
        note(ctx, out, "the server refused the prompt as too long for its context window (" + result.chat.error +
                           "); shrinking the prompt to fit at " + ratioText(calibration_->charsPerToken()) + " characters per token (" +
                           calibration_->source() + ") and retrying once");
    }
}

void LlmPolicy::note(const PolicyContext& ctx, PolicyProposal& out, const std::string& line) {
    out.notes.push_back(line);
    if (ctx.onNotice) ctx.onNotice(line);
}

void LlmPolicy::accept(const PolicyContext& ctx, const ParsedReply& parsed, PolicyProposal& out) {
    const std::vector<int64_t> shown = out.shownIds.value_or(std::vector<int64_t>{});
    for (int64_t id : parsed.adopted) {
        if (std::find(shown.begin(), shown.end(), id) != shown.end()) out.adoptedIds.push_back(id);
        else out.declaredNotShown.push_back(id);  // only what the model was shown can be adopted
    }
    if (!out.declaredNotShown.empty()) {
        std::string ids;
        for (int64_t id : out.declaredNotShown) ids += (ids.empty() ? "E" : ", E") + std::to_string(id);
        note(ctx, out, "the reply declared " + ids + ", which " + (out.declaredNotShown.size() == 1 ? "was" : "were") +
                           " not shown in this prompt; not counted as adopted");
    }
    out.adoptionUnknown = !parsed.adoptionKnown;
    out.ok = true;
    out.source = parsed.source;
    out.rationale = parsed.rationale;
    out.move = parsed.rationale.empty() ? std::string("llm ") + std::string(memory::toString(ctx.stage))
                                        : firstSentence(parsed.rationale, 80);
}

PolicyProposal LlmPolicy::propose(const PolicyContext& ctx) {
    PolicyProposal out;
    if (!ctx.task) {
        out.error = "the LLM policy was given no task";
        return out;
    }
    std::vector<ChatMessage> exchange;  // earlier replies of this iteration and the feedback on them
    for (int round = 0;; ++round) {
        const ChatOutcome chat = request(ctx, exchange, out);
        out.response = chat.chat.content;
        if (!out.notes.empty()) out.prompt = "### request log\n" + joinedNotes(out.notes) + out.prompt;
        // A reply spent on reasoning, or tool calls instead of text, is a format problem the model
        // can fix when told; a transport or server error is not.
        const bool answerless = !chat.chat.ok && !chat.chat.cancelled && (!chat.chat.reasoning.empty() || chat.chat.toolCalls);
        if (!chat.chat.ok && !answerless) {
            out.error = chat.chat.error;
            return out;
        }
        const ParsedReply parsed = answerless ? ParsedReply{} : parseReply(chat.chat.content, ctx.parentSource);
        const std::string problem = answerless ? answerlessProblem(chat.chat) : replyProblem(ctx, parsed, chat);
        if (problem.empty()) {
            accept(ctx, parsed, out);
            return out;
        }
        const bool cancelled = ctx.cancel && ctx.cancel->load();
        if (round == kFormatRetries || cancelled) {
            out.error = "the model's reply breaks the contract: " + problem;
            if (round > 0) out.error += " (after " + std::to_string(round) + " feedback rounds in this iteration)";
            return out;
        }
        // Feedback in the same iteration: the model sees its reply and what is wrong with it. The
        // echoed reply is shortened so the conversation still fits the window.
        const std::string feedback = "Your reply cannot be used: " + problem +
                                     ".\nAnswer again in the reply format: the complete kernel file in one ```cpp "
                                     "block" + (ctx.parentSource.empty() ? "" : " or SEARCH/REPLACE blocks against the parent") +
                                     ", then `ADOPTED: ...`, then `RATIONALE: ...`.";
        exchange.push_back({"assistant", chat.chat.content.empty() ? std::string("(no text)")
                                                                   : clipped(chat.chat.content, kMaxEchoedReplyChars)});
        exchange.push_back({"user", feedback});
    }
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
    std::string text = reply::stripThinking(chat.content);
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
