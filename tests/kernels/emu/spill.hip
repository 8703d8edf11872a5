// A private array indexed dynamically lives in scratch (private segment), exercising
// scratch_store / scratch_load.
extern "C" __global__ void private_array(const int* idx, const int* vals, int* out, int n) {
  int i = blockIdx.x * blockDim.x + threadIdx.x;
  if (i >= n) return;
  int buf[40];
  for (int k = 0; k < 40; k++) buf[k] = vals[i] * k;
  buf[idx[i] % 40] += 1000;
  int s = 0;
  for (int k = 0; k < 40; k += 3) s += buf[(idx[i] + k) % 40];
  out[i] = s;
}
