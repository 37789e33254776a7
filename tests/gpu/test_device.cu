// Prints the device the GPU suite runs on, so committed results name it.
#include <cuda_runtime_api.h>

#include <cstdio>

#include "gpu/gpu_test_util.h"

TEST(Device, ReportsHopper) {
  MIXGEMM_SKIP_WITHOUT_GPU();
  cudaDeviceProp prop{};
  MIXGEMM_CUDA_OK(cudaGetDeviceProperties(&prop, 0));
  int driver = 0, runtime = 0;
  MIXGEMM_CUDA_OK(cudaDriverGetVersion(&driver));
  MIXGEMM_CUDA_OK(cudaRuntimeGetVersion(&runtime));
  std::printf("DEVICE %s sm_%d%d SMs=%d L2=%d MB driver=%d runtime=%d\n", prop.name, prop.major,
              prop.minor, prop.multiProcessorCount, prop.l2CacheSize >> 20, driver, runtime);
  EXPECT_EQ(prop.major, 9) << "mixgemm's kernels are built for sm_90a";
}
