#include "ui/CompactAxisTicker.h"

#include <cmath>

namespace sage::ui {

QSharedPointer<CompactAxisTicker> CompactAxisTicker::create(int tickCount) {
    auto t = QSharedPointer<CompactAxisTicker>(new CompactAxisTicker);
    t->setTickCount(tickCount);
    return t;
}

QString CompactAxisTicker::getTickLabel(double tick, const QLocale&, QChar, int) {
    const double a = std::abs(tick);
    if (a >= 1e9) return QString::number(tick / 1e9, 'g', 4) + QLatin1Char('G');
    if (a >= 1e6) return QString::number(tick / 1e6, 'g', 4) + QLatin1Char('M');
    if (a >= 1e4) return QString::number(tick / 1e3, 'g', 4) + QLatin1Char('k');
    return QString::number(tick, 'g', 6);
}

} // namespace sage::ui
