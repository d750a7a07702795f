// A scripted OpenAI-compatible chat-completions server for tests: listens on 127.0.0.1 on a free
// port and answers the n-th POST /v1/chat/completions with the n-th scripted step (streaming SSE,
// JSON, an HTTP error, a slow or stalled reply). Requests beyond the script get HTTP 500, so a
// client loop always ends. Every wait inside a step is bounded and ends early on shutdown.
// Optionally, requests that ask for no streaming ("stream": false, e.g. the policy's distillation
// call) are answered from a second script, so a test need not know how the two kinds interleave.
#pragma once

#include "sage_agent/AgentSettings.h"

#include <httplib.h>
#include <nlohmann/json.hpp>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <functional>
#include <mutex>
#include <string>
#include <thread>
#include <vector>

namespace sage::test {

class ScriptedLlmServer {
public:
    using Step = std::function<void(const httplib::Request&, httplib::Response&, const std::atomic<bool>& stopping)>;

    struct Recorded {
        std::string authorization;  // the Authorization header as received ("" when absent)
        std::string accept;
        nlohmann::json body;        // the parsed request body (null when it was not JSON)
    };

    ScriptedLlmServer() {
        server_.Post("/v1/chat/completions", [this](const httplib::Request& req, httplib::Response& res) {
            Step step;
            {
                std::lock_guard<std::mutex> lock(mutex_);
                Recorded r;
                r.authorization = req.get_header_value("Authorization");
                r.accept = req.get_header_value("Accept");
                r.body = nlohmann::json::parse(req.body, nullptr, false);
                if (r.body.is_discarded()) r.body = nullptr;
                const bool plain = separatePlain_ && r.body.is_object() && r.body.value("stream", true) == false;
                requests_.push_back(std::move(r));
                if (plain) {
                    if (nextPlain_ < plainSteps_.size()) step = plainSteps_[nextPlain_++];
                } else if (next_ < steps_.size()) {
                    step = steps_[next_++];
                }
            }
            if (step) step(req, res, stopping_);
            else {
                res.status = 500;
                res.set_content(R"({"error":{"message":"script exhausted"}})", "application/json");
            }
        });
        port_ = server_.bind_to_any_port("127.0.0.1");
        thread_ = std::thread([this] { server_.listen_after_bind(); });
        for (int i = 0; i < 200 && !server_.is_running(); ++i)
            std::this_thread::sleep_for(std::chrono::milliseconds(5));
    }

    ~ScriptedLlmServer() {
        stopping_ = true;
        server_.stop();
        if (thread_.joinable()) thread_.join();
    }

    ScriptedLlmServer(const ScriptedLlmServer&) = delete;
    ScriptedLlmServer& operator=(const ScriptedLlmServer&) = delete;

    int port() const { return port_; }
    std::string baseUrl() const { return "http://127.0.0.1:" + std::to_string(port_) + "/v1"; }

    // Endpoint settings for a policy or client talking to this server: no key, short backoff.
    agent::LlmSettings llmSettings() const {
        agent::LlmSettings s;
        s.baseUrl = baseUrl();
        s.model = "test-model";
        s.temperature = 0.1;
        s.maxTokens = 2048;
        s.timeoutSeconds = 10;
        s.apiKeyEnv = "SAGE_TEST_UNSET_KEY_VARIABLE";
        s.maxRetries = 3;
        s.retryBaseSeconds = 0.05;
        return s;
    }

    void script(std::vector<Step> steps) {
        std::lock_guard<std::mutex> lock(mutex_);
        steps_ = std::move(steps);
        next_ = 0;
        requests_.clear();
    }
    // Answers non-streaming requests from `steps` (and streaming ones from script()).
    void scriptNonStreaming(std::vector<Step> steps) {
        std::lock_guard<std::mutex> lock(mutex_);
        plainSteps_ = std::move(steps);
        nextPlain_ = 0;
        separatePlain_ = true;
    }
    std::vector<Recorded> requests() const {
        std::lock_guard<std::mutex> lock(mutex_);
        return requests_;
    }

    // ---- step builders ----

    // The SSE frames of `content`, in deltas of `pieceChars` bytes, then [DONE].
    static std::string sseStream(const std::string& content, size_t pieceChars = 40) {
        std::string out;
        for (size_t i = 0; i < content.size(); i += pieceChars) {
            nlohmann::json ev = {{"id", "chatcmpl-test"},
                                 {"object", "chat.completion.chunk"},
                                 {"choices", {{{"index", 0}, {"delta", {{"content", content.substr(i, pieceChars)}}}}}}};
            out += "data: " + ev.dump() + "\n\n";
        }
        nlohmann::json last = {{"choices", {{{"index", 0}, {"delta", nlohmann::json::object()}, {"finish_reason", "stop"}}}}};
        out += "data: " + last.dump() + "\n\ndata: [DONE]\n\n";
        return out;
    }

