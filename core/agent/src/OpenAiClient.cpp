#include "OpenAiClient.h"

#include "Text.h"

#include <curl/curl.h>
#include <nlohmann/json.hpp>
#include <sage_json/BoundedJson.h>

#include <algorithm>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <mutex>
#include <optional>
#include <thread>

namespace sage::agent {
namespace {

using json = nlohmann::json;
using Clock = std::chrono::steady_clock;

constexpr size_t kMaxBodyBytes = 8u << 20;  // error and JSON bodies are read up to this size
constexpr int kPollMillis = 50;             // cancel latency of a running request

void initCurlOnce() {
    static std::once_flag once;
    std::call_once(once, [] { curl_global_init(CURL_GLOBAL_DEFAULT); });
}

using text::lower;
using text::trim;

bool isCancelled(const std::atomic<bool>* cancel) { return cancel && cancel->load(); }

// Replaces every occurrence of the key, so that a server echoing it cannot leak it into results.
std::string redact(std::string text, const std::string& key) {
    if (key.size() < 4) return text;
    for (size_t p = text.find(key); p != std::string::npos; p = text.find(key, p))
        text.replace(p, key.size(), "[redacted]");
    return text;
}

// One line, at most `limit` characters, for error messages.
std::string oneLine(const std::string& text, size_t limit = 300) {
    std::string out;
    bool space = false;
    for (char c : text) {
        if (c == '\n' || c == '\r' || c == '\t' || c == ' ') {
            space = !out.empty();
            continue;
        }
        if (space) out += ' ';
        space = false;
        out += c;
        if (out.size() >= limit) {
            out += "…";
            break;
        }
    }
    return out;
}

// The human-readable message of an error body: {"error":{"message":..}}, {"error":".."},
// {"message":..}, {"detail":..}, or the text itself.
std::string serverMessage(const std::string& body) {
    json j = sage_json::parseOrDiscarded(body);
    if (!j.is_discarded() && j.is_object()) {
        auto pick = [](const json& v) -> std::string {
            if (v.is_string()) return v.get<std::string>();
            if (v.is_object()) {
                for (const char* k : {"message", "msg", "detail"})
                    if (v.contains(k) && v[k].is_string()) return v[k].get<std::string>();
            }
            return {};
        };
        for (const char* k : {"error", "message", "detail"})
            if (j.contains(k))
                if (auto m = pick(j[k]); !m.empty()) return oneLine(m);
        return oneLine(j.dump());
    }
    std::string t = oneLine(body);
    return t.empty() ? std::string("(empty body)") : t;
}

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

// State of one HTTP exchange, filled by curl's header and write callbacks.
struct Exchange {
    const std::function<void(const std::string&)>* onToken = nullptr;
    const std::atomic<bool>* cancel = nullptr;
    std::string key;      // the API key, redacted from what is passed to onToken
    size_t emitted = 0;   // bytes of `content` already passed to onToken

    long status = 0;
    std::string contentType;
    std::optional<double> retryAfter;

    enum class Mode { Undecided, Events, Body } mode = Mode::Undecided;
    std::string body;       // JSON answer or error body
    std::string lineBuffer; // SSE: the incomplete last line
    std::string eventData;  // SSE: data lines of the event being assembled
    std::string content, finishReason, streamError;
    int events = 0, malformedEvents = 0;
    bool done = false;

    bool success() const { return status >= 200 && status < 300; }

    void header(const std::string& line) {
        if (line.rfind("HTTP/", 0) == 0) {  // a new response (after 100 Continue or a retry)
            size_t sp = line.find(' ');
            status = sp == std::string::npos ? 0 : std::strtol(line.c_str() + sp + 1, nullptr, 10);
            contentType.clear();
            retryAfter.reset();
            return;
        }
        size_t colon = line.find(':');
        if (colon == std::string::npos) return;
        std::string name = lower(trim(line.substr(0, colon)));
        std::string value = trim(line.substr(colon + 1));
        if (name == "content-type") {
            contentType = lower(value);
        } else if (name == "retry-after") {
            char* end = nullptr;
            double v = std::strtod(value.c_str(), &end);
            if (end != value.c_str() && std::isfinite(v) && v >= 0) retryAfter = v;  // HTTP dates are ignored
        }
    }

