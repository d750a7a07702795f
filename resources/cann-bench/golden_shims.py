# What CANN Bench's goldens call that Debian's PyTorch (1.13) lacks, added only where it lacks it.
# Each shim computes what the newer PyTorch documents for that function; docs/cann-bench.md lists
# them with the operators that need them, and tests/eval/test_cann_bench.cpp checks each against a
# case computed by hand (`golden_shims.py --self-test`). Nothing here rewrites a golden.
import sys

import torch
import torch.nn.functional as F


def _rms_norm(input, normalized_shape, weight=None, eps=None):
    """torch.nn.functional.rms_norm (PyTorch 2.4): x / sqrt(mean(x^2 over the last
    len(normalized_shape) axes) + eps) * weight; eps defaults to the input dtype's machine epsilon."""
    if isinstance(normalized_shape, int):
        normalized_shape = (normalized_shape,)
    dims = tuple(range(-len(normalized_shape), 0))
    if eps is None:
        eps = torch.finfo(input.dtype).eps
    y = input * torch.rsqrt(input.pow(2).mean(dim=dims, keepdim=True) + eps)
    return y * weight if weight is not None else y


if not hasattr(F, "rms_norm"):
    F.rms_norm = _rms_norm


def _widen_index(index):
    """Newer PyTorch indexes with int32/int16/int8 tensors as it does with int64; 1.13 refuses them.
    uint8 and bool tensors stay masks, as in every version."""
    if isinstance(index, torch.Tensor) and index.dtype in (torch.int32, torch.int16, torch.int8):
        return index.long()
    if isinstance(index, tuple):
        return tuple(_widen_index(i) for i in index)
    if isinstance(index, list) and any(isinstance(i, torch.Tensor) for i in index):
        return [_widen_index(i) for i in index]
    return index


if torch.__version__.split(".")[0] == "1" and not getattr(torch.Tensor, "_sage_widened_index", False):
    _getitem, _setitem = torch.Tensor.__getitem__, torch.Tensor.__setitem__
    torch.Tensor.__getitem__ = lambda self, index: _getitem(self, _widen_index(index))
    torch.Tensor.__setitem__ = lambda self, index, value: _setitem(self, _widen_index(index), value)
    torch.Tensor._sage_widened_index = True


def _self_test():
    """Hand-computed cases: rms_norm of [3, 4] is [3, 4] / sqrt(12.5) (eps 0); an int32 index picks
    the same elements as an int64 one. Prints 'ok' or raises."""
    y = F.rms_norm(torch.tensor([[3.0, 4.0]], dtype=torch.float64), (2,), eps=0.0)
    expect = torch.tensor([[3.0, 4.0]], dtype=torch.float64) / 12.5 ** 0.5
    assert torch.allclose(y, expect, rtol=0, atol=1e-15), f"rms_norm gave {y.tolist()}"
    w = F.rms_norm(torch.tensor([[3.0, 4.0]], dtype=torch.float64), 2, torch.tensor([2.0, 0.5], dtype=torch.float64), 0.0)
    assert torch.allclose(w, expect * torch.tensor([2.0, 0.5], dtype=torch.float64)), f"weighted rms_norm gave {w.tolist()}"
    t = torch.tensor([10, 20, 30, 40])
    assert t[torch.tensor([3, 0], dtype=torch.int32)].tolist() == [40, 10], "int32 index"
    t[torch.tensor([1], dtype=torch.int32)] = 7
    assert t.tolist() == [10, 7, 30, 40], "int32 index assignment"
    assert t[torch.tensor([1, 0, 1, 0], dtype=torch.bool)].tolist() == [10, 30], "bool mask"
    print("ok")


if __name__ == "__main__" and "--self-test" in sys.argv:
    _self_test()
