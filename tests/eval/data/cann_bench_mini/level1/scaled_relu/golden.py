# The oracle of a SAGE test operator (CANN Bench's layout).
import torch


def scaled_relu(x: torch.Tensor, mode: str = "relu", alpha: float = 1.0) -> torch.Tensor:
    if mode == "relu":
        return torch.clamp(x, min=0) * alpha
    return -x * alpha
