#include "ui/ExperienceDetailView.h"

#include <qcustomplot.h>

#include <QDateTime>

#include <algorithm>
#include <QSplitter>
#include <QTextBrowser>
#include <QTextDocument>
#include <QUrl>
#include <QVBoxLayout>

namespace sage::ui {

namespace {
QString str(std::string_view s) { return QString::fromUtf8(s.data(), qsizetype(s.size())).toHtmlEscaped(); }
QString esc(const std::string& s) { return QString::fromStdString(s).toHtmlEscaped(); }

// Where adopting the entry helped: each adopting iteration with its reward, gains first, each
// linked to the iteration (a reward above 0 made the kernel faster or, in draft and repair, correct).
QString adoptionsHtml(std::vector<memory::RetrievalRecord> adoptions) {
    QString html = QObject::tr("<h4>Where adopting it helped</h4>");
    if (adoptions.empty()) return html + QObject::tr("<p style='color:gray'>not adopted yet</p>");
    const auto helped = std::count_if(adoptions.begin(), adoptions.end(), [](const auto& r) { return *r.reward > 0; });
    html += QObject::tr("<p>adopted in %1 iteration(s); it helped in %2</p><ul>").arg(adoptions.size()).arg(helped);
    std::stable_sort(adoptions.begin(), adoptions.end(), [](const auto& a, const auto& b) { return *a.reward > *b.reward; });
    for (const auto& r : adoptions)
        html += QObject::tr("<li><a href='sage://iteration/%1/%2'>run %1, iteration %2</a> (%3): reward %4%5</li>")
                    .arg(r.run)
                    .arg(r.iteration)
                    .arg(str(memory::toString(r.stage)))
                    .arg(*r.reward, 0, 'f', 2)
                    .arg(*r.reward > 0 ? QObject::tr(" — helped") : QString());
    return html + QStringLiteral("</ul>");
}

QString markdownToHtml(const std::string& markdown) {
    QTextDocument doc;
    doc.setMarkdown(QString::fromStdString(markdown));
    QString html = doc.toHtml();
    const int body = html.indexOf(QStringLiteral("<body"));
    const int start = html.indexOf(QLatin1Char('>'), body) + 1;
    const int end = html.lastIndexOf(QStringLiteral("</body>"));
    return body >= 0 && end > start ? html.mid(start, end - start) : html;
}

double seconds(const std::string& iso) {
    QDateTime t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODateWithMs);
    if (!t.isValid()) t = QDateTime::fromString(QString::fromStdString(iso), Qt::ISODate);
    return t.isValid() ? double(t.toMSecsSinceEpoch()) / 1000.0 : 0.0;
}

const QColor kStageColours[] = {QColor(0x15, 0x65, 0xc0), QColor(0xc6, 0x28, 0x28), QColor(0x2e, 0x7d, 0x32)};
} // namespace

