#include "OpenAiClient.h"

#include "OpenAiExchange.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <sage_json/BoundedJson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <regex>
#include <thread>

namespace sage::agent {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr int kPollMillis = 50;  // cancel and idle-check latency of a running request

void initCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

bool isCancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

const char* reasonPhrase(long status) {
    switch (status) {
    case 400: return "Bad Request";
    case 401: return "Unauthorized";
    case 403: return "Forbidden";
    case 404: return "Not Found";
    case 408: return "Request Timeout";
    case 409: return "Conflict";
    case 413: return "Payload Too Large";
    case 422: return "Unprocessable Entity";
    case 429: return "Too Many Requests";
    case 500: return "Internal Server Error";
    case 502: return "Bad Gateway";
    case 503: return "Service Unavailable";
    case 504: return "Gateway Timeout";
    default: return "";
    }
}

std::string statusText(long status) {
    std::string s = "HTTP " + std::to_string(status);
    if (const char* r = reasonPhrase(status); *r) s += std::string(" ") + r;
    return s;
}

std::string secondsText(double s) {
    char buf[32];
    std::snprintf(buf, sizeof buf, "%g s", std::round(s * 100) / 100);
    return buf;
}

size_t headerCallback(char* data, size_t size, size_t count, void* user) {
    std::string line(data, size * count);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    static_cast<Exchange*>(user)->header(line);
    return size * count;
}

size_t writeCallback(char* data, size_t size, size_t count, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    if (isCancelled(ex->cancel)) return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
    return ex->write(data, size * count) ? size * count : 0;
}

// Waits `seconds` in small slices; false when cancelled meanwhile.
bool sleepUnlessCancelled(double seconds, const std::atomic<bool>* cancel) {
    auto until = Clock::now() + std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(seconds));
    while (Clock::now() < until) {
        if (isCancelled(cancel)) return false;
        auto left = until - Clock::now();
        std::this_thread::sleep_for(std::min<Clock::duration>(left, std::chrono::milliseconds(20)));
    }
    return !isCancelled(cancel);
}

std::string noProxyList() {
    std::string list = "localhost,127.0.0.1,::1";
    for (const char* var : {"no_proxy", "NO_PROXY"})
        if (const char* v = std::getenv(var); v && *v) return std::string(v) + "," + list;
    return list;
}

// How one transfer ended.
enum class Ending { Finished, Cancelled, Idle, Failed };

