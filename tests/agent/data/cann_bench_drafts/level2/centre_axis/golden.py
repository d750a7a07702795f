# The oracle of a SAGE test operator (CANN Bench's layout).
import torch


def centre_axis(x: torch.Tensor, dim: int = -1) -> torch.Tensor:
    f = x.to(torch.float32)
    return (f - f.mean(dim=dim, keepdim=True)).to(x.dtype)
