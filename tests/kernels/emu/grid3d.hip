// 3-D grid and block: every thread writes its coordinates, block dims and grid dims.
extern "C" __global__ void coords3d(int* out, int nx, int ny) {
  int x = blockIdx.x * blockDim.x + threadIdx.x;
  int y = blockIdx.y * blockDim.y + threadIdx.y;
  int z = blockIdx.z * blockDim.z + threadIdx.z;
  int idx = (z * ny + y) * nx + x;
  int* o = out + 8 * idx;
  o[0] = threadIdx.x; o[1] = threadIdx.y; o[2] = threadIdx.z;
  o[3] = blockIdx.x + 100 * blockIdx.y + 10000 * blockIdx.z;
  o[4] = blockDim.x; o[5] = blockDim.y; o[6] = blockDim.z;
  o[7] = gridDim.x + 100 * gridDim.y + 10000 * gridDim.z;
}