// One HTTP POST on a curl easy handle driven through a multi handle (so a cancel or an idle
// server is seen within kPollMillis, not only at curl's once-a-second progress calls). Owns the
// handles and the header list; everything is released when it goes out of scope.
class CurlRequest {
public:
    CurlRequest(const std::string& url, const std::string& body, bool stream, const std::string& key,
                const LlmSettings& s, Exchange& ex)
        : easy_(curl_easy_init()), multi_(curl_multi_init()), noProxy_(noProxyList()) {
        if (!easy_ || !multi_) return;
        headers_ = curl_slist_append(headers_, "Content-Type: application/json");
        headers_ = curl_slist_append(headers_, stream ? "Accept: text/event-stream, application/json" : "Accept: application/json");
        headers_ = curl_slist_append(headers_, "Expect:");  // no 100-continue round trip for big prompts
        if (!key.empty()) {
            std::string auth = "Authorization: Bearer " + key;
            headers_ = curl_slist_append(headers_, auth.c_str());
            std::fill(auth.begin(), auth.end(), '\0');
        }
        curl_easy_setopt(easy_, CURLOPT_URL, url.c_str());
        curl_easy_setopt(easy_, CURLOPT_POST, 1L);
        curl_easy_setopt(easy_, CURLOPT_POSTFIELDS, body.c_str());
        curl_easy_setopt(easy_, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        curl_easy_setopt(easy_, CURLOPT_HTTPHEADER, headers_);
        curl_easy_setopt(easy_, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(easy_, CURLOPT_NOPROXY, noProxy_.c_str());
        curl_easy_setopt(easy_, CURLOPT_ERRORBUFFER, errbuf_);
        curl_easy_setopt(easy_, CURLOPT_TIMEOUT_MS, long(s.timeoutSeconds * 1000));
        curl_easy_setopt(easy_, CURLOPT_CONNECTTIMEOUT_MS, long(std::max(0.1, s.connectTimeoutSeconds) * 1000));
        curl_easy_setopt(easy_, CURLOPT_HEADERFUNCTION, headerCallback);
        curl_easy_setopt(easy_, CURLOPT_HEADERDATA, &ex);
        curl_easy_setopt(easy_, CURLOPT_WRITEFUNCTION, writeCallback);
        curl_easy_setopt(easy_, CURLOPT_WRITEDATA, &ex);
        curl_multi_add_handle(multi_, easy_);
        added_ = true;
    }
    ~CurlRequest() {
        if (added_) curl_multi_remove_handle(multi_, easy_);
        if (easy_) curl_easy_cleanup(easy_);
        if (multi_) curl_multi_cleanup(multi_);
        curl_slist_free_all(headers_);
    }
    CurlRequest(const CurlRequest&) = delete;
    CurlRequest& operator=(const CurlRequest&) = delete;

    bool valid() const { return added_; }

    // Runs the transfer to its end, a cancel, or `idleSeconds` without a byte from the server.
    Ending run(const Exchange& ex, const std::atomic<bool>* cancel, double idleSeconds) {
        const auto idle = std::chrono::duration_cast<Clock::duration>(std::chrono::duration<double>(idleSeconds));
        for (int running = 1; running;) {
            if (curl_multi_perform(multi_, &running) != CURLM_OK) break;
            if (!running) break;
            if (isCancelled(cancel)) return Ending::Cancelled;
            if (idleSeconds > 0 && Clock::now() - ex.lastActivity > idle) return Ending::Idle;
            curl_multi_poll(multi_, nullptr, 0, kPollMillis, nullptr);
        }
        int left = 0;
        while (CURLMsg* msg = curl_multi_info_read(multi_, &left))
            if (msg->msg == CURLMSG_DONE && msg->easy_handle == easy_) {
                code_ = msg->data.result;
                return Ending::Finished;
            }
        code_ = CURLE_FAILED_INIT;  // the multi interface itself failed
        return Ending::Failed;
    }

    CURLcode code() const { return code_; }
    bool connected() const {
        curl_off_t micros = 0;
        return curl_easy_getinfo(easy_, CURLINFO_CONNECT_TIME_T, &micros) == CURLE_OK && micros > 0;
    }
    std::string message() const { return errbuf_[0] ? std::string(errbuf_) : std::string(curl_easy_strerror(code_)); }

private:
    CURL* easy_ = nullptr;
    CURLM* multi_ = nullptr;
    curl_slist* headers_ = nullptr;
    std::string noProxy_;
    char errbuf_[CURL_ERROR_SIZE] = {0};
    CURLcode code_ = CURLE_OK;
    bool added_ = false;
};

// What the attempt loop does after an attempt: return the result, or try again.
enum class Next { Done, Retry };

} // namespace

int contextOverflowTokens(const std::string& message, int maxTokens) {
    static const std::regex refusal(
        R"(context length|context window|context size|maximum context|too many tokens|prompt is too long|exceeds the available context)",
        std::regex::icase);
    if (!std::regex_search(message, refusal)) return 0;
    std::smatch m;
    static const std::regex inMessages(R"((\d+) in the messages)", std::regex::icase);
    static const std::regex request(R"(request \((\d+) tokens\))", std::regex::icase);
    static const std::regex resulted(R"(messages resulted in (\d+) tokens)", std::regex::icase);
    static const std::regex requested(R"(requested (\d+) tokens)", std::regex::icase);
    for (const auto* re : {&inMessages, &request, &resulted})
        if (std::regex_search(message, m, *re)) return std::max(1, std::stoi(m[1].str().substr(0, 9)));
    if (std::regex_search(message, m, requested))
        return std::max(1, std::stoi(m[1].str().substr(0, 9)) - std::max(0, maxTokens));
    return -1;
}

// The steps of one completion, sharing the request's fixed facts.
struct OpenAiClient::Call {
    const LlmSettings& settings;
    std::string url, key, body;
    const std::atomic<bool>* cancel;
    const std::function<void(const std::string&)>& onToken;
    const std::function<void(const std::string&)>& onNotice;
    ChatResult result;
    bool noChoices = false;  // the last JSON answer had no choices

