# The oracle of a SAGE test operator (CANN Bench's layout).
from typing import List

import torch


def foreach_scale_add(a: List[torch.Tensor], b: List[torch.Tensor], alpha: float = 1.0) -> List[torch.Tensor]:
    return [(x.to(torch.float32) * alpha + y.to(torch.float32)).to(x.dtype) for x, y in zip(a, b)]
