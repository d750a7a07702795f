// Names and colours of the seven pipes of an AI core, as the timeline, the summary and the
// baseline comparison show them. Pipe ids follow the simulator: 0 S, 1 V, 2 M (cube), 3 MTE1,
// 4 MTE2, 5 MTE3, 6 FIX.
#pragma once

#include <QColor>
#include <QString>

namespace sage::ui {

class PipePalette {
public:
    static constexpr int kPipeCount = 7;
    static QString name(int pipe);          // "SCALAR", "VECTOR", "CUBE", "MTE1", "MTE2", "MTE3", "FIXP"
    static QString cyclesKey(int pipe);     // the key in ProfileSection::pipeCycles ("scalar", "vec", ...)
    static QString ratioKey(int pipe);      // the key in ProfileSection::pipeRatios ("scalar_ratio", ...)
    static QColor colour(int pipe);
};

} // namespace sage::ui
