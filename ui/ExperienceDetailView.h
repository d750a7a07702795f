// The memory browser's detail pane for one experience: its rendered content, code idiom,
// trigger, provenance (with a link to the iteration that taught it and its diff), learned
// counters per stage, revisions, and a plot of Q over time per stage.
#pragma once

#include "ui/MemoryService.h"

#include <QWidget>

#include <memory>

class QCPItemText;
class QCustomPlot;
class QTextBrowser;

namespace sage::ui {

class ExperienceDetailView : public QWidget {
    Q_OBJECT
public:
    explicit ExperienceDetailView(QWidget* parent = nullptr);
    void setDetail(std::shared_ptr<const ExperienceDetail> detail);
    void clear();
    std::shared_ptr<const ExperienceDetail> detail() const { return detail_; }
    QTextBrowser* text() const { return text_; }
    QCustomPlot* qPlot() const { return plot_; }

signals:
    void iterationLinkActivated(qint64 run, int iteration);

private:
    QString entryHtml(const memory::Experience& e) const;
    QString statsHtml(const memory::ExperienceStats& stats) const;
    QString provenanceHtml(const memory::Experience& e) const;
    void plotQHistory();
    std::shared_ptr<const ExperienceDetail> detail_;
    QTextBrowser* text_;
    QCustomPlot* plot_;
    QCPItemText* emptyText_ = nullptr;
};

} // namespace sage::ui
