// Test fixture written here: not a kernel (no __global__ entry), so compat skips it.
int helper() { return 1; }