ExperienceDetailView::ExperienceDetailView(QWidget* parent) : QWidget(parent) {
    auto* layout = new QVBoxLayout(this);
    layout->setContentsMargins(0, 0, 0, 0);
    auto* split = new QSplitter(Qt::Vertical, this);
    text_ = new QTextBrowser(split);
    text_->setObjectName(QStringLiteral("experienceDetail"));
    text_->setOpenLinks(false);
    plot_ = new QCustomPlot(split);
    plot_->setObjectName(QStringLiteral("qHistoryPlot"));
    plot_->setMinimumHeight(110);
    QFont f = plot_->font();
    f.setPointSize(8);
    plot_->xAxis->setTickLabelFont(f);
    plot_->yAxis->setTickLabelFont(f);
    plot_->yAxis->setLabelFont(f);
    plot_->yAxis->setLabel(tr("Q"));
    auto ticker = QSharedPointer<QCPAxisTickerDateTime>(new QCPAxisTickerDateTime);
    ticker->setDateTimeFormat(QStringLiteral("MM-dd\nhh:mm"));
    plot_->xAxis->setTicker(ticker);
    plot_->yAxis->setRange(-1.1, 1.1);
    plot_->legend->setVisible(true);
    plot_->legend->setFont(f);
    // The legend sits right of the plot, never over the points.
    plot_->axisRect()->insetLayout()->take(plot_->legend);
    plot_->plotLayout()->addElement(0, 1, plot_->legend);
    plot_->plotLayout()->setColumnStretchFactor(1, 0.001);
    plot_->legend->setMargins(QMargins(4, 2, 4, 2));
    for (int s = 0; s < 3; ++s) {
        auto* g = plot_->addGraph();
        g->setName(str(memory::toString(memory::kLearningStages[size_t(s)])));
        g->setPen(QPen(kStageColours[s], 1.5));
        g->setLineStyle(QCPGraph::lsStepLeft);
        g->setScatterStyle(QCPScatterStyle(QCPScatterStyle::ssDisc, 5));
    }
    emptyText_ = new QCPItemText(plot_);
    emptyText_->position->setType(QCPItemPosition::ptAxisRectRatio);
    emptyText_->position->setCoords(0.5, 0.5);
    emptyText_->setColor(Qt::gray);
    emptyText_->setText(tr("Q has not changed yet: it moves when an outcome credits the entry"));
    split->addWidget(text_);
    split->addWidget(plot_);
    split->setStretchFactor(0, 3);
    split->setStretchFactor(1, 1);
    layout->addWidget(split);
    connect(text_, &QTextBrowser::anchorClicked, this, [this](const QUrl& url) {
        // sage://iteration/<run>/<index>
        if (url.scheme() != QLatin1String("sage") || url.host() != QLatin1String("iteration")) return;
        const QStringList parts = url.path().split(QLatin1Char('/'), Qt::SkipEmptyParts);
        if (parts.size() == 2) emit iterationLinkActivated(parts[0].toLongLong(), parts[1].toInt());
    });
    clear();
}

