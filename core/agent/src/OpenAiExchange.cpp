#include "OpenAiExchange.h"

#include "Text.h"

#include <sage_json/BoundedJson.h>

#include <algorithm>
#include <cmath>

namespace sage::agent {
namespace {

using json = nlohmann::json;
using text::lower;
using text::trim;

// Length of the valid UTF-8 sequence starting at s[i], 0 when it is not one (or is cut short).
size_t utf8Sequence(const std::string& s, size_t i) {
    const auto b = static_cast<unsigned char>(s[i]);
    const size_t n = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 0;
    if (n == 0 || i + n > s.size()) return 0;
    for (size_t k = 1; k < n; ++k)
        if ((static_cast<unsigned char>(s[i + k]) >> 6) != 0x2) return 0;
    return n;
}

// A server may cut a multi-byte character between two deltas and send each half as raw bytes in
// its JSON string, which a strict parser refuses. Each stray byte is carried through the parse as
// a private-use code point (U+10FF00 + byte) and put back afterwards, so no byte is lost.
std::string protectStrayBytes(const std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size();) {
        if (const size_t n = utf8Sequence(s, i)) {
            out.append(s, i, n);
            i += n;
            continue;
        }
        const auto b = static_cast<unsigned char>(s[i++]);
        out += char(0xF4), out += char(0x8F), out += char(0xBC | (b >> 6)), out += char(0x80 | (b & 0x3F));
    }
    return out;
}

void restoreStrayBytes(std::string& s) {
    std::string out;
    for (size_t i = 0; i < s.size(); ++i) {
        const auto c = [&](size_t k) { return static_cast<unsigned char>(s[i + k]); };
        if (i + 3 < s.size() && c(0) == 0xF4 && c(1) == 0x8F && (c(2) & 0xFC) == 0xBC) {
            out += char(((c(2) & 0x3) << 6) | (c(3) & 0x3F));
            i += 3;
        } else {
            out += s[i];
        }
    }
    s = std::move(out);
}

json parseTolerant(const std::string& payload, bool& repaired) {
    json j = sage_json::parseOrDiscarded(payload);
    repaired = false;
    if (!j.is_discarded()) return j;
    j = sage_json::parseOrDiscarded(protectStrayBytes(payload));
    repaired = !j.is_discarded();
    return j;
}

// Bytes at the end of `s` that start a UTF-8 character not yet complete.
size_t incompleteTail(const std::string& s) {
    for (size_t back = 1; back <= std::min<size_t>(3, s.size()); ++back) {
        const auto b = static_cast<unsigned char>(s[s.size() - back]);
        if ((b >> 6) == 0x2) continue;  // a continuation byte: look further back
        const size_t need = b < 0x80 ? 1 : (b >> 5) == 0x6 ? 2 : (b >> 4) == 0xE ? 3 : (b >> 3) == 0x1E ? 4 : 1;
        return need > back ? back : 0;
    }
    return 0;
}

std::string stringField(const json& o, const char* key) {
    return o.is_object() && o.contains(key) && o[key].is_string() ? o[key].get<std::string>() : std::string();
}

} // namespace

std::string redact(std::string text, const std::string& key) {
    if (key.size() < 4) return text;
    for (size_t p = text.find(key); p != std::string::npos; p = text.find(key, p))
        text.replace(p, key.size(), "[redacted]");
    return text;
}