    ChatResult& cancelled() {
        result.ok = false;
        result.cancelled = true;
        result.error = "cancelled: the request to the model server was aborted";
        return result;
    }

    bool backoff(int attempt, std::optional<double> retryAfter, const std::string& why) {
        double delay = std::min(settings.retryBaseSeconds * std::pow(2.0, attempt), kMaxBackoffSeconds);
        if (retryAfter) delay = std::min(*retryAfter, settings.maxRetryAfterSeconds);
        if (onNotice)
            onNotice(why + (retryAfter ? "; the server asks to retry after " + secondsText(*retryAfter) : std::string()) +
                     "; waiting " + secondsText(delay) +
                     (retryAfter && *retryAfter > delay ? " (capped by llm.max_retry_after_seconds)" : std::string()) +
                     " before attempt " + std::to_string(attempt + 2));
        return sleepUnlessCancelled(std::max(0.0, delay), cancel);
    }

    Next transportError(const CurlRequest& req, Ending ending, const Exchange& ex, int attempt, int maxAttempts) {
        if (ending == Ending::Idle) {
            result.timedOut = true;
            result.timeoutSetting = "llm.idle_timeout_seconds";
            result.error = "the model server at " + url + " sent nothing for " + secondsText(settings.idleTimeoutSeconds) +
                           (ex.received ? " in the middle of its answer" : " after the request was sent") +
                           "; llm.idle_timeout_seconds ended the request (is the server alive and not overloaded?)";
        } else if (ex.tooLarge) {
            result.error = "the reply from " + url + " exceeded " + std::to_string(settings.maxReplyBytes) +
                           " bytes (llm.max_reply_bytes) and was cut off; the model may be repeating itself";
        } else {
            return curlError(req, ex, attempt, maxAttempts);
        }
        result.content = redact(ex.content, key);
        return Next::Done;
    }

    Next curlError(const CurlRequest& req, const Exchange& ex, int attempt, int maxAttempts) {
        const std::string what = req.message();
        switch (req.code()) {
        case CURLE_OPERATION_TIMEDOUT:
            result.timedOut = true;
            if (ex.status == 0 && ex.received == 0 && !req.connected()) {
                result.timeoutSetting = "llm.connect_timeout_seconds";
                result.error = "could not connect to " + url + " within " + secondsText(settings.connectTimeoutSeconds) +
                               " (llm.connect_timeout_seconds; is the host reachable?)";
            } else {
                result.timeoutSetting = "llm.timeout_seconds";
                result.error = "the request to " + url + " timed out after " + secondsText(settings.timeoutSeconds) +
                               (ex.content.empty() ? " without an answer" : " before the answer was complete") +
                               " (the total cap llm.timeout_seconds; raise it for a slow model)";
            }
            break;
        case CURLE_COULDNT_CONNECT:
            result.error = "cannot connect to " + url + ": " + what + " (is the model server running?)";
            break;
        case CURLE_COULDNT_RESOLVE_HOST:
        case CURLE_COULDNT_RESOLVE_PROXY:
            result.error = "cannot resolve the host of " + url + ": " + what + " (check llm.base_url)";
            break;
        case CURLE_GOT_NOTHING:
        case CURLE_RECV_ERROR:
        case CURLE_SEND_ERROR:
        case CURLE_PARTIAL_FILE:
            // The connection dropped. Safe to retry only when nothing reached the caller yet.
            if (ex.content.empty() && attempt + 1 < maxAttempts) return Next::Retry;
            result.error = "the connection to " + url + " broke: " + what;
            break;
        default: result.error = "the request to " + url + " failed: " + what;
        }
        result.content = redact(ex.content, key);
        result.error = redact(result.error, key);
        return Next::Done;
    }

