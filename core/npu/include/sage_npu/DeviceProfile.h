// Every number the simulated NPU uses, loaded from resources/devices/<id>.json.
// Sources for each value are cited in docs/device-model.md.
#pragma once

#include <cstdint>
#include <string>

namespace sage::npu {

struct DeviceProfile {
    std::string id;          // e.g. "ascend910b1-sim"
    std::string name;        // human-readable
    std::string soc;         // e.g. "Ascend910B1"
    int npuArch = 2201;      // __NPU_ARCH__: 2201 = 910B, 2002 = 310P, 1001 = 910
    double clockMhz = 1850;  // AI core clock

    // Cores. "split" (910B): vector kernels use vectorCores, cube kernels cubeCores.
    // "coupled" (310P): one AI core has both units; vectorCores == cubeCores.
    int vectorCores = 48;
    int cubeCores = 24;
    bool splitArch = true;

    // Local memories (bytes).
    uint32_t ubBytes = 196608;        // the TPipe::InitBuffer limit: the whole UB (see docs/device-model.md)
    uint32_t ubUsableBytes = 196352;  // what the host's GetCoreMemSize(UB) reports: 256 B less
    uint32_t l1Bytes = 524288;
    uint32_t l0aBytes = 65536;
    uint32_t l0bBytes = 65536;
    uint32_t l0cBytes = 131072;

    // Data movement, per core, in bytes per cycle (derived from GB/s / clock GHz in the loader).
    double gmToUbBytesPerCycle = 119.0;
    double ubToGmBytesPerCycle = 101.0;
    double gmToL1BytesPerCycle = 142.7;
    double l0cToGmBytesPerCycle = 113.1;
    double l1ToL0aBytesPerCycle = 512.0;
    double l1ToL0bBytesPerCycle = 256.0;
    double ubToUbBytesPerCycle = 128.0;
    double chipGmBytesPerCycle = 973.0;  // all active cores together
    uint32_t gmReadLatencyCycles = 307;
    uint32_t gmWriteLatencyCycles = 153;
    uint32_t dmaIssueCycles = 9;

    // The chip's L2 cache, in front of HBM (0 bytes: not modelled). A launch is timed as a
    // benchmark times it, after earlier identical launches: the share of its GM footprint the L2
    // can hold, min(1, l2Bytes / footprint), is found there; that share moves at the L2 rate with
    // the L2 latency, the rest at the HBM rate (chipGmBytesPerCycle) with the GM latency.
    uint64_t l2Bytes = 0;
    double l2BytesPerCycle = 0;       // all active cores together, for data the L2 holds
    uint32_t l2ReadLatencyCycles = 0;
    uint32_t l2WriteLatencyCycles = 0;

    // Vector unit.
    uint32_t vectorBytesPerRepeat = 256;
    uint32_t maxRepeat = 255;
    uint32_t vectorIssueCycles = 2;
    uint32_t vectorTailCycles = 15;  // pipeline drain before a consumer on another pipe sees the result
    double cyclesPerRepeatSimple = 1;       // add, sub, mul, max, min, adds, muls, dup, relu, abs, cmp, select
    double cyclesPerRepeatCast = 1;
    double cyclesPerRepeatDivF32 = 2;       // div, exp, ln, sqrt, rsqrt, reciprocal on fp32
    double cyclesPerRepeatDivF16 = 4;       // the same on fp16
    double cyclesPerRepeatReduce = 2;       // ReduceSum/Max/Min, WholeReduce*, BlockReduce*
    double cyclesPerRepeatComposite = 10;   // Sigmoid, Tanh, Gelu (several instructions)

    // Cube unit.
    uint32_t cubeM0 = 16, cubeK0 = 16, cubeN0 = 16;  // fp16 fractal
    double cubeCyclesPerFractal = 1;                  // one 16x16x16 MAC block per cycle
    uint32_t mmadOverheadCycles = 20;

    // Scalar unit.
    uint32_t scalarIssueCycles = 1;       // each API call the scalar unit issues
    uint32_t scalarUbAccessCycles = 8;    // GetValue/SetValue on a LocalTensor
    uint32_t scalarGmHitCycles = 4;       // scalar GM access hitting the data cache
    uint32_t scalarGmMissCycles = 307;    // scalar GM access missing the data cache
    uint32_t dcacheLineBytes = 64;
    uint32_t dcacheLines = 256;           // 16 KB data cache
    uint32_t flagCycles = 1;              // SetFlag/WaitFlag/PipeBarrier issue

    // Synchronisation resources and features.
    int eventIds = 8;                // EVENT_ID0..7 (0..3 on 910)
    int maxAllocPerPosition = 8;     // outstanding AllocTensor per TPosition (4 on 910)
    bool dataCopyPad = true;
    bool bfloat16 = true;
    uint32_t launchOverheadCycles = 2000;  // kernel launch and block dispatch, paid once
};

} // namespace sage::npu
