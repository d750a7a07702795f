#include "ui/ProfileCompareModel.h"

#include "ui/PipePalette.h"

#include <QBrush>
#include <QColor>

namespace sage::ui {

ProfileCompareModel::ProfileCompareModel(QObject* parent) : QAbstractTableModel(parent) {}

void ProfileCompareModel::setProfiles(const eval::ProfileSection* baseline, const eval::ProfileSection* current) {
    beginResetModel();
    rows_.clear();
    hasBaseline_ = baseline && baseline->present;
    auto value = [](const eval::ProfileSection* p, auto get) -> std::optional<double> {
        if (!p || !p->present) return std::nullopt;
        return get(*p);
    };
    auto add = [&](QString key, QString label, auto get, bool lowerIsBetter, int decimals) {
        Row r{key, label, value(baseline, get), value(current, get), lowerIsBetter, decimals};
        if (r.baseline || r.current) rows_.push_back(r);
    };
    add(QStringLiteral("total"), tr("Total cycles"), [](const eval::ProfileSection& p) { return double(p.totalCycles); },
        true, 0);
    add(QStringLiteral("time_us"), tr("Time (µs)"), [](const eval::ProfileSection& p) { return p.timeUs; }, true, 2);
    add(QStringLiteral("roofline"), tr("Roofline fraction"),
        [](const eval::ProfileSection& p) { return p.rooflineFraction; }, false, 3);
    for (int pipe = 0; pipe < PipePalette::kPipeCount; ++pipe) {
        const std::string key = PipePalette::cyclesKey(pipe).toStdString();
        add(PipePalette::cyclesKey(pipe), tr("%1 busy cycles").arg(PipePalette::name(pipe)),
            [key](const eval::ProfileSection& p) {
                auto it = p.pipeCycles.find(key);
                return it == p.pipeCycles.end() ? 0.0 : double(it->second);
            },
            true, 0);
    }
    endResetModel();
}

int ProfileCompareModel::rowOf(const QString& key) const {
    for (size_t i = 0; i < rows_.size(); ++i)
        if (rows_[i].key == key) return int(i);
    return -1;
}

int ProfileCompareModel::rowCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : int(rows_.size()); }
int ProfileCompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : ColumnCount; }

QVariant ProfileCompareModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const Row& r = rows_[size_t(index.row())];
    const bool both = r.baseline && r.current;
    const double delta = both ? *r.current - *r.baseline : 0.0;
    if (role == DeltaRole) return both ? QVariant(delta) : QVariant();
    if (role == Qt::TextAlignmentRole && index.column() != MetricColumn) return int(Qt::AlignRight | Qt::AlignVCenter);
    if (role == Qt::ForegroundRole && both && (index.column() == DeltaColumn || index.column() == RatioColumn) &&
        delta != 0) {
        const bool better = r.lowerIsBetter ? delta < 0 : delta > 0;
        return QBrush(better ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    }
    if (role == Qt::ToolTipRole && index.column() == RatioColumn)
        return tr("current / baseline (below 1 is faster for cycles, above 1 is better for roofline)");
    if (role != Qt::DisplayRole) return {};
    auto fmt = [&](double v) { return QString::number(v, 'f', r.decimals); };
    switch (index.column()) {
    case MetricColumn: return r.label;
    case BaselineColumn: return r.baseline ? fmt(*r.baseline) : QStringLiteral("—");
    case CurrentColumn: return r.current ? fmt(*r.current) : QStringLiteral("—");
    case DeltaColumn: return both ? (delta > 0 ? QStringLiteral("+") : QString()) + fmt(delta) : QString();
    case RatioColumn:
        return both && *r.baseline != 0 ? QStringLiteral("×%1").arg(*r.current / *r.baseline, 0, 'f', 3) : QString();
    }
    return {};
}

QVariant ProfileCompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Metric", "Baseline", "Current", "Delta", "Ratio"};
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
