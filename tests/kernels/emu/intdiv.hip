// Integer division and remainder by runtime divisors (signed, unsigned, 64-bit).
extern "C" __global__ void intdiv(const int* a, const int* b, const unsigned* ua,
                                  const unsigned* ub, int* q, int* r, unsigned* uq,
                                  unsigned* ur, long long* q64, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  q[i] = a[i] / b[i];
  r[i] = a[i] % b[i];
  uq[i] = ua[i] / ub[i];
  ur[i] = ua[i] % ub[i];
  q64[i] = ((long long)a[i] * 1000003LL) / (long long)b[i];
}
