#include "ui/LineDiff.h"

namespace sage::ui {

std::vector<DiffRow> LineDiff::compute(const QStringList& left, const QStringList& right) {
    auto toStd = [](const QStringList& lines) {
        std::vector<std::string> out;
        out.reserve(size_t(lines.size()));
        for (const auto& l : lines) out.push_back(l.toStdString());
        return out;
    };
    return agent::alignLines(toStd(left), toStd(right));
}

} // namespace sage::ui
