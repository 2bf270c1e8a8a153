# Finds NCCL (nccl.h and libnccl) for archscan::nccl, the scan across GPUs: under NCCL_ROOT (a CMake
# or environment variable) if given, else beside the CUDA toolkit (which ships NCCL from CUDA 13).
# Defines the imported target archscan::nccl_library when both are found; quiet otherwise.
if(NOT TARGET archscan::nccl_library)
  find_path(ARCHSCAN_NCCL_INCLUDE_DIR nccl.h
    HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_INCLUDE_DIRS} PATH_SUFFIXES include)
  find_library(ARCHSCAN_NCCL_LIBRARY NAMES nccl libnccl.so.2
    HINTS ${NCCL_ROOT} $ENV{NCCL_ROOT} ${CUDAToolkit_LIBRARY_DIR} PATH_SUFFIXES lib lib64)
  if(ARCHSCAN_NCCL_INCLUDE_DIR AND ARCHSCAN_NCCL_LIBRARY)
    add_library(archscan::nccl_library UNKNOWN IMPORTED)
    set_target_properties(archscan::nccl_library PROPERTIES
      IMPORTED_LOCATION "${ARCHSCAN_NCCL_LIBRARY}"
      INTERFACE_INCLUDE_DIRECTORIES "${ARCHSCAN_NCCL_INCLUDE_DIR}")
  endif()
endif()
