// Editing a writable copy of a test fixture: replace the first occurrence of a piece of text,
// failing the calling test when the fixture no longer holds it.
#pragma once

#include "sage_toolchain/Files.h"

#include <QtTest>

#include <string>

inline void replaceInFixture(const std::string& file, const std::string& from, const std::string& to) {
    std::string text = sage::toolchain::readTextFile(file);
    const size_t at = text.find(from);
    QVERIFY2(at != std::string::npos, (file + " no longer holds: " + from).c_str());
    text.replace(at, from.size(), to);
    sage::toolchain::writeFile(file, text);
}
