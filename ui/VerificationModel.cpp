#include "ui/VerificationModel.h"

#include <QBrush>
#include <QColor>

#include <cmath>

namespace sage::ui {

namespace {
// internalId: 0 for a case row, case index + 1 for an output row.
QString number(double v) {
    if (std::isnan(v)) return QStringLiteral("NaN");
    if (std::isinf(v)) return QStringLiteral("inf");
    return QString::number(v, 'g', 4);
}

// CANN Bench's figures of one output, under the header "MERE / MARE (T)": "1.2e-05 / 0.0003 (T 0.0001221)";
// "– (T …)" when the output failed before they were computed (NaN positions, an infinity's sign, its
// size); the index check and atol/rtol outputs have none.
QString criterionText(const eval::OutputCheck& o) {
    if (o.criterion == "cann_index") return VerificationModel::tr("index check");
    if (o.criterion != "cann") return {};
    if (std::isnan(o.mere)) return VerificationModel::tr("– (T %1)").arg(number(o.threshold));
    return VerificationModel::tr("%1 / %2 (T %3)").arg(number(o.mere), number(o.mare), number(o.threshold));
}
} // namespace

VerificationModel::VerificationModel(QObject* parent) : QAbstractItemModel(parent) {}

void VerificationModel::setVerification(const eval::VerifySection& verify) {
    beginResetModel();
    verify_ = verify;
    endResetModel();
}

void VerificationModel::clear() {
    beginResetModel();
    verify_ = {};
    endResetModel();
}

const eval::CaseCheck* VerificationModel::caseAt(const QModelIndex& index) const {
    if (!index.isValid()) return nullptr;
    const size_t c = index.internalId() == 0 ? size_t(index.row()) : size_t(index.internalId() - 1);
    return c < verify_.cases.size() ? &verify_.cases[c] : nullptr;
}

const eval::OutputCheck* VerificationModel::outputAt(const QModelIndex& index) const {
    const auto* c = caseAt(index);
    if (!c || c->outputs.empty()) return nullptr;
    if (index.internalId() == 0) {
        for (const auto& o : c->outputs)
            if (!o.pass) return &o;
        return &c->outputs.front();
    }
    return size_t(index.row()) < c->outputs.size() ? &c->outputs[size_t(index.row())] : nullptr;
}

QModelIndex VerificationModel::firstFailure() const {
    for (size_t c = 0; c < verify_.cases.size(); ++c)
        for (size_t o = 0; o < verify_.cases[c].outputs.size(); ++o)
            if (!verify_.cases[c].outputs[o].pass) return createIndex(int(o), 0, quintptr(c + 1));
    return {};
}

QModelIndex VerificationModel::index(int row, int column, const QModelIndex& parent) const {
    if (!hasIndex(row, column, parent)) return {};
    if (!parent.isValid()) return createIndex(row, column, quintptr(0));
    if (parent.internalId() != 0) return {};
    return createIndex(row, column, quintptr(parent.row() + 1));
}

QModelIndex VerificationModel::parent(const QModelIndex& child) const {
    if (!child.isValid() || child.internalId() == 0) return {};
    return createIndex(int(child.internalId() - 1), 0, quintptr(0));
}

int VerificationModel::rowCount(const QModelIndex& parent) const {
    if (!parent.isValid()) return int(verify_.cases.size());
    if (parent.column() != 0 || parent.internalId() != 0) return 0;
    return int(verify_.cases[size_t(parent.row())].outputs.size());
}

int VerificationModel::columnCount(const QModelIndex&) const { return ColumnCount; }

QVariant VerificationModel::data(const QModelIndex& index, int role) const {
    if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
    const bool isCase = index.internalId() == 0;
    const auto* c = caseAt(index);
    if (!c) return {};
    const eval::OutputCheck* o = isCase ? nullptr : outputAt(index);
    const bool pass = isCase ? c->pass : o->pass;
    if (role == PassRole) return pass;
    if (role == CaseRole) return isCase ? index.row() : int(index.internalId() - 1);
    if (role == OutputRole) return isCase ? -1 : index.row();
    if (role == Qt::ForegroundRole && index.column() == ResultColumn)
        return QBrush(pass ? QColor(0x2e, 0x7d, 0x32) : QColor(0xc6, 0x28, 0x28));
    if (role == Qt::ToolTipRole && o && !o->reason.empty()) return QString::fromStdString(o->reason);
    if (role != Qt::DisplayRole) return {};
    if (isCase) {
        double maxAbs = 0, maxRel = 0;
        uint64_t mism = 0, checked = 0;
        for (const auto& out : c->outputs) {
            maxAbs = std::isnan(out.maxAbsError) ? out.maxAbsError : std::max(maxAbs, out.maxAbsError);
            maxRel = std::isnan(out.maxRelError) ? out.maxRelError : std::max(maxRel, out.maxRelError);
            mism += out.mismatches;
            checked += out.checked;
        }
        switch (index.column()) {
        case NameColumn: return QStringLiteral("%1 · seed %2").arg(QString::fromStdString(c->caseName)).arg(c->seed);
        case ResultColumn: return pass ? tr("pass") : tr("FAIL");
        case MaxAbsColumn: return number(maxAbs);
        case MaxRelColumn: return number(maxRel);
        case MismatchColumn: return QStringLiteral("%1 / %2").arg(mism).arg(checked);
        case CriterionColumn: {  // the output that decides the case: the first failing one, else the first
            const eval::OutputCheck* shown = outputAt(index);
            return shown ? criterionText(*shown) : QString();
        }
        case ReasonColumn: {
            for (const auto& out : c->outputs)
                if (!out.pass) return QString::fromStdString(out.reason);
            return {};
        }
        }
        return {};
    }
    switch (index.column()) {
    case NameColumn: return QStringLiteral("%1 (%2)").arg(QString::fromStdString(o->name), QString::fromStdString(o->dtype));
    case ResultColumn: return pass ? tr("pass") : tr("FAIL");
    case MaxAbsColumn: return number(o->maxAbsError);
    case MaxRelColumn: return number(o->maxRelError);
    case MismatchColumn: return QStringLiteral("%1 / %2").arg(o->mismatches).arg(o->checked);
    case CriterionColumn: return criterionText(*o);
    case ReasonColumn: return QString::fromStdString(o->reason);
    }
    return {};
}

QVariant VerificationModel::headerData(int section, Qt::Orientation orientation, int role) const {
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
    static const char* names[] = {"Case / output", "Result", "Max abs err", "Max rel err", "Mismatches", "MERE / MARE (T)", "Reason"};
    static_assert(sizeof(names) / sizeof(*names) == ColumnCount, "one header a column");
    return section >= 0 && section < ColumnCount ? tr(names[section]) : QVariant();
}

} // namespace sage::ui
