"""A Python client of the driver API through ctypes, as Python bindings load it: by name
(libcuda.so.1), and through NUMBA_CUDA_DRIVER as numba does. It checks that both name the same
library, extmem's, and prints the device's name. Exit status 0 when every check passes."""
import ctypes
import os
import sys


def loaded_paths(name):
    """The files named `name` this process has mapped, from /proc/self/maps."""
    paths = set()
    with open("/proc/self/maps") as maps:
        for line in maps:
            fields = line.split()
            if len(fields) >= 6 and os.path.basename(fields[5]) == name:
                paths.add(fields[5])
    return paths


cuda = ctypes.CDLL("libcuda.so.1")
device = ctypes.c_int(-1)
name = ctypes.create_string_buffer(128)
for call, args in (("cuInit", (0,)), ("cuDeviceGet", (ctypes.byref(device), 0)),
                   ("cuDeviceGetName", (name, len(name), 0))):
    r = getattr(cuda, call)(*args)
    if r != 0:
        sys.exit(f"ctypes_client: {call} failed: CUresult {r}")
print(f"ctypes: device 0: {name.value.decode()}")

numba_driver = os.environ.get("NUMBA_CUDA_DRIVER")
if not numba_driver:
    sys.exit("ctypes_client: NUMBA_CUDA_DRIVER is not set")
loaded = loaded_paths("libcuda.so.1")
if len(loaded) != 1:
    sys.exit(f"ctypes_client: libcuda.so.1 mapped from {sorted(loaded)}, expected one file")
path = loaded.pop()
if not os.path.samefile(path, numba_driver):
    sys.exit(f"ctypes_client: NUMBA_CUDA_DRIVER={numba_driver} but libcuda.so.1 came from {path}")
print(f"ctypes: libcuda.so.1 from {path}, the library NUMBA_CUDA_DRIVER names")