    // Streams `content` as SSE (deltas of `pieceChars` bytes), writing the raw stream in `bytesPerWrite`-byte HTTP chunks (so that
    // lines and events are split across writes), pausing `delayMs` between writes.
    static Step sse(std::string content, size_t bytesPerWrite = 13, int delayMs = 0, size_t pieceChars = 40) {
        return [content, bytesPerWrite, delayMs, pieceChars](const httplib::Request&, httplib::Response& res,
                                                             const std::atomic<bool>& stopping) {
            auto stream = std::make_shared<std::string>(sseStream(content, pieceChars));
            res.set_chunked_content_provider(
                "text/event-stream", [stream, bytesPerWrite, delayMs, &stopping](size_t, httplib::DataSink& sink) {
                    for (size_t i = 0; i < stream->size(); i += bytesPerWrite) {
                        if (stopping || !sink.is_writable()) return false;
                        if (!sink.write(stream->data() + i, std::min(bytesPerWrite, stream->size() - i))) return false;
                        if (delayMs > 0) std::this_thread::sleep_for(std::chrono::milliseconds(delayMs));
                    }
                    sink.done();
                    return true;
                });
        };
    }

    // A plain (non-streaming) chat-completions JSON answer.
    static Step json(std::string content, int status = 200) {
        return [content, status](const httplib::Request&, httplib::Response& res, const std::atomic<bool>&) {
            nlohmann::json body = {{"id", "chatcmpl-test"},
                                   {"object", "chat.completion"},
                                   {"choices", {{{"index", 0},
                                                 {"message", {{"role", "assistant"}, {"content", content}}},
                                                 {"finish_reason", "stop"}}}}};
            res.status = status;
            res.set_content(body.dump(), "application/json");
        };
    }

    // Any status with a raw body and extra headers.
    static Step status(int code, std::string body, std::string contentType = "application/json",
                       std::vector<std::pair<std::string, std::string>> headers = {}) {
        return [=](const httplib::Request&, httplib::Response& res, const std::atomic<bool>&) {
            res.status = code;
            for (const auto& [k, v] : headers) res.set_header(k.c_str(), v);
            res.set_content(body, contentType.c_str());
        };
    }

    // A vLLM-style context check: the request's message text counted at `charsPerToken` (denser
    // than the client's estimate, as a real tokenizer may be) plus max_tokens must fit `context`,
    // else HTTP 400 with vLLM's wording; otherwise `then` answers.
    static Step contextLimited(int context, double charsPerToken, Step then) {
        return [=](const httplib::Request& req, httplib::Response& res, const std::atomic<bool>& stopping) {
            const auto body = nlohmann::json::parse(req.body, nullptr, false);
            size_t chars = 0;
            if (body.is_object() && body.contains("messages"))
                for (const auto& m : body["messages"])
                    if (m.is_object() && m.contains("content") && m["content"].is_string())
                        chars += m["content"].get<std::string>().size();
            const int prompt = int(double(chars) / charsPerToken) + 1;
            const int completion = body.is_object() ? body.value("max_tokens", 0) : 0;
            if (prompt + completion <= context) return then(req, res, stopping);
            res.status = 400;
            const nlohmann::json err = {
                {"object", "error"},
                {"message", "This model's maximum context length is " + std::to_string(context) +
                                " tokens. However, you requested " + std::to_string(prompt + completion) + " tokens (" +
                                std::to_string(prompt) + " in the messages, " + std::to_string(completion) +
                                " in the completion). Please reduce the length of the messages or completion."},
                {"type", "BadRequestError"},
                {"code", 400}};
            res.set_content(err.dump(), "application/json");
        };
    }

    // Waits (at most `seconds`, less on shutdown), then runs `then`.
    static Step delayed(double seconds, Step then) {
        return [seconds, then](const httplib::Request& req, httplib::Response& res, const std::atomic<bool>& stopping) {
            auto until = std::chrono::steady_clock::now() + std::chrono::milliseconds(int(seconds * 1000));
            while (!stopping && std::chrono::steady_clock::now() < until)
                std::this_thread::sleep_for(std::chrono::milliseconds(10));
            then(req, res, stopping);
        };
    }

private:
    httplib::Server server_;
    std::thread thread_;
    int port_ = -1;
    std::atomic<bool> stopping_{false};
    mutable std::mutex mutex_;
    std::vector<Step> steps_;
    size_t next_ = 0;
    bool separatePlain_ = false;
    std::vector<Step> plainSteps_;
    size_t nextPlain_ = 0;
    std::vector<Recorded> requests_;
};

} // namespace sage::test
