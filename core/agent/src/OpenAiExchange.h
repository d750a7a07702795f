// What one HTTP exchange with a chat-completions server delivered, filled by curl's header and
// write callbacks as bytes arrive: the status and headers, and the body read either as a plain
// JSON answer or as server-sent events (`data:` lines parsed as they arrive, one onToken call per
// delta). Text is kept as bytes: a UTF-8 character split across two deltas is joined, never
// dropped; what is passed to onToken is cut only at character boundaries. The API key is redacted
// from everything passed on. A reply larger than the cap stops the transfer.
#pragma once

#include <nlohmann/json.hpp>

#include <atomic>
#include <chrono>
#include <functional>
#include <optional>
#include <string>

namespace sage::agent {

// Replaces every occurrence of the key, so that a server echoing it cannot leak it into results.
std::string redact(std::string text, const std::string& key);
// One line, at most `limit` characters, for error messages.
std::string oneLine(const std::string& text, size_t limit = 300);
// The human-readable message of an error body ({"error":{"message":..}}, {"detail":..}, or the text).
std::string serverMessage(const std::string& body);
int usagePromptTokens(const nlohmann::json& j);

// The text of one choice: content, reasoning (reasoning_content / reasoning), and whether it asked
// for tool calls instead of answering.
struct ChoiceText {
    std::string content, reasoning, finishReason;
    bool toolCalls = false;
};
// Reads a choice object: a streamed `delta`, a `message`, or a legacy `text`.
ChoiceText choiceText(const nlohmann::json& choice);

struct Exchange {
    using Clock = std::chrono::steady_clock;
    const std::function<void(const std::string&)>* onToken = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    std::string key;          // the API key, redacted from what is passed to onToken
    size_t maxBytes = 8u << 20;  // the reply's size cap (llm.max_reply_bytes)

    long status = 0;
    std::string contentType;
    std::optional<double> retryAfter;
    size_t received = 0;              // body bytes so far
    bool tooLarge = false;            // the cap stopped the transfer
    Clock::time_point lastActivity = Clock::now();  // the last byte of a header or the body

    enum class Mode { Undecided, Events, Body } mode = Mode::Undecided;
    std::string body;        // JSON answer or error body
    std::string content, reasoning, finishReason, streamError;
    bool toolCalls = false;
    int events = 0, malformedEvents = 0, emptyChoices = 0;
    int promptTokens = 0;    // usage.prompt_tokens, when a chunk carried it
    bool done = false;

    bool success() const { return status >= 200 && status < 300; }
    void header(const std::string& line);
    // False when the transfer must stop (the size cap).
    bool write(const char* data, size_t n);
    void finishEvents();

private:
    std::string lineBuffer_;  // SSE: the incomplete last line
    std::string eventData_;   // SSE: data lines of the event being assembled
    size_t emitted_ = 0;      // bytes of `content` already passed to onToken

    void decideMode(const char* data, size_t n);
    void eventLine(const std::string& line);
    void flushEvent();
    void event(const nlohmann::json& j);
    void emitTokens(bool final);
};

} // namespace sage::agent
