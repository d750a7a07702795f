#include "ui/DiagnosticsPanel.h"

#include "ui/DiagnosticsModel.h"
#include "ui/StepBar.h"

#include <QHeaderView>
#include <QLabel>
#include <QTableView>
#include <QToolButton>
#include <QVBoxLayout>

namespace sage::ui {

DiagnosticsPanel::DiagnosticsPanel(DiagnosticsModel* model, QWidget* parent) : QWidget(parent), model_(model) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(2, 2, 2, 2);
    status_ = new QLabel(tr("No evaluation yet."), this);
    status_->setTextFormat(Qt::RichText);
    status_->setWordWrap(true);  // a long status never widens the dock
    status_->setSizePolicy(QSizePolicy::Ignored, QSizePolicy::Preferred);
    const StepButtons step =
        addStepBar(layout, status_, {tr("◀ Prev"), tr("Previous diagnostic (Shift+F8)"), tr("Next ▶"), tr("Next diagnostic (F8)")});
    view_ = new QTableView(this);
    setUpRowTable(view_, model_, QStringLiteral("diagnosticsTable"), 22);
    view_->setWordWrap(false);
    view_->verticalHeader()->hide();
    view_->horizontalHeader()->setStretchLastSection(true);
    view_->setColumnWidth(DiagnosticsModel::SeverityColumn, 90);
    view_->setColumnWidth(DiagnosticsModel::LineColumn, 50);
    view_->setColumnWidth(DiagnosticsModel::ColumnColumn, 40);
    view_->setColumnWidth(DiagnosticsModel::KindColumn, 130);
    view_->setColumnWidth(DiagnosticsModel::MessageColumn, 520);
    layout->addWidget(view_, 1);
    connect(view_, &QTableView::clicked, this, [this](const QModelIndex& i) { activate(i.row()); });
    connect(view_, &QTableView::activated, this, [this](const QModelIndex& i) { activate(i.row()); });
    connect(step.previous, &QToolButton::clicked, this, &DiagnosticsPanel::previous);
    connect(step.next, &QToolButton::clicked, this, &DiagnosticsPanel::next);
}

void DiagnosticsPanel::setStatus(const QString& html) { status_->setText(html); }

void DiagnosticsPanel::activate(int row) {
    if (row < 0 || row >= model_->rowCount()) return;
    const QModelIndex i = model_->index(row, 0);
    const int line = i.data(DiagnosticsModel::LineRole).toInt();
    if (line > 0) emit lineActivated(line, i.data(DiagnosticsModel::ColumnRole).toInt());
}

void DiagnosticsPanel::next() {
    const QModelIndex current = view_->currentIndex();
    const int row = model_->nextLocated(current.isValid() ? current.row() : -1, true);
    if (row < 0) return;
    view_->setCurrentIndex(model_->index(row, 0));
    activate(row);
}

void DiagnosticsPanel::previous() {
    const QModelIndex current = view_->currentIndex();
    const int row = model_->nextLocated(current.isValid() ? current.row() : -1, false);
    if (row < 0) return;
    view_->setCurrentIndex(model_->index(row, 0));
    activate(row);
}

} // namespace sage::ui
