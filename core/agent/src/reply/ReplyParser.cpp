// How the reply is read, in order:
//  1. reasoning before the last `</think>` is dropped;
//  2. SEARCH/REPLACE blocks (anywhere) or a unified diff (a ```diff block, or a diff inside a ```cpp
//     block) are applied to the parent;
//  3. otherwise the LAST closed code block that is a kernel file (has the `__global__ __aicore__`
//     entry or the `SAGE_HOST` part) is the candidate; a fragment with neither is refused;
//  4. the adoption is read from an `ADOPTED:`/`Adopted experiences:` line (ids on the same line or
//     as a bullet list below it, any separator, `E6/E9`), or a JSON trailer {"adopted": [...]}.
//     A missing or unreadable adoption keeps the kernel and records adoptionKnown = false.
#include "reply/ReplyParser.h"

#include "Text.h"
#include "reply/SourceEdits.h"

#include <algorithm>
#include <optional>
#include <regex>
#include <set>

namespace sage::agent::reply {
namespace {

using text::lower;
using text::splitLines;
using text::trim;

// std::regex recurses per character matched: lines longer than this are never given to it, so a
// hostile reply cannot exhaust the stack.
constexpr size_t kMaxRegexLine = 2000;

struct Block {
    std::string lang, content;
    bool closed = false;
    std::string label;  // the last prose line before the block ("The original, for reference:")
};

// Fence tags name the language in many spellings: ascend_c, Ascend-C, C++.
std::string normalisedLanguage(const std::string& info) {
    std::string lang = lower(info.substr(0, info.find_first_of(" \t{:,")));
    lang.erase(std::remove_if(lang.begin(), lang.end(), [](char c) { return c == '_' || c == '-'; }), lang.end());
    return lang;
}

// A block the reply itself calls the old version, shown only for reference.
bool labelledAsOriginal(const Block& b) {
    static const std::regex original(R"(original|for reference|previous (version|kernel|code)|old (version|kernel|code)|before the change|unchanged parent)",
                                     std::regex::icase);
    return b.label.size() < kMaxRegexLine && std::regex_search(b.label, original);
}

bool isCodeLanguage(const std::string& lang) {
    static const std::set<std::string> ok = {"",    "cpp", "c++", "c",       "cc",   "cxx", "h",
                                             "hpp", "hxx", "ascendc", "cuda", "kernel", "text"};
    return ok.count(lang) > 0;
}

bool isDiffLanguage(const std::string& lang) { return lang == "diff" || lang == "patch" || lang == "udiff"; }

bool hasKernelEntry(const std::string& code) {
    return code.find("__global__") != std::string::npos && code.find("__aicore__") != std::string::npos;
}
bool hasHostPart(const std::string& code) { return code.find("SAGE_HOST") != std::string::npos; }
bool isKernelFile(const std::string& code) { return hasKernelEntry(code) || hasHostPart(code); }

// Models sometimes copy the prompt's "  12 | " line numbers; drop them when every line has one.
std::string stripLineNumbers(const std::string& code) {
    auto lines = splitLines(code);
    return stripCopiedLineNumbers(lines) ? text::joinLines(lines) : code;
}

// Splits the text into fenced blocks and the prose between them. The info string may carry a file
// name or attributes: ```cpp:kernel.cpp, ```c++ title="kernel.cpp", ```cpp {.line-numbers}.
void splitBlocks(const std::string& text, std::vector<Block>& blocks, std::vector<std::string>& prose) {
    bool inBlock = false;
    std::string fence;
    size_t proseBefore = 0;  // prose lines that precede the previous block
    for (const auto& line : splitLines(text)) {
        std::string t = trim(line);
        if (!inBlock) {
            if (t.rfind("```", 0) == 0 || t.rfind("~~~", 0) == 0) {
                size_t n = 0;
                while (n < t.size() && t[n] == t[0]) ++n;
                fence = t.substr(0, n);
                std::string info = trim(t.substr(n));
                std::string label;
                for (size_t k = prose.size(); k > proseBefore && label.empty(); --k) label = trim(prose[k - 1]);
                proseBefore = prose.size();
                blocks.push_back({normalisedLanguage(info), "", false, label});
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

// `NAME:` possibly decorated with markdown (bullets, bold, heading marks); the value after it.
std::optional<std::string> markerValue(const std::string& line, const std::string& namePattern) {
    if (line.size() > kMaxRegexLine) return std::nullopt;
    std::regex re(R"(^[\s>*_#\-]*(?:)" + namePattern + R"()[*_\s]*:[*_\s]*(.*)$)", std::regex::icase);
    std::smatch m;
    if (!std::regex_match(line, m, re)) return std::nullopt;
    return trim(m[1].str());
}

const std::string kAdoptedName = R"(adopted(?:[ _](?:experiences?|experience[ _]ids?|entries|ids?|lessons?))?)";

bool saysNone(const std::string& value) {
    std::string v = lower(trim(value));
    v.erase(std::remove_if(v.begin(), v.end(), [](char c) { return c == '*' || c == '_' || c == '`' || c == '"'; }),
            v.end());
    v = trim(v);
    return v.empty() || v.rfind("none", 0) == 0 || v == "-" || v == "n/a" || v == "[]" || v == "nothing" ||
           v.rfind("no ", 0) == 0 || v == "no";
}

// Experience ids in free text: `E6`, `[E6]`, `#6`, `6`, separated by anything. E-prefixed ids win
// when present, so "E6 (12 lanes)" does not adopt 12.
std::vector<int64_t> idsIn(const std::string& value) {
    static const std::regex prefixed(R"((?:^|[^A-Za-z0-9])[Ee#]\s?(\d{1,15})\b)");
    static const std::regex bare(R"((?:^|[^A-Za-z0-9.])(\d{1,15})(?![\d.]))");
    std::vector<int64_t> ids;
    auto collect = [&](const std::regex& re) {
        for (std::sregex_iterator it(value.begin(), value.end(), re), end; it != end; ++it) {
            int64_t id = std::stoll((*it)[1].str());
            if (std::find(ids.begin(), ids.end(), id) == ids.end()) ids.push_back(id);
        }
    };
    collect(prefixed);
    if (ids.empty()) collect(bare);
    return ids;
}

struct Adoption {
    bool known = false;
    std::vector<int64_t> ids;
};

Adoption readAdoption(const std::vector<std::string>& prose, const std::vector<Block>& blocks) {
    Adoption a;
    // The last adoption line wins; its ids may continue as a bullet list on the next lines.
    for (size_t i = 0; i < prose.size(); ++i) {
        auto v = markerValue(prose[i], kAdoptedName);
        if (!v) continue;
        std::string value = *v;
        if (trim(value).empty() || value == "[" )
            for (size_t k = i + 1; k < prose.size(); ++k) {
                std::string t = trim(prose[k]);
                if (t.empty() && value.empty()) continue;
                if (t.empty() || !(t[0] == '-' || t[0] == '*' || t[0] == '+' || std::isdigit((unsigned char)t[0]) ||
                                   t[0] == '[' || t[0] == 'E' || t[0] == ']'))
                    break;
                if (markerValue(prose[k], "rationale")) break;
                value += " " + t.substr(0, t.find_first_of(":(")) + ",";
            }
        if (saysNone(value)) {
            a = {true, {}};
            continue;
        }
        auto ids = idsIn(value);
        if (!ids.empty()) a = {true, ids};
    }
    if (a.known) return a;
    // A JSON trailer: {"adopted": ["E6", 9]} in the prose or in a ```json block, line by line.
    std::vector<std::string> lines;
    for (const auto& l : prose) lines.push_back(l);
    for (const auto& b : blocks)
        if (b.lang == "json")
            for (const auto& l : splitLines(b.content)) lines.push_back(l);
    static const std::regex json(R"re("adopted(?:_ids|_experiences)?"\s*:\s*(\[[^\]]*\]|"[^"]*"|null))re",
                                 std::regex::icase);
    std::smatch m;
    for (const auto& line : lines) {
        if (line.size() > kMaxRegexLine) continue;
        for (std::string rest = line; std::regex_search(rest, m, json); rest = m.suffix().str()) {
            std::string v = m[1].str();
            if (v == "null" || saysNone(v.substr(1, v.size() - 2))) a = {true, {}};
            else a = {true, idsIn(v)};
        }
    }
    return a;
}

std::string readRationale(const std::vector<std::string>& prose) {
    size_t at = std::string::npos;
    std::string head;
    for (size_t i = 0; i < prose.size(); ++i)
        if (auto v = markerValue(prose[i], "rationale|reason|why|changes?")) {
            at = i;
            head = *v;
        }
    if (at == std::string::npos) return {};
    std::string rationale = head;
    for (size_t i = at + 1; i < prose.size(); ++i) {
        std::string t = trim(prose[i]);
        if (t.empty()) {
            if (rationale.empty()) continue;
            break;
        }
        if (markerValue(prose[i], kAdoptedName)) break;
        rationale += (rationale.empty() ? "" : " ") + t;
    }
    return trim(rationale);
}

// A reply with no fence at all but an obvious kernel file: from the first #include to the last
// line that closes a brace at column 0.
std::optional<std::string> bareKernel(const std::string& text) {
    auto lines = splitLines(text);
    size_t b = 0, e = 0;
    while (b < lines.size() && lines[b].rfind("#include", 0) != 0) ++b;
    for (size_t i = b; i < lines.size(); ++i)
        if (lines[i].rfind("}", 0) == 0) e = i + 1;
    if (b >= lines.size() || e <= b) return std::nullopt;
    std::string code = text::joinLines(lines, b, e);
    if (!isKernelFile(code)) return std::nullopt;
    return code;
}

struct Choice {
    const Block* chosen = nullptr;    // the kernel file to take
    const Block* diff = nullptr;      // a unified diff to apply
    const Block* fragment = nullptr;  // a code block that is no kernel file
    const Block* open = nullptr;      // a code block never closed (a cut-off reply)
};

bool sameCode(const std::string& a, const std::string& b) { return trim(a) == trim(b); }

// The last closed kernel file, unless the reply labels it as the original or it is the parent
// unchanged while another kernel file is there ("here is the new file ... and the original for
// reference"); a diff after the last kernel file wins.
Choice choose(const std::vector<Block>& blocks, const std::string& parent) {
    Choice c;
    const Block* fallback = nullptr;
    for (auto it = blocks.rbegin(); it != blocks.rend() && !c.chosen && !c.diff; ++it) {
        if (trim(it->content).empty()) continue;
        const bool code = isCodeLanguage(it->lang);
        if (!it->closed) {
            if ((code || isDiffLanguage(it->lang)) && !fallback) c.open = &*it;
        } else if (isDiffLanguage(it->lang) || (code && looksLikeUnifiedDiff(it->content))) {
            if (!fallback) c.diff = &*it;
        } else if (code && isKernelFile(it->content)) {
            const bool old = labelledAsOriginal(*it) || (!parent.empty() && sameCode(stripLineNumbers(it->content), parent));
            if (!old) c.chosen = &*it;
            else if (!fallback) fallback = &*it;
        } else if (code && !c.fragment) {
            c.fragment = &*it;
        }
    }
    if (!c.chosen && !c.diff) c.chosen = fallback;
    return c;
}

// The first line of `source` that stands for left-out code and was not in the parent, 0 if none.
size_t placeholderLine(const std::string& source, const std::string& parent) {
    const auto lines = splitLines(source);
    for (size_t i = 0; i < lines.size(); ++i)
        if (isPlaceholderLine(lines[i]) && parent.find(trim(lines[i])) == std::string::npos) return i + 1;
    return 0;
}

const char* kFragmentAdvice =
    "; send the COMPLETE kernel file (includes, the extern \"C\" __global__ __aicore__ entry and SAGE_HOST) in one "
    "```cpp block, or SEARCH/REPLACE blocks that edit the parent";

// A candidate with a placeholder for left-out code would fail to compile, or worse compile with
// the code missing: refused with feedback, never evaluated.
LlmPolicy::ParsedReply& refusePlaceholders(LlmPolicy::ParsedReply& r, const std::string& parent) {
    if (const size_t line = placeholderLine(r.source, parent)) {
        r.error = "the code leaves part of the file out with a placeholder (line " + std::to_string(line) + ": `" +
                  trim(splitLines(r.source)[line - 1]).substr(0, 80) +
                  "`); it cannot be evaluated as sent. Send the complete file, or SEARCH/REPLACE blocks that change "
                  "only the lines you change";
        r.source.clear();
        return r;
    }
    r.ok = true;
    return r;
}

// Why no whole file could be taken ("" when a bare kernel without a fence was taken into `r`).
std::string noFileProblem(const std::string& text, const std::vector<Block>& blocks, const Choice& c,
                          LlmPolicy::ParsedReply& r) {
    if (c.open)
        return "the ```" + (c.open->lang.empty() ? std::string("cpp") : c.open->lang) +
               " code block is not closed: the reply was cut off before the end of the code (is max_tokens too small?)";
    if (c.fragment)
        return std::string("the code block is a fragment: it has neither the kernel entry (extern \"C\" __global__ "
                           "__aicore__) nor the host part (SAGE_HOST)") + kFragmentAdvice;
    if (auto bare = blocks.empty() ? bareKernel(text) : std::nullopt) {
        r.source = *bare;
        r.ok = true;
        return {};
    }
    for (const auto& b : blocks)
        if (isCodeLanguage(b.lang) && trim(b.content).empty()) return std::string("the ```cpp code block is empty") + kFragmentAdvice;
    std::string found;
    for (const auto& b : blocks) found += (found.empty() ? "" : ", ") + ("```" + b.lang);
    return (blocks.empty() ? std::string("no ```cpp code block in the reply")
                           : "no usable ```cpp code block in the reply (found " + found + ")") +
           kFragmentAdvice;
}

} // namespace

std::string stripThinking(std::string text) {
    size_t close = text.rfind("</think>");
    if (close != std::string::npos) return text.substr(close + 8);
    return text;
}

LlmPolicy::ParsedReply parse(const std::string& reply, const std::string& parent) {
    LlmPolicy::ParsedReply r;
    const std::string text = stripThinking(reply);
    if (trim(text).empty()) {
        r.error = reply.find("<think>") != std::string::npos && reply.find("</think>") == std::string::npos
                      ? "the reply ends inside <think>: no answer after the reasoning (is max_tokens too small?)"
                      : "the reply is empty";
        return r;
    }
    std::vector<Block> blocks;
    std::vector<std::string> prose;
    splitBlocks(text, blocks, prose);
    const Adoption adoption = readAdoption(prose, blocks);
    r.rationale = readRationale(prose);
    r.adoptionKnown = adoption.known;
    r.adopted = adoption.ids;

    // 2. SEARCH/REPLACE blocks, else the last closed block that is a diff or a kernel file.
    std::string editError;
    std::vector<SourceEdit> edits = findSearchReplace(text, editError);
    if (!editError.empty()) {
        r.error = editError;
        return r;
    }
    const Choice c = edits.empty() ? choose(blocks, parent) : Choice{};
    const Block* chosen = c.chosen;
    const Block* diff = c.diff;
    if (diff) {
        edits = editsFromUnifiedDiff(diff->content);
        if (edits.empty()) {
            r.error = "the ```" + diff->lang + " block has no hunk (`@@ ... @@` followed by -/+ lines)" + kFragmentAdvice;
            return r;
        }
    }
    if (!edits.empty()) {
        r.edited = true;
        if (trim(parent).empty()) {
            r.error = "the reply edits a parent, but there is none in the draft stage; send the complete kernel file";
            return r;
        }
        auto applied = applyEdits(parent, edits);
        if (!applied.ok) {
            r.error = applied.error;
            return r;
        }
        r.source = applied.source;
        return refusePlaceholders(r, parent);
    }

    // 3. A whole file.
    if (!chosen) {
        r.error = noFileProblem(text, blocks, c, r);
        return r;  // ok when a bare kernel was taken
    }
    r.source = stripLineNumbers(chosen->content);
    return refusePlaceholders(r, parent);
}

} // namespace sage::agent::reply
