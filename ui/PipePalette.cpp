#include "ui/PipePalette.h"

#include <array>

namespace sage::ui {

namespace {
constexpr std::array<const char*, PipePalette::kPipeCount> kNames = {"SCALAR", "VECTOR", "CUBE", "MTE1",
                                                                     "MTE2",   "MTE3",   "FIXP"};
constexpr std::array<const char*, PipePalette::kPipeCount> kCycleKeys = {"scalar", "vec",  "mac",    "mte1",
                                                                         "mte2",   "mte3", "fixpipe"};
constexpr std::array<QRgb, PipePalette::kPipeCount> kColours = {0x8c8c8c, 0x2e7d32, 0x6a1b9a, 0x00838f,
                                                                0x1565c0, 0xef6c00, 0xc62828};
bool valid(int pipe) { return pipe >= 0 && pipe < PipePalette::kPipeCount; }
} // namespace

QString PipePalette::name(int pipe) { return valid(pipe) ? kNames[size_t(pipe)] : QStringLiteral("PIPE%1").arg(pipe); }
QString PipePalette::cyclesKey(int pipe) { return valid(pipe) ? kCycleKeys[size_t(pipe)] : QString(); }
QString PipePalette::ratioKey(int pipe) {
    if (!valid(pipe)) return {};
    return pipe == 6 ? QStringLiteral("fixpipe_ratio") : cyclesKey(pipe) + QStringLiteral("_ratio");
}
QColor PipePalette::colour(int pipe) { return valid(pipe) ? QColor(kColours[size_t(pipe)]) : QColor(Qt::black); }

} // namespace sage::ui
