# The oracle of a SAGE test operator (CANN Bench's layout).
import torch


def row_argmax(x: torch.Tensor, dim: int, keepdim: bool = False) -> torch.Tensor:
    return torch.argmax(x, dim=dim, keepdim=keepdim)
