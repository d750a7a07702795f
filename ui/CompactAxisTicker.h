// Axis tick labels that stay short on narrow plots: 950, 12.5k, 2.95M.
#pragma once

#include <qcustomplot.h>

namespace sage::ui {

class CompactAxisTicker : public QCPAxisTicker {
public:
    static QSharedPointer<CompactAxisTicker> create(int tickCount = 6);

protected:
    QString getTickLabel(double tick, const QLocale& locale, QChar formatChar, int precision) override;
};

} // namespace sage::ui
