// task.json of a task folder: Task::loadDirectory, then every case's tensor shapes.
#include "FuzzInput.h"
#include "sage_eval/Task.h"

extern "C" int LLVMFuzzerTestOneInput(const uint8_t* data, size_t size) {
    const auto dir = sage::fuzz::scratch() / "task";
    sage::fuzz::writeFile(dir / "task.json", sage::fuzz::text(data, size));
    try {
        const sage::eval::Task task = sage::eval::Task::loadDirectory(dir.string());
        for (const auto& c : task.cases) (void)task.tensorsFor(c);
    } catch (const std::exception&) {
    }
    return 0;
}
