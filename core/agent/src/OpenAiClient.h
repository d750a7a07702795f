// A client for OpenAI-compatible chat-completions servers (OpenAI, vLLM, llama.cpp, Ollama, ...),
// built on libcurl. POSTs {base}/chat/completions; streams the reply (SSE `data:` lines, parsed as
// they arrive, one onToken call per delta) and falls back to a plain JSON answer when the server
// sends application/json. Retries 429 and 5xx with exponential backoff (Retry-After honoured up to
// llm.max_retry_after_seconds, and said so through onNotice); reports 4xx, timeouts, refused
// connections and cancellation as one-sentence errors. Three clocks: the connect timeout, the idle
// timeout (no byte from the server for that long: a dead server) and a total cap (a slow CPU model
// streaming for minutes is fine as long as bytes keep coming). Replies are capped in size.
//
// The API key is read from the environment variable named in the settings at request time and
// only ever placed in the Authorization header: it is never stored, logged or copied into a
// result (server messages that echo it are redacted).
#pragma once

#include "sage_agent/AgentSettings.h"

#include <atomic>
#include <functional>
#include <string>
#include <vector>

namespace sage::agent {

struct ChatMessage {
    std::string role;  // system | user | assistant
    std::string content;
};

struct ChatResult {
    bool ok = false;
    std::string content;       // the assistant's text (also when it was cut off)
    std::string finishReason;  // stop | length | ... as the server said, "" when unknown
    std::string error;         // one sentence: what went wrong and what to check
    int httpStatus = 0;        // of the last attempt, 0 when no response arrived
    int attempts = 0;
    bool cancelled = false;
    bool timedOut = false;
    std::string timeoutSetting;  // which clock ended it: llm.idle_timeout_seconds | llm.timeout_seconds | llm.connect_timeout_seconds
    std::string reasoning;     // text the model spent in reasoning_content (not part of the answer)
    bool toolCalls = false;    // the model answered with tool calls instead of text
    bool streamed = false;     // the answer came as server-sent events
    int promptTokens = 0;      // usage.prompt_tokens when the server reported it (0 = not reported)
    bool contextOverflow = false;  // the server refused the request as longer than its context window
    int overflowPromptTokens = 0;  // the prompt's token count that refusal named (0 = none named)
};

// The prompt's token count named in a context-length refusal, or 0 when `message` is no such
// refusal; -1 when it is one but names no count. vLLM: "... you requested 8500 tokens (6452 in the
// messages, 2048 in the completion)"; llama.cpp: "the request (9000 tokens) exceeds the available
// context size"; OpenAI: "maximum context length is 8192 tokens. However, your messages resulted in
// 9000 tokens".
int contextOverflowTokens(const std::string& message, int maxTokens);

class OpenAiClient {
public:
    explicit OpenAiClient(LlmSettings settings);

    // One chat completion. `stream` asks for SSE; a server that answers with JSON is still read.
    // `cancel` (may be null) aborts the request and any backoff wait within ~0.1 s.
    // `onToken` (may be empty) receives each streamed piece of text in order.
    // `onNotice` (may be empty) hears what the client decided on its own (waiting out a Retry-After).
    ChatResult complete(const std::vector<ChatMessage>& messages, bool stream,
                        const std::atomic<bool>* cancel = nullptr,
                        const std::function<void(const std::string&)>& onToken = {},
                        const std::function<void(const std::string&)>& onNotice = {}) const;

    // {base}/chat/completions, with the slashes between them normalised.
    std::string endpoint() const;
    const LlmSettings& settings() const { return settings_; }

    static constexpr double kMaxBackoffSeconds = 30.0;     // cap on the exponential backoff

private:
    struct Call;  // the steps of one completion (OpenAiClient.cpp)
    LlmSettings settings_;
};

} // namespace sage::agent