    void write(const char* data, size_t n) {
        if (!success()) {
            if (body.size() < kMaxBodyBytes) body.append(data, std::min(n, kMaxBodyBytes - body.size()));
            return;
        }
        if (mode == Mode::Undecided) {
            if (contentType.find("event-stream") != std::string::npos) {
                mode = Mode::Events;
            } else if (contentType.find("json") != std::string::npos) {
                mode = Mode::Body;
            } else {  // no or odd content type: sniff the first visible character
                size_t i = 0;
                while (i < n && std::isspace((unsigned char)data[i])) ++i;
                if (i == n) return;  // only whitespace so far
                mode = (data[i] == 'd' || data[i] == ':') ? Mode::Events : Mode::Body;
            }
        }
        if (mode == Mode::Body) {
            if (body.size() < kMaxBodyBytes) body.append(data, std::min(n, kMaxBodyBytes - body.size()));
            return;
        }
        lineBuffer.append(data, n);
        size_t start = 0;
        for (size_t nl; (nl = lineBuffer.find('\n', start)) != std::string::npos; start = nl + 1) {
            std::string line = lineBuffer.substr(start, nl - start);
            if (!line.empty() && line.back() == '\r') line.pop_back();
            eventLine(line);
        }
        lineBuffer.erase(0, start);
    }

    void finishEvents() {
        if (!lineBuffer.empty()) {
            std::string line = lineBuffer;
            lineBuffer.clear();
            if (!line.empty() && line.back() == '\r') line.pop_back();
            eventLine(line);
        }
        flushEvent();
        emitTokens(true);
    }

    void eventLine(const std::string& line) {
        if (line.empty()) {
            flushEvent();
            return;
        }
        if (line[0] == ':') return;  // comment / keep-alive
        if (line.rfind("data:", 0) != 0) return;  // event:, id:, retry: carry nothing we need
        std::string payload = line.substr(5);
        if (!payload.empty() && payload[0] == ' ') payload.erase(0, 1);
        if (trim(payload) == "[DONE]") {
            flushEvent();
            done = true;
            return;
        }
        if (eventData.empty()) {  // most servers send one complete JSON object per data line
            json j = sage_json::parseOrDiscarded(payload);
            if (!j.is_discarded()) {
                event(j);
                return;
            }
            eventData = payload;
        } else {
            eventData += "\n" + payload;
        }
    }

    void flushEvent() {
        if (eventData.empty()) return;
        json j = sage_json::parseOrDiscarded(eventData);
        eventData.clear();
        if (j.is_discarded()) {
            ++malformedEvents;
            return;
        }
        event(j);
    }

    void event(const json& j) {
        ++events;
        if (!j.is_object()) {
            ++malformedEvents;
            return;
        }
        if (j.contains("error") && !j["error"].is_null()) {
            streamError = serverMessage(j.dump());
            return;
        }
        if (!j.contains("choices") || !j["choices"].is_array() || j["choices"].empty()) return;  // e.g. usage
        const json& c = j["choices"][0];
        if (!c.is_object()) return;
        std::string piece;
        if (c.contains("delta") && c["delta"].is_object() && c["delta"].contains("content") &&
            c["delta"]["content"].is_string())
            piece = c["delta"]["content"].get<std::string>();
        else if (c.contains("message") && c["message"].is_object() && c["message"].contains("content") &&
                 c["message"]["content"].is_string())
            piece = c["message"]["content"].get<std::string>();
        else if (c.contains("text") && c["text"].is_string())
            piece = c["text"].get<std::string>();
        if (c.contains("finish_reason") && c["finish_reason"].is_string())
            finishReason = c["finish_reason"].get<std::string>();
        if (piece.empty()) return;
        content += piece;
        emitTokens(false);
    }

