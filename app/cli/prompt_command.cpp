// `sage prompt --task T --stage draft|repair|optimize [--device D] [--llm-context N]
// [--llm-max-tokens M] [--show] [--json] [--text-only]`: the prompt the LLM policy would send for a
// task at a stage, with the size of every section, what the budget kept and why the rest was
// dropped (see PromptPreview.h for the
// representative parent, evaluation and history). `--task all` prints one line per task and stage.
// Experiences come from --db, or from the seed pack in a temporary database.
#include "cli/agent_db.h"
#include "cli/command_registry.h"
#include "cli/llm_options.h"
#include "cli/task_options.h"

#include "sage_agent/PromptPreview.h"
#include "sage_toolchain/DeviceCatalog.h"
#include "sage_toolchain/ToolPaths.h"

#include <cstdio>
#include <filesystem>
#include <iostream>
#include <unistd.h>

namespace sage::cli {
namespace {

struct PromptOptions {
    TaskOptions tasks;
    LlmOptions llm;
    std::string task, stage = "draft", device = "ascend910b1-sim", db;
    int history = 11;
    bool show = false, json = false, text = false;
};

// Prints one preview as the options ask and returns its sizes as JSON.
nlohmann::json report(const PromptOptions& o, const eval::Task& t, memory::Stage stage, const npu::DeviceProfile& device,
                      const agent::LlmSettings& llm, const agent::PromptPreview& p, bool summaryLine) {
    const std::string stageName(memory::toString(stage));
    nlohmann::json j = p.sizes;
    j["task"] = t.name;
    j["category"] = t.category;
    j["stage"] = stageName;
    j["device"] = device.id;
    j["context_tokens"] = llm.contextTokens;
    j["max_tokens"] = llm.maxTokens;
    if (o.text) std::cout << p.system << p.user;
    if (o.json || o.text) return j;
    if (summaryLine) {
        size_t dropped = 0;
        for (const auto& s : p.sizes["sections"]) dropped += !s["included"].get<bool>();
        std::printf("%-16s %-14s %-9s %6d tokens of %6d%s (%zu sections dropped)\n", t.name.c_str(),
                    t.category.c_str(), stageName.c_str(), p.promptTokens, p.budgetTokens,
                    p.overflow ? " OVERFLOW" : "", dropped);
        return j;
    }
    std::cout << "prompt for " << t.name << " (" << t.category << "), stage " << stageName << ", device "
              << device.id << ", context " << llm.contextTokens << " tokens, max_tokens "
              << llm.maxTokens << "\n"
              << p.table;
    if (o.show) std::cout << "\n### system\n" << p.system << "\n### user\n" << p.user;
    return j;
}

} // namespace

void registerPromptCommand(CLI::App& app) {
    auto* cmd = app.add_subcommand("prompt", "Show the LLM policy's prompt for a task and stage, with section sizes");
    auto o = std::make_shared<PromptOptions>();
    o->tasks.add(cmd);
    cmd->add_option("--task", o->task, "Task name, or `all` for a size summary of every task")->required();
    cmd->add_option("--stage", o->stage, "draft | repair | optimize | all")
        ->check(CLI::IsMember({"draft", "repair", "optimize", "all"}));
    cmd->add_option("--device", o->device, "Device profile id");
    cmd->add_option("--db", o->db, "Retrieve experiences from this database (default: the seed pack)");
    cmd->add_option("--history", o->history, "Earlier attempts listed in repair/optimise prompts (default 11)")
        ->check(CLI::Range(0, 1000));
    o->llm.add(cmd, /*endpoint=*/false);
    cmd->add_flag("--show", o->show, "Also print the prompt text");
    cmd->add_flag("--json", o->json, "Print the sizes as JSON");
    cmd->add_flag("--text-only", o->text, "Print only the text of the two messages, as sent (for token counting)");
    cmd->callback([o] {
        auto set = o->tasks.load();
        std::vector<const eval::Task*> tasks;
        if (o->task == "all")
            for (const auto& t : set.tasks) tasks.push_back(&t);
        else
            tasks.push_back(&o->tasks.find(set, o->task));
        auto paths = toolchain::ToolPaths::fromEnvironment();
        auto devices = toolchain::DeviceCatalog::loadDirectory(paths.devicesDir());
        const npu::DeviceProfile& device = devices.get(o->device);
        agent::LlmSettings llm;
        o->llm.apply(llm);
        const std::string card = agent::readPlatformCard();
        if (card.empty()) {
            std::cerr << "sage: error: docs/kernel-api.md not found next to " << paths.resources
                      << "; run from a source or build tree\n";
            throw CLI::RuntimeError(1);
        }
        const bool temporary = o->db.empty();
        const std::string dbPath =
            temporary ? (std::filesystem::temp_directory_path() / ("sage-prompt-" + std::to_string(::getpid()) + ".db")).string()
                      : o->db;
        nlohmann::json all = nlohmann::json::array();
        {
            memory::ExperienceStore mem(openAgentDatabase(dbPath));
            if (temporary) seedIfEmpty(mem);
            // --stage is checked against these names and "all" when it is parsed.
            const std::vector<memory::Stage> stages =
                o->stage == "all" ? std::vector<memory::Stage>(memory::kLearningStages.begin(), memory::kLearningStages.end())
                                  : std::vector<memory::Stage>{memory::requireEnum<memory::Stage>(o->stage)};
            for (const auto* t : tasks)
                for (auto stage : stages) {
                    agent::PromptPreviewRequest req;
                    req.task = t;
                    req.device = &device;
                    req.stage = stage;
                    req.platformCard = card;
                    req.llm = llm;
                    req.memory = &mem;
                    req.historyLength = o->history;
                    const auto p = agent::previewPrompt(req);
                    all.push_back(report(*o, *t, stage, device, llm, p, tasks.size() > 1 || stages.size() > 1));
                }
        }
        if (temporary) std::filesystem::remove(dbPath);
        for (const char* suffix : {"-wal", "-shm"})
            if (temporary) std::filesystem::remove(dbPath + suffix);
        if (o->json) std::cout << (all.size() == 1 ? all[0] : all).dump(2) << "\n";
    });
}

} // namespace sage::cli
