// Test fixture written for SAGE: another architecture's tiling, which a 910B build leaves out.
#error "op_host/arch35 was compiled for a device whose architecture is not 35"
