// atvoss/util/vec_scratch.h: UB the running schedule lends to operations that need temporaries
// (Compare's bit mask and 0/1 halves, Select's mask conversion). DagTile sets it before a tile's
// compute when its DAG has such an operation; an operation without it (or with too little)
// takes its scalar-unit path.
#pragma once

#include "kernel_operator.h"

namespace Ops::Base::Vec::atvoss_scratch {

// Bytes an operation needs for `count` elements: the bit mask (32-byte aligned) and 4 per element.
__aicore__ inline uint32_t bytesFor(uint32_t count) { return (count / 8u + 1u + 31u) / 32u * 32u + 4u * count; }

struct Area {
    AscendC::LocalTensor<uint8_t> bytes;
    uint32_t size = 0;
};
inline Area& current() {
    static thread_local Area area;
    return area;
}

// The bit mask for `count` elements and, after it, a 32-byte aligned region of 4 * count bytes.
struct Parts {
    AscendC::LocalTensor<uint8_t> bits;
    AscendC::LocalTensor<uint8_t> rest;
};
__aicore__ inline bool take(uint32_t count, Parts& p) {
    Area& a = current();
    if (a.size < bytesFor(count)) return false;
    p.bits = a.bytes;
    p.rest = a.bytes[(count / 8u + 1u + 31u) / 32u * 32u];
    return true;
}

} // namespace Ops::Base::Vec::atvoss_scratch
