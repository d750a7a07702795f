// Simulator throughput: an fp16 elementwise add of 16 M elements on 8 blocks (double-buffered,
// 8192-element tiles), timed on the host. Prints elements per second of host time and the host
// cost per simulated instruction, with the timeline recorded and without.
#include "kernel_operator.h"
#include "sage_npu/Simulation.h"

#include <algorithm>
#include <chrono>
#include <cstdio>
#include <vector>

using namespace AscendC;

namespace {

extern "C" __global__ __aicore__ void bench_add(GM_ADDR x, GM_ADDR y, GM_ADDR z, uint32_t total, uint32_t TILE) {
    uint32_t per = total / GetBlockNum();
    GlobalTensor<half> gx, gy, gz;
    gx.SetGlobalBuffer((__gm__ half*)x + per * GetBlockIdx(), per);
    gy.SetGlobalBuffer((__gm__ half*)y + per * GetBlockIdx(), per);
    gz.SetGlobalBuffer((__gm__ half*)z + per * GetBlockIdx(), per);
    TPipe pipe;
    TQue<TPosition::VECIN, 2> qx, qy;
    TQue<TPosition::VECOUT, 2> qz;
    pipe.InitBuffer(qx, 2, TILE * sizeof(half));
    pipe.InitBuffer(qy, 2, TILE * sizeof(half));
    pipe.InitBuffer(qz, 2, TILE * sizeof(half));
    for (uint32_t off = 0; off < per; off += TILE) {
        LocalTensor<half> a = qx.AllocTensor<half>(), b = qy.AllocTensor<half>();
        DataCopy(a, gx[off], TILE);
        DataCopy(b, gy[off], TILE);
        qx.EnQue(a);
        qy.EnQue(b);
        a = qx.DeQue<half>();
        b = qy.DeQue<half>();
        LocalTensor<half> c = qz.AllocTensor<half>();
        Add(c, a, b, TILE);
        qz.EnQue(c);
        qx.FreeTensor(a);
        qy.FreeTensor(b);
        c = qz.DeQue<half>();
        DataCopy(gz[off], c, TILE);
        qz.FreeTensor(c);
    }
}

struct Result {
    double seconds;
    uint64_t instructions, cycles;
};

Result runOnce(bool timeline, uint32_t tile, uint32_t n) {
    sage::npu::Simulation sim{sage::npu::DeviceProfile{}};
    sim.activate();
    sim.setMaxEvents(timeline ? 4'000'000 : 0);
    auto* x = reinterpret_cast<half*>(GmAlloc(n * sizeof(half)));
    auto* y = reinterpret_cast<half*>(GmAlloc(n * sizeof(half)));
    auto* z = reinterpret_cast<half*>(GmAlloc(n * sizeof(half)));
    for (uint32_t i = 0; i < n; ++i) {
        x[i] = half(float(i % 1000) * 0.01f);
        y[i] = half(1.0f);
    }
    auto t0 = std::chrono::steady_clock::now();
    ICPU_RUN_KF(bench_add, 8, (GM_ADDR)x, (GM_ADDR)y, (GM_ADDR)z, n, tile);
    double s = std::chrono::duration<double>(std::chrono::steady_clock::now() - t0).count();
    const auto& r = sim.launches().back();
    uint64_t instr = 0;
    for (const auto& c : r.cores)
        for (int p = 1; p < 7; ++p) instr += c.pipes.instructions[p];  // pipe instructions (not scalar)
    if (!r.diagnostics.empty() || float(z[12345]) != float(x[12345]) + 1.0f) std::printf("WARNING: wrong result\n");
    sim.deactivate();
    return {s, instr, r.totalCycles};
}

} // namespace

int main() {
    struct Config { uint32_t tile, n; bool timeline; };
    for (Config cfg : {Config{8192, 16u << 20, true}, Config{8192, 16u << 20, false}, Config{128, 1u << 20, true}}) {
        const double n = double(cfg.n);
        const bool timeline = cfg.timeline;
        std::vector<double> times;
        Result last{};
        for (int i = 0; i < 5; ++i) {
            last = runOnce(timeline, cfg.tile, cfg.n);
            times.push_back(last.seconds);
        }
        std::sort(times.begin(), times.end());
        double med = times[times.size() / 2];
        std::printf("fp16 add, %u elements, tile %u, 8 blocks, timeline %s: median %.3f s host, %.1f M elements/s, "
                    "%llu pipe instructions, %.2f us host per simulated instruction, %llu simulated cycles\n",
                    cfg.n, cfg.tile, timeline ? "on " : "off", med, n / med / 1e6, (unsigned long long)last.instructions,
                    med / double(last.instructions) * 1e6, (unsigned long long)last.cycles);
    }
}
