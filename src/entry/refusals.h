/*
 * src/entry/refusals.h: why an exported function is refused, one row per reason: the driver code
 * it returns (the runtime returns the cudaError_t of the same meaning) and what the reason says
 * after the function's name. The entry-point lists (driver_api.h, runtime_api.h) name a row's
 * id for each refused function; docs/coverage.md counts them. No include guard: an X-macro list.
 *
 * CUDA_ERROR_NOT_SUPPORTED is what NVIDIA's driver returns where a feature is absent from the
 * device or the platform (cuda.h: "the attempted operation is not supported on the current
 * system or device").
 */
REFUSAL(TEXREF, CUDA_ERROR_NOT_SUPPORTED, "texture and surface references (CUtexref, CUsurfref, .texref/.surfref in PTX) are the API CUDA 12 removed from the toolkit; the software device has texture and surface objects (cuTexObjectCreate, cuSurfObjectCreate): docs/images.md")
REFUSAL(SPARSE, CUDA_ERROR_NOT_SUPPORTED, "sparse and deferred-mapping arrays are not implemented on the software device: its arrays always have their own memory (docs/images.md)")
REFUSAL(TENSOR_MAPS, CUDA_ERROR_NOT_SUPPORTED, "tensor maps (the Hopper bulk tensor copy) are not implemented on the software device")
REFUSAL(OPENGL, CUDA_ERROR_NOT_SUPPORTED, "OpenGL interop needs an OpenGL context on the CUDA device, which the software device has not; share memory with Vulkan or Direct3D through external memory")
REFUSAL(EGL, CUDA_ERROR_NOT_SUPPORTED, "EGL interop (EGLImage, EGLStream, EGLSync) is not available on the software device; share memory with Vulkan through external memory")
REFUSAL(VDPAU, CUDA_ERROR_NOT_SUPPORTED, "VDPAU interop is not available on the software device")
REFUSAL(GRAPHICS, CUDA_ERROR_NOT_SUPPORTED, "no graphics resource can be registered (OpenGL, EGL and VDPAU interop are not available on the software device), so there is none to map or unregister")
REFUSAL(MULTICAST, CUDA_ERROR_NOT_SUPPORTED, "multicast objects need NVLink switches; the software device is a single device")
REFUSAL(GREEN_CONTEXTS, CUDA_ERROR_NOT_SUPPORTED, "green contexts (partitions of the device's multiprocessors) are not implemented on the software device")
REFUSAL(CHECKPOINT, CUDA_ERROR_NOT_SUPPORTED, "process checkpointing (cuda-checkpoint) is not implemented on the software device")
REFUSAL(COREDUMP, CUDA_ERROR_NOT_SUPPORTED, "GPU core dumps are not implemented on the software device")
REFUSAL(NVSCI, CUDA_ERROR_NOT_SUPPORTED, "NvSciSync and NvSciBuf are not available on the software device")
REFUSAL(DECOMPRESSION, CUDA_ERROR_NOT_SUPPORTED, "the hardware decompression engine is not available on the software device")
REFUSAL(NOTIFICATIONS, CUDA_ERROR_NOT_SUPPORTED, "asynchronous device notifications (video memory budget changes) are not available on the software device")
REFUSAL(DEBUGGER, CUDA_ERROR_NOT_SUPPORTED, "the CUDA debugger's interface does not attach to the software device")
REFUSAL(V1_32BIT, CUDA_ERROR_NOT_SUPPORTED, "this is the CUDA 3.1 form with 32-bit device pointers and sizes, which the software device's 64-bit addresses cannot fit; programs built with CUDA 3.2 or later call the _v2 form")
REFUSAL(STREAM_MEMOP_V1, CUDA_ERROR_NOT_SUPPORTED, "the form of stream memory operations before CUDA 11.7 needs CU_DEVICE_ATTRIBUTE_CAN_USE_STREAM_MEM_OPS_V1, which is 0, as on the H100: call the _v2 form, which cuda.h names by default")
REFUSAL(PROFILER_CONFIG, CUDA_ERROR_NOT_SUPPORTED, "the command-line profiler it configured is gone (deprecated), and no profiler attaches to the software device; cuProfilerStart and cuProfilerStop work")
REFUSAL(MANAGED_VARIABLES, CUDA_ERROR_NOT_SUPPORTED, "__managed__ variables of a library are not told apart from its other globals yet; cuLibraryGetGlobal finds them")
REFUSAL(UNIFIED_FUNCTIONS, CUDA_ERROR_NOT_SUPPORTED, "unified functions (one address for host and device code) are not implemented on the software device")
REFUSAL(RDC_REGISTRATION, CUDA_ERROR_NOT_SUPPORTED, "this part of nvcc's registration ABI serves relocatable device code and unified functions, which extmem's runtime does not support yet")
REFUSAL(UNDOCUMENTED, CUDA_ERROR_NOT_SUPPORTED, "an undocumented entry point of NVIDIA's driver, declared in no header")
REFUSAL(NOT_YET, CUDA_ERROR_NOT_SUPPORTED, "not implemented yet on the software device")
