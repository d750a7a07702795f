// A client for OpenAI-compatible chat-completions servers (OpenAI, vLLM, llama.cpp, Ollama, ...),
// built on libcurl. POSTs {base}/chat/completions; streams the reply (SSE `data:` lines, parsed as
// they arrive, one onToken call per delta) and falls back to a plain JSON answer when the server
// sends application/json. Retries 429 and 5xx with exponential backoff (Retry-After honoured,
// capped); reports 4xx, timeouts, refused connections and cancellation as one-sentence errors.
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
    bool streamed = false;     // the answer came as server-sent events
};

class OpenAiClient {
public:
    explicit OpenAiClient(LlmSettings settings);

    // One chat completion. `stream` asks for SSE; a server that answers with JSON is still read.
    // `cancel` (may be null) aborts the request and any backoff wait within ~0.1 s.
    // `onToken` (may be empty) receives each streamed piece of text in order.
    ChatResult complete(const std::vector<ChatMessage>& messages, bool stream,
                        const std::atomic<bool>* cancel = nullptr,
                        const std::function<void(const std::string&)>& onToken = {}) const;

    // {base}/chat/completions, with the slashes between them normalised.
    std::string endpoint() const;
    const LlmSettings& settings() const { return settings_; }

    static constexpr double kMaxRetryAfterSeconds = 60.0;  // cap on a server's Retry-After
    static constexpr double kMaxBackoffSeconds = 30.0;     // cap on the exponential backoff

private:
    LlmSettings settings_;
};

} // namespace sage::agent
