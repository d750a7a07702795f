// sage-llmsim: a reactive scripted OpenAI-compatible server for the LLM arm of the memory
// experiment (issue 12), no model needed. POST /v1/chat/completions answers with ScriptedReply;
// GET /health says ok. Binds 127.0.0.1 only. Like a vLLM server it counts the prompt's tokens (here
// characters / --chars-per-token, default 3.0, near what Llama-3 gives on our prompts) and, with
// --context N, refuses a request whose prompt plus max_tokens exceeds N with HTTP 400 in vLLM's
// words; `usage.prompt_tokens` reports the same count.
//   sage-llmsim --port 8099 [--pack FILE.jsonl] [--seed S] [--undeclared P] [--false-claim P] [--ignore-avoid P]
//               [--context N] [--chars-per-token R]
#include "ScriptedReply.h"

#include <httplib.h>

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

using nlohmann::json;

int main(int argc, char** argv) {
    int port = 8099;
    int contextTokens = 0;  // 0: no limit
    double charsPerToken = 3.0;
    std::string pack;
    sage::llmsim::ScriptedReply::Options options;
    for (int i = 1; i < argc; ++i) {
        const std::string a = argv[i];
        auto next = [&]() -> std::string {
            if (i + 1 >= argc) {
                std::cerr << "sage-llmsim: " << a << " needs a value\n";
                std::exit(2);
            }
            return argv[++i];
        };
        try {
            if (a == "--port") port = std::stoi(next());
            else if (a == "--pack") pack = next();
            else if (a == "--seed") options.seed = std::stoull(next());
            else if (a == "--undeclared") options.undeclared = std::stod(next());
            else if (a == "--false-claim") options.falseClaim = std::stod(next());
            else if (a == "--ignore-avoid") options.ignoreAvoid = std::stod(next());
            else if (a == "--context") contextTokens = std::stoi(next());
            else if (a == "--chars-per-token") charsPerToken = std::max(0.5, std::stod(next()));
            else {
                std::cerr << "usage: sage-llmsim --port N [--pack FILE.jsonl] [--seed S] [--undeclared P] [--false-claim P] "
                             "[--ignore-avoid P] [--context N] [--chars-per-token R]\n";
                return 2;
            }
        } catch (const std::exception&) {
            std::cerr << "sage-llmsim: " << a << ": not a number\n";
            return 2;
        }
    }
    sage::llmsim::ScriptedReply model(options, pack.empty() ? std::map<std::string, json>{}
                                                            : sage::llmsim::ScriptedReply::loadPack(pack));
    httplib::Server server;
    server.Get("/health", [](const httplib::Request&, httplib::Response& res) { res.set_content("ok", "text/plain"); });
    server.Post("/v1/chat/completions", [&](const httplib::Request& req, httplib::Response& res) {
        const json body = json::parse(req.body, nullptr, false);
        if (!body.is_object() || !body.contains("messages") || !body["messages"].is_array()) {
            res.status = 400;
            res.set_content(R"({"error":{"message":"expected a chat completion request with messages"}})", "application/json");
            return;
        }
        std::string prompt;
        for (const auto& m : body["messages"])
            if (m.is_object() && m.value("content", json()).is_string()) prompt += m["content"].get<std::string>() + "\n";
        const int promptTokens = int(std::ceil(double(prompt.size()) / charsPerToken));
        const int completion =
            body.contains("max_tokens") && body["max_tokens"].is_number_integer() ? body["max_tokens"].get<int>() : 0;
        if (contextTokens > 0 && promptTokens + completion > contextTokens) {
            res.status = 400;
            const json err = {{"object", "error"},
                              {"type", "BadRequestError"},
                              {"message", "This model's maximum context length is " + std::to_string(contextTokens) +
                                              " tokens. However, you requested " + std::to_string(promptTokens + completion) +
                                              " tokens (" + std::to_string(promptTokens) + " in the messages, " +
                                              std::to_string(completion) +
                                              " in the completion). Please reduce the length of the messages or completion."}};
            res.set_content(err.dump(), "application/json");
            return;
        }
        const auto choice = model.answer(prompt);
        json out = {{"id", "llmsim"},
                    {"object", "chat.completion"},
                    {"model", body.value("model", "sage-llmsim")},
                    {"choices", json::array({{{"index", 0},
                                              {"message", {{"role", "assistant"}, {"content", choice.reply}}},
                                              {"finish_reason", "stop"}}})},
                    {"usage", {{"prompt_tokens", promptTokens},
                               {"completion_tokens", int(std::ceil(double(choice.reply.size()) / charsPerToken))}}}};
        res.set_content(out.dump(), "application/json");
    });
    std::cerr << "sage-llmsim: listening on 127.0.0.1:" << port << "\n";
    if (!server.listen("127.0.0.1", port)) {
        std::cerr << "sage-llmsim: cannot listen on 127.0.0.1:" << port << "\n";
        return 1;
    }
    return 0;
}
