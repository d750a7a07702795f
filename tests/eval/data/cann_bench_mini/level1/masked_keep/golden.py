# The oracle of a SAGE test operator (CANN Bench's layout).
import torch


def masked_keep(x: torch.Tensor, mask: torch.Tensor) -> torch.Tensor:
    return torch.where(mask != 0, x, torch.zeros_like(x))
