// sage-llmsim: a reactive scripted OpenAI-compatible server for the LLM arm of the memory
// experiment (issue 12), no model needed. POST /v1/chat/completions answers with ScriptedReply;
// GET /health says ok. Binds 127.0.0.1 only.
//   sage-llmsim --port 8099 [--pack FILE.jsonl] [--seed S] [--undeclared P] [--false-claim P] [--ignore-avoid P]
#include "ScriptedReply.h"

#include <httplib.h>

#include <cstdio>
#include <cstdlib>
#include <iostream>
#include <string>

using nlohmann::json;

int main(int argc, char** argv) {
    int port = 8099;
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
            else {
                std::cerr << "usage: sage-llmsim --port N [--pack FILE.jsonl] [--seed S] [--undeclared P] [--false-claim P] [--ignore-avoid P]\n";
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
        const auto choice = model.answer(prompt);
        json out = {{"id", "llmsim"},
                    {"object", "chat.completion"},
                    {"model", body.value("model", "sage-llmsim")},
                    {"choices", json::array({{{"index", 0},
                                              {"message", {{"role", "assistant"}, {"content", choice.reply}}},
                                              {"finish_reason", "stop"}}})},
                    {"usage", {{"prompt_tokens", prompt.size() / 4}, {"completion_tokens", choice.reply.size() / 4}}}};
        res.set_content(out.dump(), "application/json");
    });
    std::cerr << "sage-llmsim: listening on 127.0.0.1:" << port << "\n";
    if (!server.listen("127.0.0.1", port)) {
        std::cerr << "sage-llmsim: cannot listen on 127.0.0.1:" << port << "\n";
        return 1;
    }
    return 0;
}