void ExperienceDetailView::clear() {
    detail_.reset();
    text_->setHtml(tr("<p style='color:gray'>Select an experience.</p>"));
    for (int g = 0; g < plot_->graphCount(); ++g) plot_->graph(g)->data()->clear();
    emptyText_->setVisible(true);
    plot_->xAxis->setTickLabels(false);
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

void ExperienceDetailView::setDetail(std::shared_ptr<const ExperienceDetail> detail) {
    detail_ = std::move(detail);
    if (!detail_) return clear();
    const auto& e = detail_->experience;
    QString html = entryHtml(e) + statsHtml(detail_->stats) + adoptionsHtml(detail_->adoptions) + provenanceHtml(e);
    if (!detail_->revisions.empty()) {
        html += tr("<h4>Revisions</h4><ul>");
        for (const auto& r : detail_->revisions)
            html += QStringLiteral("<li>%1 · %2 · %3</li>").arg(esc(r.at), esc(r.author), esc(r.reason));
        html += QStringLiteral("</ul>");
    }
    html += tr("<p style='color:gray'>created %1 · updated %2</p>").arg(esc(e.createdAt), esc(e.updatedAt));
    text_->setHtml(html);
    plotQHistory();
}

// Title, status line, trigger, content, idiom, evidence, action and merge target.
QString ExperienceDetailView::entryHtml(const memory::Experience& e) const {
    QString html;
    html += QStringLiteral("<h3>#%1 %2</h3>").arg(e.id).arg(esc(e.title));
    html += QStringLiteral("<p><b>%1</b> · %2 · stage <b>%3</b> · origin %4%5</p>")
                .arg(str(memory::toString(e.status)), str(memory::toString(e.kind)), str(memory::toString(e.stage)),
                     str(memory::toString(e.origin)), e.pinned ? tr(" · pinned") : QString());
    QStringList trig;
    if (!e.trigger.category.empty()) trig << tr("category <code>%1</code>").arg(esc(e.trigger.category));
    if (!e.trigger.diagnostic.empty()) trig << tr("diagnostic <code>%1</code>").arg(esc(e.trigger.diagnostic));
    if (!e.trigger.bottleneck.empty()) trig << tr("bottleneck <code>%1</code>").arg(esc(e.trigger.bottleneck));
    html += tr("<p><b>Trigger:</b> %1</p>").arg(trig.isEmpty() ? tr("always") : trig.join(QStringLiteral(", ")));
    html += markdownToHtml(e.content);
    if (!e.codeIdiom.empty())
        html += tr("<p><b>Code idiom</b></p><pre style='background:#f5f5f5'>%1</pre>").arg(esc(e.codeIdiom));
    if (!e.evidencePattern.empty()) html += tr("<p><b>Evidence pattern:</b> <code>%1</code></p>").arg(esc(e.evidencePattern));
    if (!e.action.is_null()) html += tr("<p><b>Action:</b> <code>%1</code></p>").arg(esc(e.actionText()));
    if (e.mergedInto) html += tr("<p><b>Merged into</b> #%1</p>").arg(*e.mergedInto);

    return html;
}

QString ExperienceDetailView::statsHtml(const memory::ExperienceStats& stats) const {
    QString html = tr("<h4>Learned values</h4><table border=1 cellspacing=0 cellpadding=3>"
               "<tr><th>stage</th><th>Q</th><th>retrieved</th><th>adopted</th><th>successes</th><th>ignored</th>"
               "<th>mean reward</th></tr>");
    for (const auto& st : stats.stages)
        html += QStringLiteral("<tr><td>%1</td><td align=right>%2</td><td align=right>%3</td><td align=right>%4</td>"
                               "<td align=right>%5</td><td align=right>%6</td><td align=right>%7</td></tr>")
                    .arg(str(memory::toString(st.stage)))
                    .arg(st.q, 0, 'f', 3)
                    .arg(st.retrieved)
                    .arg(st.adopted)
                    .arg(st.successes)
                    .arg(st.ignored)
                    .arg(st.meanReward(), 0, 'f', 3);
    html += QStringLiteral("</table>");

    return html;
}

// Where the entry came from: task, a link to the run's iteration, a note and the diff, coloured.
QString ExperienceDetailView::provenanceHtml(const memory::Experience& e) const {
    QString html = tr("<h4>Provenance</h4>");
    if (e.provenance.empty()) html += tr("<p style='color:gray'>none recorded</p>");
    for (const auto& p : e.provenance) {
        html += QStringLiteral("<p>");
        if (!p.task.empty()) html += tr("task <b>%1</b> ").arg(esc(p.task));
        if (p.run && p.iteration)
            html += tr("<a href='sage://iteration/%1/%2'>run %1, iteration %2</a> ").arg(*p.run).arg(*p.iteration);
        else if (p.run)
            html += tr("run %1 ").arg(*p.run);
        if (!p.note.empty()) html += QStringLiteral("— %1").arg(esc(p.note));
        html += QStringLiteral("</p>");
        if (!p.diff.empty()) {
            QString diff;
            for (const QString& line : QString::fromStdString(p.diff).split(QLatin1Char('\n'))) {
                const QString l = line.toHtmlEscaped();
                if (line.startsWith(QLatin1Char('+')) && !line.startsWith(QLatin1String("+++")))
                    diff += QStringLiteral("<span style='background:#d4f4d8'>%1</span>\n").arg(l);
                else if (line.startsWith(QLatin1Char('-')) && !line.startsWith(QLatin1String("---")))
                    diff += QStringLiteral("<span style='background:#fdd8d5'>%1</span>\n").arg(l);
                else
                    diff += l + QLatin1Char('\n');
            }
            html += QStringLiteral("<pre style='font-size:small'>%1</pre>").arg(diff);
        }
    }
    return html;
}

// Q of each learning stage over time.
void ExperienceDetailView::plotQHistory() {
    double lo = 0, hi = 0;
    bool any = false;
    for (int s = 0; s < 3; ++s) {
        QVector<double> xs, ys;
        for (const auto& p : detail_->qHistory) {
            if (p.stage != memory::kLearningStages[size_t(s)]) continue;
            const double t = seconds(p.at);
            xs << t;
            ys << p.q;
            lo = any ? std::min(lo, t) : t;
            hi = any ? std::max(hi, t) : t;
            any = true;
        }
        plot_->graph(s)->setData(xs, ys, true);
    }
    emptyText_->setVisible(!any);
    plot_->xAxis->setTickLabels(any);
    if (any) {
        const double pad = std::max(60.0, (hi - lo) * 0.05);
        plot_->xAxis->setRange(lo - pad, hi + pad);
        if (auto t = plot_->xAxis->ticker().dynamicCast<QCPAxisTickerDateTime>())
            t->setDateTimeFormat(hi - lo < 86400 ? QStringLiteral("hh:mm:ss") : QStringLiteral("MM-dd\nhh:mm"));
    }
    plot_->replot(QCustomPlot::rpQueuedReplot);
}

} // namespace sage::ui
