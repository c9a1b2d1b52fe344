/*
 * src/kernel/cuda_errors.h: every cudaError_t with its name, the CUresult of the same meaning
 * (RT_NO_CU where the driver has none: the includer defines it) and its description, as
 * NVIDIA's runtime prints them. One table for the runtime (src/runtime/error.c:
 * cudaGetErrorName, cudaGetErrorString, the CUresult translation) and the device runtime's
 * cudaGetErrorName/String in kernels (devrt, issue 25: src/kernel/devrt.c), which on the H100
 * give the host's strings (docs/probes/kernels/devrt).
 */
#pragma once

/* X(name, value, CUresult of the same meaning, description) */
#define CUDA_ERRORS_TABLE(X) \
    X(cudaSuccess, 0, CUDA_SUCCESS, "no error") \
    X(cudaErrorInvalidValue, 1, CUDA_ERROR_INVALID_VALUE, "invalid argument") \
    X(cudaErrorMemoryAllocation, 2, CUDA_ERROR_OUT_OF_MEMORY, "out of memory") \
    X(cudaErrorInitializationError, 3, CUDA_ERROR_NOT_INITIALIZED, "initialization error") \
    X(cudaErrorCudartUnloading, 4, CUDA_ERROR_DEINITIALIZED, "driver shutting down") \
    X(cudaErrorProfilerDisabled, 5, CUDA_ERROR_PROFILER_DISABLED, "profiler disabled while using external profiling tool") \
    X(cudaErrorProfilerNotInitialized, 6, CUDA_ERROR_PROFILER_NOT_INITIALIZED, "profiler not initialized: call cudaProfilerInitialize()") \
    X(cudaErrorProfilerAlreadyStarted, 7, CUDA_ERROR_PROFILER_ALREADY_STARTED, "profiler already started") \
    X(cudaErrorProfilerAlreadyStopped, 8, CUDA_ERROR_PROFILER_ALREADY_STOPPED, "profiler already stopped") \
    X(cudaErrorInvalidConfiguration, 9, RT_NO_CU, "invalid configuration argument") \
    X(cudaErrorInvalidPitchValue, 12, RT_NO_CU, "invalid pitch argument") \
    X(cudaErrorInvalidSymbol, 13, RT_NO_CU, "invalid device symbol") \
    X(cudaErrorInvalidHostPointer, 16, RT_NO_CU, "invalid host pointer") \
    X(cudaErrorInvalidDevicePointer, 17, RT_NO_CU, "invalid device pointer") \
    X(cudaErrorInvalidTexture, 18, RT_NO_CU, "invalid texture reference") \
    X(cudaErrorInvalidTextureBinding, 19, RT_NO_CU, "texture is not bound to a pointer") \
    X(cudaErrorInvalidChannelDescriptor, 20, RT_NO_CU, "invalid channel descriptor") \
    X(cudaErrorInvalidMemcpyDirection, 21, RT_NO_CU, "invalid copy direction for memcpy") \
    X(cudaErrorAddressOfConstant, 22, RT_NO_CU, "invalid address of constant") \
    X(cudaErrorTextureFetchFailed, 23, RT_NO_CU, "fetch from texture failed") \
    X(cudaErrorTextureNotBound, 24, RT_NO_CU, "cannot fetch from a texture that is not bound") \
    X(cudaErrorSynchronizationError, 25, RT_NO_CU, "incorrect use of __syncthreads()") \
    X(cudaErrorInvalidFilterSetting, 26, RT_NO_CU, "linear filtering not supported for non-float type") \
    X(cudaErrorInvalidNormSetting, 27, RT_NO_CU, "read as normalized float not supported for data type") \
    X(cudaErrorMixedDeviceExecution, 28, RT_NO_CU, "device emulation mode and device execution mode cannot be mixed") \
    X(cudaErrorNotYetImplemented, 31, RT_NO_CU, "feature not yet implemented") \
    X(cudaErrorMemoryValueTooLarge, 32, RT_NO_CU, "memory size or pointer value too large to fit in 32 bit") \
    X(cudaErrorStubLibrary, 34, CUDA_ERROR_STUB_LIBRARY, "CUDA driver is a stub library") \
    X(cudaErrorInsufficientDriver, 35, RT_NO_CU, "CUDA driver version is insufficient for CUDA runtime version") \
    X(cudaErrorCallRequiresNewerDriver, 36, CUDA_ERROR_CALL_REQUIRES_NEWER_DRIVER, "API call is not supported in the installed CUDA driver") \
    X(cudaErrorInvalidSurface, 37, RT_NO_CU, "invalid surface reference") \
    X(cudaErrorDuplicateVariableName, 43, RT_NO_CU, "duplicate global variable looked up by string name") \
    X(cudaErrorDuplicateTextureName, 44, RT_NO_CU, "duplicate texture looked up by string name") \
    X(cudaErrorDuplicateSurfaceName, 45, RT_NO_CU, "duplicate surface looked up by string name") \
    X(cudaErrorDevicesUnavailable, 46, CUDA_ERROR_DEVICE_UNAVAILABLE, "CUDA-capable device(s) is/are busy or unavailable") \
    X(cudaErrorIncompatibleDriverContext, 49, RT_NO_CU, "incompatible driver context") \
    X(cudaErrorMissingConfiguration, 52, RT_NO_CU, "__global__ function call is not configured") \
    X(cudaErrorPriorLaunchFailure, 53, RT_NO_CU, "unspecified launch failure in prior launch") \
    X(cudaErrorLaunchMaxDepthExceeded, 65, RT_NO_CU, "launch would exceed maximum depth of nested launches") \
    X(cudaErrorLaunchFileScopedTex, 66, RT_NO_CU, "launch failed because kernel uses unsupported, file-scoped textures (texture objects are supported)") \
    X(cudaErrorLaunchFileScopedSurf, 67, RT_NO_CU, "launch failed because kernel uses unsupported, file-scoped surfaces (surface objects are supported)") \
    X(cudaErrorSyncDepthExceeded, 68, RT_NO_CU, "cudaDeviceSynchronize failed because caller's grid depth exceeds cudaLimitDevRuntimeSyncDepth") \
    X(cudaErrorLaunchPendingCountExceeded, 69, RT_NO_CU, "launch failed because launch would exceed cudaLimitDevRuntimePendingLaunchCount") \
    X(cudaErrorInvalidDeviceFunction, 98, RT_NO_CU, "invalid device function") \
    X(cudaErrorNoDevice, 100, CUDA_ERROR_NO_DEVICE, "no CUDA-capable device is detected") \
    X(cudaErrorInvalidDevice, 101, CUDA_ERROR_INVALID_DEVICE, "invalid device ordinal") \
    X(cudaErrorDeviceNotLicensed, 102, CUDA_ERROR_DEVICE_NOT_LICENSED, "device doesn't have valid Grid license") \
    X(cudaErrorSoftwareValidityNotEstablished, 103, RT_NO_CU, "integrity checks failed") \
    X(cudaErrorStartupFailure, 127, RT_NO_CU, "startup failure in cuda runtime") \
    X(cudaErrorInvalidKernelImage, 200, CUDA_ERROR_INVALID_IMAGE, "device kernel image is invalid") \
    X(cudaErrorDeviceUninitialized, 201, CUDA_ERROR_INVALID_CONTEXT, "invalid device context") \
    X(cudaErrorMapBufferObjectFailed, 205, CUDA_ERROR_MAP_FAILED, "mapping of buffer object failed") \
    X(cudaErrorUnmapBufferObjectFailed, 206, CUDA_ERROR_UNMAP_FAILED, "unmapping of buffer object failed") \
    X(cudaErrorArrayIsMapped, 207, CUDA_ERROR_ARRAY_IS_MAPPED, "array is mapped") \
    X(cudaErrorAlreadyMapped, 208, CUDA_ERROR_ALREADY_MAPPED, "resource already mapped") \
    X(cudaErrorNoKernelImageForDevice, 209, CUDA_ERROR_NO_BINARY_FOR_GPU, "no kernel image is available for execution on the device") \
    X(cudaErrorAlreadyAcquired, 210, CUDA_ERROR_ALREADY_ACQUIRED, "resource already acquired") \
    X(cudaErrorNotMapped, 211, CUDA_ERROR_NOT_MAPPED, "resource not mapped") \
    X(cudaErrorNotMappedAsArray, 212, CUDA_ERROR_NOT_MAPPED_AS_ARRAY, "resource not mapped as array") \
    X(cudaErrorNotMappedAsPointer, 213, CUDA_ERROR_NOT_MAPPED_AS_POINTER, "resource not mapped as pointer") \
    X(cudaErrorECCUncorrectable, 214, CUDA_ERROR_ECC_UNCORRECTABLE, "uncorrectable ECC error encountered") \
    X(cudaErrorUnsupportedLimit, 215, CUDA_ERROR_UNSUPPORTED_LIMIT, "limit is not supported on this architecture") \
    X(cudaErrorDeviceAlreadyInUse, 216, CUDA_ERROR_CONTEXT_ALREADY_IN_USE, "exclusive-thread device already in use by a different thread") \
    X(cudaErrorPeerAccessUnsupported, 217, CUDA_ERROR_PEER_ACCESS_UNSUPPORTED, "peer access is not supported between these two devices") \
    X(cudaErrorInvalidPtx, 218, CUDA_ERROR_INVALID_PTX, "a PTX JIT compilation failed") \
    X(cudaErrorInvalidGraphicsContext, 219, CUDA_ERROR_INVALID_GRAPHICS_CONTEXT, "invalid OpenGL or DirectX context") \
    X(cudaErrorNvlinkUncorrectable, 220, CUDA_ERROR_NVLINK_UNCORRECTABLE, "uncorrectable NVLink error detected during the execution") \
    X(cudaErrorJitCompilerNotFound, 221, CUDA_ERROR_JIT_COMPILER_NOT_FOUND, "PTX JIT compiler library not found") \
    X(cudaErrorUnsupportedPtxVersion, 222, CUDA_ERROR_UNSUPPORTED_PTX_VERSION, "the provided PTX was compiled with an unsupported toolchain.") \
    X(cudaErrorJitCompilationDisabled, 223, CUDA_ERROR_JIT_COMPILATION_DISABLED, "PTX JIT compilation was disabled") \
    X(cudaErrorUnsupportedExecAffinity, 224, CUDA_ERROR_UNSUPPORTED_EXEC_AFFINITY, "the provided execution affinity is not supported") \
    X(cudaErrorUnsupportedDevSideSync, 225, CUDA_ERROR_UNSUPPORTED_DEVSIDE_SYNC, "the provided PTX contains unsupported call to cudaDeviceSynchronize") \
    X(cudaErrorContained, 226, CUDA_ERROR_CONTAINED, "Invalid access of peer GPU memory over nvlink or a hardware error") \
    X(cudaErrorInvalidSource, 300, CUDA_ERROR_INVALID_SOURCE, "device kernel image is invalid") \
    X(cudaErrorFileNotFound, 301, CUDA_ERROR_FILE_NOT_FOUND, "file not found") \
    X(cudaErrorSharedObjectSymbolNotFound, 302, CUDA_ERROR_SHARED_OBJECT_SYMBOL_NOT_FOUND, "shared object symbol not found") \
    X(cudaErrorSharedObjectInitFailed, 303, CUDA_ERROR_SHARED_OBJECT_INIT_FAILED, "shared object initialization failed") \
    X(cudaErrorOperatingSystem, 304, CUDA_ERROR_OPERATING_SYSTEM, "OS call failed or operation not supported on this OS") \
    X(cudaErrorInvalidResourceHandle, 400, CUDA_ERROR_INVALID_HANDLE, "invalid resource handle") \
    X(cudaErrorIllegalState, 401, CUDA_ERROR_ILLEGAL_STATE, "the operation cannot be performed in the present state") \
    X(cudaErrorLossyQuery, 402, CUDA_ERROR_LOSSY_QUERY, "attempted introspection would be semantically lossy") \
    X(cudaErrorSymbolNotFound, 500, CUDA_ERROR_NOT_FOUND, "named symbol not found") \
    X(cudaErrorNotReady, 600, CUDA_ERROR_NOT_READY, "device not ready") \
    X(cudaErrorIllegalAddress, 700, CUDA_ERROR_ILLEGAL_ADDRESS, "an illegal memory access was encountered") \
    X(cudaErrorLaunchOutOfResources, 701, CUDA_ERROR_LAUNCH_OUT_OF_RESOURCES, "too many resources requested for launch") \
    X(cudaErrorLaunchTimeout, 702, CUDA_ERROR_LAUNCH_TIMEOUT, "the launch timed out and was terminated") \
    X(cudaErrorLaunchIncompatibleTexturing, 703, CUDA_ERROR_LAUNCH_INCOMPATIBLE_TEXTURING, "launch uses incompatible texturing mode") \
    X(cudaErrorPeerAccessAlreadyEnabled, 704, CUDA_ERROR_PEER_ACCESS_ALREADY_ENABLED, "peer access is already enabled") \
    X(cudaErrorPeerAccessNotEnabled, 705, CUDA_ERROR_PEER_ACCESS_NOT_ENABLED, "peer access has not been enabled") \
    X(cudaErrorSetOnActiveProcess, 708, CUDA_ERROR_PRIMARY_CONTEXT_ACTIVE, "cannot set while device is active in this process") \
    X(cudaErrorContextIsDestroyed, 709, CUDA_ERROR_CONTEXT_IS_DESTROYED, "context is destroyed") \
    X(cudaErrorAssert, 710, CUDA_ERROR_ASSERT, "device-side assert triggered") \
    X(cudaErrorTooManyPeers, 711, CUDA_ERROR_TOO_MANY_PEERS, "peer mapping resources exhausted") \
    X(cudaErrorHostMemoryAlreadyRegistered, 712, CUDA_ERROR_HOST_MEMORY_ALREADY_REGISTERED, "part or all of the requested memory range is already mapped") \
    X(cudaErrorHostMemoryNotRegistered, 713, CUDA_ERROR_HOST_MEMORY_NOT_REGISTERED, "pointer does not correspond to a registered memory region") \
    X(cudaErrorHardwareStackError, 714, CUDA_ERROR_HARDWARE_STACK_ERROR, "hardware stack error") \
    X(cudaErrorIllegalInstruction, 715, CUDA_ERROR_ILLEGAL_INSTRUCTION, "an illegal instruction was encountered") \
    X(cudaErrorMisalignedAddress, 716, CUDA_ERROR_MISALIGNED_ADDRESS, "misaligned address") \
    X(cudaErrorInvalidAddressSpace, 717, CUDA_ERROR_INVALID_ADDRESS_SPACE, "operation not supported on global/shared address space") \
    X(cudaErrorInvalidPc, 718, CUDA_ERROR_INVALID_PC, "invalid program counter") \
    X(cudaErrorLaunchFailure, 719, CUDA_ERROR_LAUNCH_FAILED, "unspecified launch failure") \
    X(cudaErrorCooperativeLaunchTooLarge, 720, CUDA_ERROR_COOPERATIVE_LAUNCH_TOO_LARGE, "too many blocks in cooperative launch") \
    X(cudaErrorTensorMemoryLeak, 721, CUDA_ERROR_TENSOR_MEMORY_LEAK, "tensor memory not completely freed") \
    X(cudaErrorNotPermitted, 800, CUDA_ERROR_NOT_PERMITTED, "operation not permitted") \
    X(cudaErrorNotSupported, 801, CUDA_ERROR_NOT_SUPPORTED, "operation not supported") \
    X(cudaErrorSystemNotReady, 802, CUDA_ERROR_SYSTEM_NOT_READY, "system not yet initialized") \
    X(cudaErrorSystemDriverMismatch, 803, CUDA_ERROR_SYSTEM_DRIVER_MISMATCH, "system has unsupported display driver / cuda driver combination") \
    X(cudaErrorCompatNotSupportedOnDevice, 804, CUDA_ERROR_COMPAT_NOT_SUPPORTED_ON_DEVICE, "forward compatibility was attempted on non supported HW") \
    X(cudaErrorMpsConnectionFailed, 805, CUDA_ERROR_MPS_CONNECTION_FAILED, "MPS client failed to connect to the MPS control daemon or the MPS server") \
    X(cudaErrorMpsRpcFailure, 806, CUDA_ERROR_MPS_RPC_FAILURE, "the remote procedural call between the MPS server and the MPS client failed") \
    X(cudaErrorMpsServerNotReady, 807, CUDA_ERROR_MPS_SERVER_NOT_READY, "MPS server is not ready to accept new MPS client requests") \
    X(cudaErrorMpsMaxClientsReached, 808, CUDA_ERROR_MPS_MAX_CLIENTS_REACHED, "the hardware resources required to create MPS client have been exhausted") \
    X(cudaErrorMpsMaxConnectionsReached, 809, CUDA_ERROR_MPS_MAX_CONNECTIONS_REACHED, "the hardware resources required to support device connections have been exhausted") \
    X(cudaErrorMpsClientTerminated, 810, CUDA_ERROR_MPS_CLIENT_TERMINATED, "the MPS client has been terminated by the server") \
    X(cudaErrorCdpNotSupported, 811, CUDA_ERROR_CDP_NOT_SUPPORTED, "is using CUDA Dynamic Parallelism, but the current configuration, like MPS, does not support it") \
    X(cudaErrorCdpVersionMismatch, 812, CUDA_ERROR_CDP_VERSION_MISMATCH, "unsupported interaction between different versions of CUDA Dynamic Parallelism") \
    X(cudaErrorStreamCaptureUnsupported, 900, CUDA_ERROR_STREAM_CAPTURE_UNSUPPORTED, "operation not permitted when stream is capturing") \
    X(cudaErrorStreamCaptureInvalidated, 901, CUDA_ERROR_STREAM_CAPTURE_INVALIDATED, "operation failed due to a previous error during capture") \
    X(cudaErrorStreamCaptureMerge, 902, CUDA_ERROR_STREAM_CAPTURE_MERGE, "operation would result in a merge of separate capture sequences") \
    X(cudaErrorStreamCaptureUnmatched, 903, CUDA_ERROR_STREAM_CAPTURE_UNMATCHED, "capture was not ended in the same stream as it began") \
    X(cudaErrorStreamCaptureUnjoined, 904, CUDA_ERROR_STREAM_CAPTURE_UNJOINED, "capturing stream has unjoined work") \
    X(cudaErrorStreamCaptureIsolation, 905, CUDA_ERROR_STREAM_CAPTURE_ISOLATION, "dependency created on uncaptured work in another stream") \
    X(cudaErrorStreamCaptureImplicit, 906, CUDA_ERROR_STREAM_CAPTURE_IMPLICIT, "operation would make the legacy stream depend on a capturing blocking stream") \
    X(cudaErrorCapturedEvent, 907, CUDA_ERROR_CAPTURED_EVENT, "operation not permitted on an event last recorded in a capturing stream") \
    X(cudaErrorStreamCaptureWrongThread, 908, CUDA_ERROR_STREAM_CAPTURE_WRONG_THREAD, "attempt to terminate a thread-local capture sequence from another thread") \
    X(cudaErrorTimeout, 909, CUDA_ERROR_TIMEOUT, "wait operation timed out") \
    X(cudaErrorGraphExecUpdateFailure, 910, CUDA_ERROR_GRAPH_EXEC_UPDATE_FAILURE, "the graph update was not performed because it included changes which violated constraints specific to instantiated graph update") \
    X(cudaErrorExternalDevice, 911, CUDA_ERROR_EXTERNAL_DEVICE, "an async error has occured in external entity outside of CUDA") \
    X(cudaErrorInvalidClusterSize, 912, CUDA_ERROR_INVALID_CLUSTER_SIZE, "a kernel launch error has occurred due to cluster misconfiguration") \
    X(cudaErrorFunctionNotLoaded, 913, CUDA_ERROR_FUNCTION_NOT_LOADED, "the function handle is not loaded when calling an API that requires a loaded function") \
    X(cudaErrorInvalidResourceType, 914, CUDA_ERROR_INVALID_RESOURCE_TYPE, "one or more resources passed in are not valid resource types for the operation") \
    X(cudaErrorInvalidResourceConfiguration, 915, CUDA_ERROR_INVALID_RESOURCE_CONFIGURATION, "one or more resources are insufficient or non-applicable for the operation") \
    X(cudaErrorUnknown, 999, CUDA_ERROR_UNKNOWN, "unknown error") \
    X(cudaErrorApiFailureBase, 10000, RT_NO_CU, "api failure base")
