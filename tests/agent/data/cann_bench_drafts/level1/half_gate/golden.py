# The oracle of a SAGE test operator (CANN Bench's layout).
import torch


def half_gate(x: torch.Tensor, dim: int = -1, beta: float = 0.9, step: int = 1) -> torch.Tensor:
    a, b = x.to(torch.float32).chunk(2, dim=dim)
    return (a * torch.sigmoid(b) / (1 - beta ** step)).to(x.dtype)
