// cluster_launch.h - the launch attribute of a thread-block cluster (host side), shared by the
// launchers that run clusters (smallm's cluster split-K, sm90's diagnostic clustered launch) and the
// tools that measure them.
#pragma once

#include <cuda_runtime.h>

namespace mixgemm::kernels {

// The launch attribute of a 1-D cluster of `cluster` CTAs along x (cudaLaunchKernelEx).
inline cudaLaunchAttribute cluster_dim_attr(int cluster) {
  cudaLaunchAttribute attr{};
  attr.id = cudaLaunchAttributeClusterDimension;
  attr.val.clusterDim.x = static_cast<unsigned>(cluster);
  attr.val.clusterDim.y = 1;
  attr.val.clusterDim.z = 1;
  return attr;
}

}  // namespace mixgemm::kernels