    Next httpError(const Exchange& ex, int attempt, int maxAttempts) {
        const std::string message = redact(serverMessage(ex.body), key);
        if (ex.status == 400 || ex.status == 413 || ex.status == 422)
            if (int n = contextOverflowTokens(message, settings.maxTokens); n != 0) {
                result.contextOverflow = true;
                result.overflowPromptTokens = std::max(0, n);
                result.error = "the model server refused the request as longer than its context window: " +
                               statusText(ex.status) + " from " + url + ": " + message;
                return Next::Done;
            }
        const bool retryable = ex.status == 429 || ex.status >= 500;
        if (retryable && attempt + 1 < maxAttempts) return Next::Retry;
        const std::string what = statusText(ex.status) + " from " + url + ": " + message;
        if (retryable) {
            result.error = std::string(ex.status == 429 ? "the model server kept rate-limiting: " : "the model server kept failing: ") +
                           what + " (after " + std::to_string(result.attempts) + " attempt" + (result.attempts == 1 ? "" : "s") + ")";
            return Next::Done;
        }
        result.error = "the model server rejected the request: " + what;
        if (ex.status == 401 || ex.status == 403)
            result.error += key.empty() ? " ($" + settings.apiKeyEnv + " is not set; put the API key there)"
                                        : " (check the API key in $" + settings.apiKeyEnv + ")";
        else if (ex.status == 404)
            result.error += " (check llm.base_url — it usually ends in /v1 — and llm.model)";
        return Next::Done;
    }

    void noText(const std::string& how) {
        if (result.toolCalls)
            result.error = "the model answered with tool calls and no text (" + how + ")";
        else if (!result.reasoning.empty())
            result.error = "the model spent its reply on reasoning (" + std::to_string(result.reasoning.size()) +
                           " characters of reasoning_content, finish_reason " +
                           (result.finishReason.empty() ? std::string("unknown") : result.finishReason) + ") and wrote no answer";
        else
            result.error = "the model server " + how;
    }

    // Some servers answer an empty `choices` array now and then (a filter, an overloaded worker):
    // worth one more attempt; the last one says what it was.
    Next emptyChoices(int attempt, int maxAttempts, int events) {
        if (attempt + 1 < maxAttempts) return Next::Retry;
        result.error = "the model server answered with an empty choices array" +
                       (events ? " in all " + std::to_string(events) + " events" : std::string()) + " after " +
                       std::to_string(result.attempts) +
                       " attempts (a content filter, or a prompt the server could not take; check its log)";
        return Next::Done;
    }

    void streamed(Exchange& ex) {
        ex.finishEvents();
        result.streamed = true;
        result.promptTokens = ex.promptTokens;
        result.content = redact(ex.content, key);
        result.reasoning = redact(ex.reasoning, key);
        result.toolCalls = ex.toolCalls;
        result.finishReason = ex.finishReason;
        if (!ex.streamError.empty()) {
            result.error = "the model server reported an error in the stream: " + redact(ex.streamError, key);
            return;
        }
        if (ex.content.empty())
            return noText("streamed no text (" + std::to_string(ex.events) + " events" +
                          (ex.emptyChoices ? ", " + std::to_string(ex.emptyChoices) + " with empty choices" : "") +
                          (ex.malformedEvents ? ", " + std::to_string(ex.malformedEvents) + " malformed" : "") +
                          (ex.done ? "" : ", no [DONE]") + ")");
        result.ok = true;
    }

    void answered(const Exchange& ex) {
        json j = sage_json::parseOrDiscarded(ex.body);
        if (j.is_discarded() || !j.is_object()) {
            result.error = "the model server answered " + statusText(ex.status) +
                           " with a body that is not chat-completions JSON: " + redact(oneLine(ex.body, 200), key);
            return;
        }
        if (j.contains("error") && !j["error"].is_null()) {
            result.error = "the model server reported an error: " + redact(serverMessage(ex.body), key);
            return;
        }
        result.promptTokens = usagePromptTokens(j);
        if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty() || !j["choices"][0].is_object()) {
            noChoices = true;
            result.error = "the model server's answer has no choices: " + redact(oneLine(ex.body, 200), key);
            return;
        }
        const ChoiceText t = choiceText(j["choices"][0]);
        result.finishReason = t.finishReason;
        result.content = redact(t.content, key);
        result.reasoning = redact(t.reasoning, key);
        result.toolCalls = t.toolCalls;
        if (t.content.empty())
            return noText("answered with no text (finish_reason " + (t.finishReason.empty() ? std::string("unknown") : t.finishReason) + ")");
        if (onToken) onToken(result.content);  // the whole answer as one piece
        result.ok = true;
    }