std::string oneLine(const std::string& text, size_t limit) {
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

std::string serverMessage(const std::string& body) {
    json j = sage_json::parseOrDiscarded(body);
    if (!j.is_discarded() && j.is_object()) {
        auto pick = [](const json& v) -> std::string {
            if (v.is_string()) return v.get<std::string>();
            for (const char* k : {"message", "msg", "detail"})
                if (auto m = stringField(v, k); !m.empty()) return m;
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

int usagePromptTokens(const json& j) {
    if (!j.is_object() || !j.contains("usage") || !j["usage"].is_object()) return 0;
    const json& u = j["usage"];
    return u.contains("prompt_tokens") && u["prompt_tokens"].is_number_integer() ? u["prompt_tokens"].get<int>() : 0;
}

ChoiceText choiceText(const json& c) {
    ChoiceText t;
    if (!c.is_object()) return t;
    const json* m = nullptr;
    if (c.contains("delta") && c["delta"].is_object()) m = &c["delta"];
    else if (c.contains("message") && c["message"].is_object()) m = &c["message"];
    if (m) {
        t.content = stringField(*m, "content");
        t.reasoning = stringField(*m, "reasoning_content");
        if (t.reasoning.empty()) t.reasoning = stringField(*m, "reasoning");
        t.toolCalls = m->contains("tool_calls") && (*m)["tool_calls"].is_array() && !(*m)["tool_calls"].empty();
    } else {
        t.content = stringField(c, "text");
    }
    t.finishReason = stringField(c, "finish_reason");
    return t;
}

void Exchange::header(const std::string& line) {
    lastActivity = Clock::now();
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

void Exchange::decideMode(const char* data, size_t n) {
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

bool Exchange::write(const char* data, size_t n) {
    lastActivity = Clock::now();
    received += n;
    if (received > maxBytes) {
        tooLarge = true;
        return false;
    }
    if (!success()) {
        body.append(data, n);
        return true;
    }
    if (mode == Mode::Undecided) decideMode(data, n);
    if (mode == Mode::Undecided) return true;
    if (mode == Mode::Body) {
        body.append(data, n);
        return true;
    }
    lineBuffer_.append(data, n);
    size_t start = 0;
    for (size_t nl; (nl = lineBuffer_.find('\n', start)) != std::string::npos; start = nl + 1) {
        std::string line = lineBuffer_.substr(start, nl - start);
        if (!line.empty() && line.back() == '\r') line.pop_back();
        eventLine(line);
    }
    lineBuffer_.erase(0, start);
    return true;
}

void Exchange::finishEvents() {
    if (!lineBuffer_.empty()) {
        std::string line = std::move(lineBuffer_);
        lineBuffer_.clear();
        if (!line.empty() && line.back() == '\r') line.pop_back();
        eventLine(line);
    }
    flushEvent();
    emitTokens(true);
}

void Exchange::eventLine(const std::string& line) {
    if (line.empty()) return flushEvent();
    if (line[0] == ':') return;                   // comment / keep-alive
    if (line.rfind("data:", 0) != 0) return;      // event:, id:, retry: carry nothing we need
    std::string payload = line.substr(5);
    if (!payload.empty() && payload[0] == ' ') payload.erase(0, 1);
    if (trim(payload) == "[DONE]") {
        flushEvent();
        done = true;
        return;
    }
    if (!eventData_.empty()) {
        eventData_ += "\n" + payload;
        return;
    }
    bool repaired = false;  // most servers send one complete JSON object per data line
    json j = parseTolerant(payload, repaired);
    if (j.is_discarded()) {
        eventData_ = payload;
        return;
    }
    event(j);
}

void Exchange::flushEvent() {
    if (eventData_.empty()) return;
    bool repaired = false;
    json j = parseTolerant(eventData_, repaired);
    eventData_.clear();
    if (j.is_discarded()) {
        ++malformedEvents;
        return;
    }
    event(j);
}

void Exchange::event(const json& j) {
    ++events;
    if (!j.is_object()) {
        ++malformedEvents;
        return;
    }
    if (j.contains("error") && !j["error"].is_null()) {
        streamError = serverMessage(j.dump(-1, ' ', false, json::error_handler_t::replace));
        return;
    }
    promptTokens = std::max(promptTokens, usagePromptTokens(j));
    if (!j.contains("choices") || !j["choices"].is_array()) return;  // e.g. usage
    if (j["choices"].empty()) {
        ++emptyChoices;
        return;
    }
    ChoiceText t = choiceText(j["choices"][0]);
    restoreStrayBytes(t.content);
    restoreStrayBytes(t.reasoning);
    if (!t.finishReason.empty()) finishReason = t.finishReason;
    toolCalls = toolCalls || t.toolCalls;
    reasoning += t.reasoning;
    if (t.content.empty()) return;
    content += t.content;
    emitTokens(false);
}

// Passes new text to onToken, whole characters only. With a key set, the last key.size()-1 bytes
// are held back until more text arrives (or the stream ends), so a key split across deltas is
// still redacted.
void Exchange::emitTokens(bool final) {
    if (!onToken || !*onToken || emitted_ >= content.size()) return;
    size_t end = content.size();
    if (!final) {
        end -= incompleteTail(content);
        if (key.size() >= 4) {
            end = end > key.size() - 1 ? end - (key.size() - 1) : 0;
            for (size_t p = content.find(key, emitted_); p != std::string::npos && p < end; p = content.find(key, p + 1))
                end = std::max(end, p + key.size());  // never cut through an occurrence
            while (end > emitted_ && end < content.size() && (static_cast<unsigned char>(content[end]) >> 6) == 0x2) --end;
        }
        if (end <= emitted_) return;
    }
    std::string piece = redact(content.substr(emitted_, end - emitted_), key);
    emitted_ = end;
    if (!piece.empty()) (*onToken)(piece);
}

} // namespace sage::agent
