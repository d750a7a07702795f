// Test helpers: an active Simulation with the 910B profile, GM buffers, diagnostics lookup.
#pragma once

#include "kernel_operator.h"
#include "sage_npu/Simulation.h"

#include <QtTest>

#include <random>
#include <string>
#include <vector>

struct NpuHarness {
    sage::npu::Simulation sim;
    explicit NpuHarness(sage::npu::DeviceProfile p = {}) : sim(std::move(p)) { sim.activate(); }
    ~NpuHarness() { sim.deactivate(); }

    template <typename T> T* gm(size_t n) { return reinterpret_cast<T*>(AscendC::GmAlloc(n * sizeof(T))); }
    template <typename T> T* gmRandom(size_t n, float lo, float hi, unsigned seed) {
        T* p = gm<T>(n);
        std::mt19937 rng(seed);
        std::uniform_real_distribution<float> d(lo, hi);
        for (size_t i = 0; i < n; ++i) p[i] = T(d(rng));
        return p;
    }
    const sage::npu::LaunchReport& last() const { return sim.launches().back(); }
    const sage::npu::SimDiagnostic* find(const std::string& kind) const {
        for (const auto& d : last().diagnostics)
            if (d.kind == kind) return &d;
        return nullptr;
    }
    std::string describe() const {
        std::string s;
        for (const auto& d : last().diagnostics) s += d.kind + "@" + std::to_string(d.line) + ": " + d.message + "\n";
        return s;
    }
};

// Line number of the first line in `file` containing `needle` (to assert diagnostic lines).
inline uint32_t lineOf(const char* file, const char* needle) {
    QFile f(QString::fromUtf8(file));
    if (!f.open(QIODevice::ReadOnly)) return 0;
    uint32_t n = 0;
    while (!f.atEnd()) {
        ++n;
        if (f.readLine().contains(needle)) return n;
    }
    return 0;
}