    // One attempt; Retry when the loop should try again after a backoff.
    Next attempt(int n, int maxAttempts, bool stream) {
        result = ChatResult{};
        result.attempts = n + 1;
        noChoices = false;
        Exchange ex;
        ex.onToken = &onToken;
        ex.cancel = cancel;
        ex.key = key;
        ex.maxBytes = settings.maxReplyBytes;
        CurlRequest req(url, body, stream, key, settings, ex);
        if (!req.valid()) {
            result.error = "could not create an HTTP handle (libcurl)";
            return Next::Done;
        }
        const Ending ending = req.run(ex, cancel, settings.idleTimeoutSeconds);
        if (ending == Ending::Cancelled || isCancelled(cancel) || req.code() == CURLE_ABORTED_BY_CALLBACK) {
            cancelled();
            return Next::Done;
        }
        result.httpStatus = int(ex.status);
        Next next = Next::Done;
        if (ending != Ending::Finished || req.code() != CURLE_OK) next = transportError(req, ending, ex, n, maxAttempts);
        else if (!ex.success()) next = httpError(ex, n, maxAttempts);
        else if (ex.mode == Exchange::Mode::Events) streamed(ex);
        else answered(ex);
        if (noChoices) next = emptyChoices(n, maxAttempts, 0);
        else if (!result.ok && ex.emptyChoices && ex.content.empty() && ex.reasoning.empty() && !ex.toolCalls)
            next = emptyChoices(n, maxAttempts, ex.emptyChoices);
        if (next == Next::Retry && !backoff(n, ex.success() ? std::nullopt : ex.retryAfter,
                                            (ex.status ? statusText(ex.status) : std::string("no answer")) + " from " + url))
            cancelled();
        return result.cancelled ? Next::Done : next;
    }
};

OpenAiClient::OpenAiClient(LlmSettings settings) : settings_(std::move(settings)) {}

std::string OpenAiClient::endpoint() const {
    std::string base = settings_.baseUrl;
    while (!base.empty() && base.back() == '/') base.pop_back();
    const std::string suffix = "/chat/completions";
    if (base.size() >= suffix.size() && base.compare(base.size() - suffix.size(), suffix.size(), suffix) == 0)
        return base;
    return base + suffix;
}

ChatResult OpenAiClient::complete(const std::vector<ChatMessage>& messages, bool stream,
                                  const std::atomic<bool>* cancel,
                                  const std::function<void(const std::string&)>& onToken,
                                  const std::function<void(const std::string&)>& onNotice) const {
    initCurlOnce();
    const char* keyVar = settings_.apiKeyEnv.empty() ? nullptr : std::getenv(settings_.apiKeyEnv.c_str());
    // The environment variable wins (the headless path); otherwise the key the workbench read from
    // the desktop keychain for this session.
    const std::string key = keyVar && *keyVar ? std::string(keyVar) : settings_.apiKey;
    json request = {{"model", settings_.model}, {"temperature", settings_.temperature}, {"stream", stream}};
    if (settings_.maxTokens > 0) request["max_tokens"] = settings_.maxTokens;
    request["messages"] = json::array();
    for (const auto& m : messages) request["messages"].push_back({{"role", m.role}, {"content", m.content}});
    Call call{settings_, endpoint(), key,
              request.dump(-1, ' ', false, json::error_handler_t::replace), cancel, onToken, onNotice, {}, false};
    const int maxAttempts = 1 + std::max(0, settings_.maxRetries);
    for (int attempt = 0; attempt < maxAttempts; ++attempt) {
        if (isCancelled(cancel)) return call.cancelled();
        if (call.attempt(attempt, maxAttempts, stream) == Next::Done) return call.result;
    }
    call.result.error = "no attempt was made (llm.max_retries is negative?)";
    return call.result;
}

} // namespace sage::agent
