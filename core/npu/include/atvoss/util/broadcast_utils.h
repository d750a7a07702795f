// atvoss/util/broadcast_utils.h: helpers for kernels that tile a broadcast output along one
// "UB split" axis themselves. A tile fixes the indices of the axes before ubSplitAxis, covers
// ubSplitSize (at most ubFormer) positions of ubSplitAxis and every position of the axes after
// it, laid out densely in UB. axesIndices holds the tile's indices, the ubSplitAxis entry counted
// in tiles (0 .. ubOuter-1).
#pragma once

#include "kernel_operator.h"

namespace Ops::Base {

constexpr int BROADCAST_MAX_DIMS = 8;

// The indices of tile number `tileIdx` (tiles numbered row-major, ubSplitAxis innermost).
// dimProductBeforeUbInner = ubOuter * product of the extents before ubSplitAxis.
__aicore__ inline void BroadcastGetAxesIndices(int64_t (&axesIndices)[BROADCAST_MAX_DIMS], int64_t tileIdx,
                                               const int64_t* outputDims, int64_t ubSplitAxis,
                                               int64_t dimProductBeforeUbInner) {
    int64_t before = 1;
    for (int64_t a = 0; a < ubSplitAxis; ++a) before *= outputDims[a];
    const int64_t ubOuter = before > 0 ? dimProductBeforeUbInner / before : 1;
    axesIndices[ubSplitAxis] = ubOuter > 0 ? tileIdx % ubOuter : 0;
    tileIdx = ubOuter > 0 ? tileIdx / ubOuter : 0;
    for (int64_t a = ubSplitAxis - 1; a >= 0; --a) {
        axesIndices[a] = tileIdx % outputDims[a];
        tileIdx /= outputDims[a];
    }
}

// Steps axesIndices to the next tile.
__aicore__ inline void BroadcastUpdateAxesIndices(int64_t (&axesIndices)[BROADCAST_MAX_DIMS], const int64_t* outputDims,
                                                  int64_t ubSplitAxis, int64_t ubOuter) {
    if (++axesIndices[ubSplitAxis] < ubOuter) return;
    axesIndices[ubSplitAxis] = 0;
    for (int64_t a = ubSplitAxis - 1; a >= 0; --a) {
        if (++axesIndices[a] < outputDims[a]) return;
        axesIndices[a] = 0;
    }
}

// GM element offset of the tile's first element in a tensor with the given strides.
__aicore__ inline int64_t BroadcastGetGmOffset(const int64_t (&axesIndices)[BROADCAST_MAX_DIMS], const int64_t* strides,
                                               int64_t ubSplitAxis, int64_t ubFormer) {
    int64_t off = axesIndices[ubSplitAxis] * ubFormer * strides[ubSplitAxis];
    for (int64_t a = 0; a < ubSplitAxis; ++a) off += axesIndices[a] * strides[a];
    return off;
}

// Fills `dst` densely with the tile of an input broadcast to the output (inputStrides 0 on the
// broadcast axes). Element by element on the scalar unit: the simulator has no multi-axis DMA.
template <class T>
__aicore__ inline void BroadcastNddmaWithLoop(const AscendC::GlobalTensor<T>& src, const AscendC::LocalTensor<T>& dst,
                                              const int64_t* outputDims, const int64_t* outputStrides,
                                              const int64_t* inputStrides, const int64_t (&axesIndices)[BROADCAST_MAX_DIMS],
                                              int64_t ubSplitAxis, int64_t shapeLen, int64_t ubSplitSize,
                                              int64_t ubFormer) {
    const int64_t base = BroadcastGetGmOffset(axesIndices, inputStrides, ubSplitAxis, ubFormer);
    const int64_t count = ubSplitSize * outputStrides[ubSplitAxis];
    for (int64_t e = 0; e < count; ++e) {
        int64_t rest = e, off = base;
        for (int64_t a = shapeLen - 1; a > ubSplitAxis; --a) {
            off += (rest % outputDims[a]) * inputStrides[a];
            rest /= outputDims[a];
        }
        off += rest * inputStrides[ubSplitAxis];
        dst.SetValue(uint32_t(e), src.GetValue(uint64_t(off)));
    }
}
template <class T>
__aicore__ inline void BroadcastNddmaWithoutLoop(const AscendC::GlobalTensor<T>& src, const AscendC::LocalTensor<T>& dst,
                                                 const int64_t* outputDims, const int64_t* outputStrides,
                                                 const int64_t* inputStrides,
                                                 const int64_t (&axesIndices)[BROADCAST_MAX_DIMS], int64_t ubSplitAxis,
                                                 int64_t shapeLen, int64_t ubSplitSize, int64_t ubFormer) {
    BroadcastNddmaWithLoop(src, dst, outputDims, outputStrides, inputStrides, axesIndices, ubSplitAxis, shapeLen,
                           ubSplitSize, ubFormer);
}

} // namespace Ops::Base
