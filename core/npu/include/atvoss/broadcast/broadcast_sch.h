// atvoss/broadcast/broadcast_sch.h: the broadcast schedule. BroadcastSch<key, Dag> sch(tiling)
// reads a BroadcastBaseTilingData from the tiling GM address; sch.Process(in0, in1, ..., out0, ...)
// runs the DAG over the output shape. The output is seen as rows (every axis but the last) of
// the last axis; blocks take whole rows, a UB tile holds several rows (or a column chunk of one
// long row), each row padded to 32 elements so every row starts 32-byte aligned. An input whose
// last-axis stride is 1 is copied row by row with DataCopyPad; one broadcast along the last axis
// reads its element and Duplicates it over the row.
#pragma once

#include "atvoss/broadcast/broadcast_base_struct.h"
#include "atvoss/elewise/elewise_sch.h"

#include <cstring>

namespace Ops::Base {

namespace atvoss_detail {

// One tile of rows [row0, row0 + rows) and columns [col0, col0 + cols) of the output.
template <class Dag> struct RowIo {
    const BroadcastBaseTilingData* t = nullptr;
    int64_t row0 = 0, col0 = 0;
    uint32_t rows = 0, cols = 0, stride = 0;

    __aicore__ inline int64_t inputOffset(int k, int64_t row) const {
        int64_t off = 0;
        for (int a = int(t->rank) - 2; a >= 0; --a) {
            off += (row % t->outDims[a]) * t->inStrides[k][a];
            row /= t->outDims[a];
        }
        return off + col0 * t->inStrides[k][t->rank - 1];
    }
    template <int K, class T> __aicore__ inline void Load(AscendC::LocalTensor<T>& dst, DagIo<Dag>& gm, uint32_t) {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.in[K]));
        const bool alongRow = t->inStrides[K][t->rank - 1] != 0;
        for (uint32_t r = 0; r < rows; ++r) {
            const int64_t off = inputOffset(K, row0 + r);
            if (alongRow) copyRowPadded(dst[r * stride], g[off], cols, stride);
            else Vec::Duplicate<T>(dst[r * stride], g.GetValue(off), stride);
        }
    }
    template <int K, class T> __aicore__ inline void Store(AscendC::LocalTensor<T>& src, DagIo<Dag>& gm, uint32_t) {
        AscendC::GlobalTensor<T> g;
        g.SetGlobalBuffer(reinterpret_cast<__gm__ T*>(gm.out[K]));
        const int64_t width = t->outDims[t->rank - 1];
        const uint32_t rowBytes = cols * uint32_t(sizeof(T));
        const uint32_t ubGapBlocks = (stride * uint32_t(sizeof(T)) - (rowBytes + 31u) / 32u * 32u) / 32u;
        AscendC::DataCopyExtParams p(uint16_t(rows), rowBytes, ubGapBlocks,
                                     uint32_t((width - cols) * int64_t(sizeof(T))), 0);
        AscendC::DataCopyPad(g[row0 * width + col0], src, p);
    }
    template <class Node, class D, class S> __aicore__ inline void Reduce(D&, S&, uint32_t) {
        static_assert(sizeof(Node) == 0, "atvoss: a Vec::Reduce*Op needs the reduce schedule (ReduceSch), not this one");
    }
};

} // namespace atvoss_detail

template <uint64_t key, class Dag> class BroadcastSch {
public:
    __aicore__ inline explicit BroadcastSch(GM_ADDR tiling) {
        std::memcpy(&t_, reinterpret_cast<const void*>(tiling), sizeof(t_));
    }
    __aicore__ inline explicit BroadcastSch(const BroadcastBaseTilingData* tiling) : t_(*tiling) {}

    template <class T, int N> __aicore__ inline void SetVar(T v) { gm_.template setVar<T, N>(v); }

    template <class... A> __aicore__ inline void Process(A... addrs) {
        gm_.bind(addrs...);
        if (!checkShape()) return;
        int64_t rowBegin = 0, rowCount = 0;
        if (!blockRows(rowBegin, rowCount)) return;
        AscendC::TPipe pipe;
        tile_.Init(&pipe, atvoss_detail::tileElemsFor(tile_.kBytesPerElem, t_.ubFormer, 32));
        const int64_t width = t_.outDims[t_.rank - 1];
        const uint32_t capacity = tile_.TileElems();
        const uint32_t colChunk = width <= int64_t(capacity) ? uint32_t(width) : capacity;
        atvoss_detail::RowIo<Dag> io;
        io.t = &t_;
        io.stride = (colChunk + 31u) / 32u * 32u;
        const uint32_t rowsPerTile = capacity / io.stride;
        for (int64_t r = 0; r < rowCount; r += rowsPerTile) {
            io.row0 = rowBegin + r;
            io.rows = uint32_t(rowCount - r < rowsPerTile ? rowCount - r : rowsPerTile);
            for (int64_t c = 0; c < width; c += colChunk) {
                io.col0 = c;
                io.cols = uint32_t(width - c < colChunk ? width - c : colChunk);
                tile_.Run(io, gm_, io.rows * io.stride);
            }
        }
    }

private:
    // A shape the schedule cannot run is reported (the simulator's assert names the field).
    __aicore__ inline bool checkShape() const {
        bool ok = t_.rank >= 1 && t_.rank <= kBrcMaxRank;
        for (int a = 0; ok && a < t_.rank; ++a) ok = t_.outDims[a] > 0;
        for (int k = 0; ok && k < Dag::kInputs; ++k)
            ok = t_.inStrides[k][t_.rank - 1] == 0 || t_.inStrides[k][t_.rank - 1] == 1;
        ::sage::npu::rt::kernelAssert(ok,
                                      "BroadcastSch: the tiling data has a rank outside 1..8, an extent <= 0, or an "
                                      "input whose last-axis stride is neither 0 (broadcast) nor 1 (contiguous)",
                                      nullptr, std::source_location::current());
        return ok;
    }
    __aicore__ inline bool blockRows(int64_t& begin, int64_t& count) const {
        int64_t rows = 1;
        for (int a = 0; a + 1 < t_.rank; ++a) rows *= t_.outDims[a];
        return atvoss_detail::blockShareOf(rows, t_.blockFormer, begin, count);
    }

    BroadcastBaseTilingData t_;
    atvoss_detail::DagIo<Dag> gm_;
    atvoss_detail::DagTile<Dag> tile_;
};

} // namespace Ops::Base