    // Passes new text to onToken. With a key set, the last key.size()-1 bytes are held back until
    // more text arrives (or the stream ends), so a key split across deltas is still redacted.
    void emitTokens(bool final) {
        if (!onToken || !*onToken || emitted >= content.size()) return;
        size_t end = content.size();
        if (!final && key.size() >= 4) {
            end = content.size() > key.size() - 1 ? content.size() - (key.size() - 1) : 0;
            for (size_t p = content.find(key, emitted); p != std::string::npos && p < end; p = content.find(key, p + 1))
                end = std::max(end, p + key.size());  // never cut through an occurrence
            if (end <= emitted) return;
        }
        std::string piece = redact(content.substr(emitted, end - emitted), key);
        emitted = end;
        if (!piece.empty()) (*onToken)(piece);
    }
};

size_t headerCallback(char* data, size_t size, size_t count, void* user) {
    std::string line(data, size * count);
    while (!line.empty() && (line.back() == '\n' || line.back() == '\r')) line.pop_back();
    static_cast<Exchange*>(user)->header(line);
    return size * count;
}

size_t writeCallback(char* data, size_t size, size_t count, void* user) {
    auto* ex = static_cast<Exchange*>(user);
    if (isCancelled(ex->cancel)) return 0;  // aborts the transfer (CURLE_WRITE_ERROR)
    ex->write(data, size * count);
    return size * count;
}

int progressCallback(void* user, curl_off_t, curl_off_t, curl_off_t, curl_off_t) {
    return isCancelled(static_cast<Exchange*>(user)->cancel) ? 1 : 0;
}

struct Attempt {
    CURLcode code = CURLE_OK;
    std::string curlMessage;
    bool cancelled = false;
};

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

} // namespace

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
                                  const std::function<void(const std::string&)>& onToken) const {
    initCurlOnce();
    ChatResult result;
    const std::string url = endpoint();
    const char* keyVar = settings_.apiKeyEnv.empty() ? nullptr : std::getenv(settings_.apiKeyEnv.c_str());
    const std::string key = keyVar && *keyVar ? std::string(keyVar) : settings_.apiKey;

    json request = {{"model", settings_.model}, {"temperature", settings_.temperature}, {"stream", stream}};
    if (settings_.maxTokens > 0) request["max_tokens"] = settings_.maxTokens;
    request["messages"] = json::array();
    for (const auto& m : messages) request["messages"].push_back({{"role", m.role}, {"content", m.content}});
    const std::string body = request.dump();

    const int maxAttempts = 1 + std::max(0, settings_.maxRetries);
    const double timeout = settings_.timeoutSeconds > 0 ? settings_.timeoutSeconds : 120.0;
    auto cancelled = [&] {
        result.ok = false;
        result.cancelled = true;
        result.error = "cancelled: the request to the model server was aborted";
        return result;
    };

    for (int attempt = 0; attempt < maxAttempts; ++attempt) {
        if (isCancelled(cancel)) return cancelled();
        result.attempts = attempt + 1;

        Exchange ex;
        ex.onToken = &onToken;
        ex.cancel = cancel;
        ex.key = key;

        CURL* h = curl_easy_init();
        if (!h) {
            result.error = "could not create an HTTP handle (libcurl)";
            return result;
        }
        char errbuf[CURL_ERROR_SIZE] = {0};
        curl_slist* headers = nullptr;
        headers = curl_slist_append(headers, "Content-Type: application/json");
        headers = curl_slist_append(headers, stream ? "Accept: text/event-stream, application/json" : "Accept: application/json");
        headers = curl_slist_append(headers, "Expect:");  // no 100-continue round trip for big prompts
        if (!key.empty()) {
            std::string auth = "Authorization: Bearer " + key;
            headers = curl_slist_append(headers, auth.c_str());
            std::fill(auth.begin(), auth.end(), '\0');
        }
        const std::string noProxy = noProxyList();
        curl_easy_setopt(h, CURLOPT_URL, url.c_str());
        curl_easy_setopt(h, CURLOPT_POST, 1L);
        curl_easy_setopt(h, CURLOPT_POSTFIELDS, body.c_str());
        curl_easy_setopt(h, CURLOPT_POSTFIELDSIZE_LARGE, curl_off_t(body.size()));
        curl_easy_setopt(h, CURLOPT_HTTPHEADER, headers);
        curl_easy_setopt(h, CURLOPT_NOSIGNAL, 1L);
        curl_easy_setopt(h, CURLOPT_NOPROXY, noProxy.c_str());
        curl_easy_setopt(h, CURLOPT_ERRORBUFFER, errbuf);
        curl_easy_setopt(h, CURLOPT_TIMEOUT_MS, long(timeout * 1000));
        curl_easy_setopt(h, CURLOPT_CONNECTTIMEOUT_MS, long(std::min(timeout, 30.0) * 1000));
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_LIMIT, 1L);  // a stalled connection counts as a timeout
        curl_easy_setopt(h, CURLOPT_LOW_SPEED_TIME, long(std::max(1.0, std::ceil(timeout))));
        curl_easy_setopt(h, CURLOPT_HEADERFUNCTION, headerCallback);
        curl_easy_setopt(h, CURLOPT_HEADERDATA, &ex);
        curl_easy_setopt(h, CURLOPT_WRITEFUNCTION, writeCallback);
        curl_easy_setopt(h, CURLOPT_WRITEDATA, &ex);
        curl_easy_setopt(h, CURLOPT_NOPROGRESS, 0L);
        curl_easy_setopt(h, CURLOPT_XFERINFOFUNCTION, progressCallback);
        curl_easy_setopt(h, CURLOPT_XFERINFODATA, &ex);

        // Driven through a multi handle so that a cancel is seen within kPollMillis, not only at
        // curl's once-a-second progress calls.
        Attempt at;
        bool finished = false;
        CURLM* multi = curl_multi_init();
        curl_multi_add_handle(multi, h);
        int running = 1;
        while (running) {
            if (curl_multi_perform(multi, &running) != CURLM_OK) break;
            if (!running) break;
            if (isCancelled(cancel)) {
                at.cancelled = true;
                break;
            }
            curl_multi_poll(multi, nullptr, 0, kPollMillis, nullptr);
        }
        if (!at.cancelled) {
            int left = 0;
            while (CURLMsg* msg = curl_multi_info_read(multi, &left))
                if (msg->msg == CURLMSG_DONE && msg->easy_handle == h) {
                    at.code = msg->data.result;
                    finished = true;
                }
            if (!finished) at.code = CURLE_FAILED_INIT;  // the multi interface itself failed
        }
        at.curlMessage = errbuf[0] ? std::string(errbuf) : std::string(curl_easy_strerror(at.code));
        curl_multi_remove_handle(multi, h);
        curl_easy_cleanup(h);
        curl_multi_cleanup(multi);
        curl_slist_free_all(headers);

        if (at.cancelled || isCancelled(cancel) || at.code == CURLE_ABORTED_BY_CALLBACK) return cancelled();
        result.httpStatus = int(ex.status);

        if (at.code != CURLE_OK) {
            switch (at.code) {
            case CURLE_OPERATION_TIMEDOUT:
                result.timedOut = true;
                result.error = "the request to " + url + " timed out after " + secondsText(timeout) +
                               (ex.content.empty() ? " without an answer" : " before the answer was complete") +
                               " (raise llm.timeout_seconds, or check that the server is not overloaded)";
                break;
            case CURLE_COULDNT_CONNECT:
                result.error = "cannot connect to " + url + ": " + at.curlMessage + " (is the model server running?)";
                break;
            case CURLE_COULDNT_RESOLVE_HOST:
            case CURLE_COULDNT_RESOLVE_PROXY:
                result.error = "cannot resolve the host of " + url + ": " + at.curlMessage + " (check llm.base_url)";
                break;
            case CURLE_GOT_NOTHING:
            case CURLE_RECV_ERROR:
            case CURLE_SEND_ERROR:
            case CURLE_PARTIAL_FILE:
                // The connection dropped. Safe to retry only when nothing reached the caller yet.
                if (ex.content.empty() && attempt + 1 < maxAttempts) {
                    double delay = std::min(settings_.retryBaseSeconds * std::pow(2.0, attempt), kMaxBackoffSeconds);
                    if (!sleepUnlessCancelled(delay, cancel)) return cancelled();
                    continue;
                }
                result.error = "the connection to " + url + " broke: " + at.curlMessage;
                break;
            default:
                result.error = "the request to " + url + " failed: " + at.curlMessage;
            }
            result.content = redact(ex.content, key);
            result.error = redact(result.error, key);
            return result;
        }

        if (!ex.success()) {
            const std::string message = redact(serverMessage(ex.body), key);
            const bool retryable = ex.status == 429 || ex.status >= 500;
            if (retryable && attempt + 1 < maxAttempts) {
                double delay = ex.retryAfter ? std::min(*ex.retryAfter, kMaxRetryAfterSeconds)
                                             : std::min(settings_.retryBaseSeconds * std::pow(2.0, attempt), kMaxBackoffSeconds);
                if (!sleepUnlessCancelled(std::max(0.0, delay), cancel)) return cancelled();
                continue;
            }
            std::string what = statusText(ex.status) + " from " + url + ": " + message;
            if (retryable) {
                result.error = std::string(ex.status == 429 ? "the model server kept rate-limiting: "
                                                            : "the model server kept failing: ") +
                               what + " (after " + std::to_string(result.attempts) + " attempt" +
                               (result.attempts == 1 ? "" : "s") + ")";
            } else {
                result.error = "the model server rejected the request: " + what;
                if (ex.status == 401 || ex.status == 403)
                    result.error += key.empty() ? " ($" + settings_.apiKeyEnv + " is not set; put the API key there)"
                                                : " (check the API key in $" + settings_.apiKeyEnv + ")";
                else if (ex.status == 404)
                    result.error += " (check llm.base_url — it usually ends in /v1 — and llm.model)";
            }
            return result;
        }

        // 2xx
        if (ex.mode == Exchange::Mode::Events) {
            ex.finishEvents();
            result.streamed = true;
            result.content = redact(ex.content, key);
            result.finishReason = ex.finishReason;
            if (!ex.streamError.empty()) {
                result.error = "the model server reported an error in the stream: " + redact(ex.streamError, key);
                return result;
            }
            if (ex.content.empty()) {
                result.error = "the model server streamed no text (" + std::to_string(ex.events) + " events" +
                               (ex.malformedEvents ? ", " + std::to_string(ex.malformedEvents) + " malformed" : "") +
                               (ex.done ? "" : ", no [DONE]") + ")";
                return result;
            }
            result.ok = true;
            return result;
        }
        json j = sage_json::parseOrDiscarded(ex.body);
        if (j.is_discarded() || !j.is_object()) {
            result.error = "the model server answered " + statusText(ex.status) +
                           " with a body that is not chat-completions JSON: " + redact(oneLine(ex.body, 200), key);
            return result;
        }
        if (j.contains("error") && !j["error"].is_null()) {
            result.error = "the model server reported an error: " + redact(serverMessage(ex.body), key);
            return result;
        }
        const json* choice = nullptr;
        if (j.contains("choices") && j["choices"].is_array() && !j["choices"].empty()) choice = &j["choices"][0];
        if (!choice || !choice->is_object()) {
            result.error = "the model server's answer has no choices: " + redact(oneLine(ex.body, 200), key);
            return result;
        }
        std::string text;
        if (choice->contains("message") && (*choice)["message"].is_object() &&
            (*choice)["message"].contains("content") && (*choice)["message"]["content"].is_string())
            text = (*choice)["message"]["content"].get<std::string>();
        else if (choice->contains("text") && (*choice)["text"].is_string())
            text = (*choice)["text"].get<std::string>();
        if (choice->contains("finish_reason") && (*choice)["finish_reason"].is_string())
            result.finishReason = (*choice)["finish_reason"].get<std::string>();
        result.content = redact(text, key);
        if (text.empty()) {
            result.error = "the model server's answer holds no text (finish_reason " +
                           (result.finishReason.empty() ? std::string("unknown") : result.finishReason) + ")";
            return result;
        }
        if (onToken) onToken(result.content);  // the whole answer as one piece
        result.ok = true;
        return result;
    }
    result.error = "no attempt was made (llm.max_retries is negative?)";
    return result;
}

} // namespace sage::agent
