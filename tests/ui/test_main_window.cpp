#include "ui/MainWindow.h"

#include <QtTest>

class TestMainWindow : public QObject {
    Q_OBJECT
private slots:
    void opensWithTitle() {
        sage::ui::MainWindow w;
        w.show();
        QVERIFY(QTest::qWaitForWindowExposed(&w));
        QCOMPARE(w.windowTitle(), QString("SAGE Kernel Workbench"));
    }
};

QTEST_MAIN(TestMainWindow)
#include "test_main_window.moc"
