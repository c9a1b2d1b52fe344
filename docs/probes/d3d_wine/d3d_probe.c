/* d3d_probe.c - which DXGI / Direct3D 11 / Direct3D 12 facilities work (here: under wine 8).
 *
 * Build (mingw-w64, see run.sh):
 *   x86_64-w64-mingw32-gcc-posix -std=c11 -O1 -Wall -idirafter /usr/include -o d3d_probe.exe d3d_probe.c -lole32
 *   (-idirafter /usr/include: only for <vulkan/vulkan_core.h> from libvulkan-dev; mingw's own headers win)
 * Run:   wine d3d_probe.exe [env|dxgi|d3d11|d3d12|vulkan|interop|all|guardtest]
 *
 * Every DLL is loaded with LoadLibrary and every entry point looked up with GetProcAddress, so a
 * missing DLL or export is reported rather than stopping the loader.  Every COM call goes through
 * a vtable check (object, vtable and slot non-NULL).  Each question runs under a guard: an access
 * violation (or other fault) raised in PE code is caught by a vectored exception handler, which
 * redirects the thread to a trampoline that __builtin_longjmp()s back to the guard, and the line is
 * printed as CRASH.  One line per question:  "[section] question: hr=0x... (NAME) details".
 */
#define COBJMACROS
#define CINTERFACE
#define WIN32_LEAN_AND_MEAN
#include <initguid.h>
#include <windows.h>
#include <winternl.h>
#include <dxgi1_6.h>
#include <d3d11_1.h>
#include <d3d12.h>
#define VK_NO_PROTOTYPES
#include <vulkan/vulkan_core.h>   /* from libvulkan-dev, found through -idirafter /usr/include */
#include <stdio.h>
#include <stdint.h>
#include <string.h>
#include <stdarg.h>

/* ------------------------------------------------------------------------------------------ */
/* ID3D12Device3 is not in mingw-w64 10's d3d12.h: extend the ID3D12Device1 vtable by hand.     */
DEFINE_GUID(IID_ID3D12Device2_, 0x30baa41e, 0xb15b, 0x475c, 0xa0, 0xbb, 0x1a, 0xf5, 0xc5, 0xb6, 0x43, 0x28);
DEFINE_GUID(IID_ID3D12Device3_, 0x81dadc15, 0x2bad, 0x4392, 0x93, 0xc5, 0x10, 0x13, 0x45, 0xc4, 0xaa, 0x98);
typedef struct Dev3Vtbl {
    ID3D12Device1Vtbl base;
    void *CreatePipelineState;                                           /* ID3D12Device2 */
    HRESULT (STDMETHODCALLTYPE *OpenExistingHeapFromAddress)(void *This, const void *address, REFIID riid, void **heap);
    HRESULT (STDMETHODCALLTYPE *OpenExistingHeapFromFileMapping)(void *This, HANDLE mapping, REFIID riid, void **heap);
    void *EnqueueMakeResident;
} Dev3Vtbl;
typedef struct Dev3 { const Dev3Vtbl *lpVtbl; } Dev3;
_Static_assert(sizeof(ID3D12Device1Vtbl) == 47 * sizeof(void *), "ID3D12Device1 vtable: 3 IUnknown + 4 ID3D12Object + 37 ID3D12Device + 3 ID3D12Device1");

/* ------------------------------------------------------------------------------------------ */
static void out(const char *sec, const char *fmt, ...)
{
    va_list ap;
    printf("[%s] ", sec);
    va_start(ap, fmt);
    vprintf(fmt, ap);
    va_end(ap);
    printf("\n");
    fflush(stdout);
}

static const char *hrname(HRESULT hr)
{
    switch ((uint32_t)hr) {
    case 0x00000000: return "S_OK";
    case 0x00000001: return "S_FALSE";
    case 0x80004001: return "E_NOTIMPL";
    case 0x80004002: return "E_NOINTERFACE";
    case 0x80004003: return "E_POINTER";
    case 0x80004005: return "E_FAIL";
    case 0x8007000E: return "E_OUTOFMEMORY";
    case 0x80070057: return "E_INVALIDARG";
    case 0x80070006: return "E_HANDLE (HRESULT_FROM_WIN32(ERROR_INVALID_HANDLE))";
    case 0x80070005: return "E_ACCESSDENIED";
    case 0x887A0001: return "DXGI_ERROR_INVALID_CALL";
    case 0x887A0002: return "DXGI_ERROR_NOT_FOUND";
    case 0x887A0004: return "DXGI_ERROR_UNSUPPORTED";
    case 0x887A0005: return "DXGI_ERROR_DEVICE_REMOVED";
    case 0x887A0022: return "DXGI_ERROR_NOT_CURRENTLY_AVAILABLE";
    case 0x887A0023: return "DXGI_ERROR_SDK_COMPONENT_MISSING (or ALREADY_EXISTS)";
    case 0x887A0026: return "DXGI_ERROR_ACCESS_LOST";
    case 0x887A002B: return "DXGI_ERROR_NAME_ALREADY_EXISTS";
    case 0x887A0036: return "DXGI_ERROR_ALREADY_EXISTS";
    case 0x887C0001: return "D3D11_ERROR_TOO_MANY_UNIQUE_STATE_OBJECTS";
    case 0x887C0002: return "D3D11_ERROR_FILE_NOT_FOUND";
    case 0x887E0001: return "D3D12_ERROR_ADAPTER_NOT_FOUND";
    case 0x887E0002: return "D3D12_ERROR_DRIVER_VERSION_MISMATCH";
    default: return "?";
    }
}
#define HR(hr) (unsigned)(hr), hrname(hr)

static void w2u(const WCHAR *w, char *buf, int n)
{
    if (!w) { snprintf(buf, n, "(null)"); return; }
    if (!WideCharToMultiByte(CP_UTF8, 0, w, -1, buf, n, NULL, NULL)) snprintf(buf, n, "(?)");
}

/* ---------------------------------- crash guard ------------------------------------------ */
static void *g_jb[5];
static volatile LONG g_guard_active;
static volatile DWORD g_exc_code;
static volatile void *g_exc_addr;

static void guard_trampoline(void) { __builtin_longjmp(g_jb, 1); }

static LONG CALLBACK veh(EXCEPTION_POINTERS *ep)
{
    DWORD c = ep->ExceptionRecord->ExceptionCode;
    if (!g_guard_active) return EXCEPTION_CONTINUE_SEARCH;
    if (c != EXCEPTION_ACCESS_VIOLATION && c != EXCEPTION_ILLEGAL_INSTRUCTION &&
        c != EXCEPTION_INT_DIVIDE_BY_ZERO && c != EXCEPTION_PRIV_INSTRUCTION &&
        c != EXCEPTION_STACK_OVERFLOW && c != EXCEPTION_IN_PAGE_ERROR && c != 0xC0000409)
        return EXCEPTION_CONTINUE_SEARCH;
    g_guard_active = 0;
    g_exc_code = c;
    g_exc_addr = ep->ExceptionRecord->ExceptionAddress;
    ep->ContextRecord->Rsp = ((ep->ContextRecord->Rsp - 4096) & ~(DWORD64)15) - 8;
    ep->ContextRecord->Rip = (DWORD64)(uintptr_t)guard_trampoline;
    return EXCEPTION_CONTINUE_EXECUTION;
}

static void guarded(const char *sec, const char *name, void (*fn)(void))
{
    if (__builtin_setjmp(g_jb) == 0) {
        g_guard_active = 1;
        fn();
        g_guard_active = 0;
    } else {
        char mod[MAX_PATH] = "?";
        HMODULE hm = NULL;
        if (GetModuleHandleExA(GET_MODULE_HANDLE_EX_FLAG_FROM_ADDRESS | GET_MODULE_HANDLE_EX_FLAG_UNCHANGED_REFCOUNT,
                               (LPCSTR)g_exc_addr, &hm))
            GetModuleFileNameA(hm, mod, sizeof mod);
        out(sec, "%s: CRASH exception 0x%08lx at %p (%s); section abandoned", name,
            (unsigned long)g_exc_code, (void *)g_exc_addr, mod);
    }
}

/* vtable guard: object, vtable and method slot all non-NULL */
#define VT_OK(obj, m) ((obj) && (obj)->lpVtbl && (obj)->lpVtbl->m)
#define CHECK_VT(sec, obj, m) \
    (VT_OK(obj, m) ? 1 : (out(sec, "%s: not reached (NULL object/vtable/slot " #m ")", #obj "->" #m), 0))
#define RELEASE(o) do { if (VT_OK(o, Release)) (o)->lpVtbl->Release(o); (o) = NULL; } while (0)

/* ------------------------------ DLLs and entry points ------------------------------------ */
typedef HRESULT (WINAPI *PFN_CreateDXGIFactory1)(REFIID, void **);
typedef HRESULT (WINAPI *PFN_CreateDXGIFactory2)(UINT, REFIID, void **);
typedef HRESULT (WINAPI *PFN_D3D12CreateDevice_)(IUnknown *, D3D_FEATURE_LEVEL, REFIID, void **);
typedef NTSTATUS (NTAPI *PFN_NtQueryObject)(HANDLE, ULONG, PVOID, ULONG, PULONG);
typedef NTSTATUS (NTAPI *PFN_NtQuerySection)(HANDLE, ULONG, PVOID, ULONG, PULONG);

static HMODULE h_dxgi, h_d3d11, h_d3d12;
static PFN_CreateDXGIFactory1 pCreateDXGIFactory1;
static PFN_CreateDXGIFactory2 pCreateDXGIFactory2;
static PFN_D3D11_CREATE_DEVICE pD3D11CreateDevice;
static PFN_D3D12CreateDevice_ pD3D12CreateDevice;
static PFN_NtQueryObject pNtQueryObject;
static PFN_NtQuerySection pNtQuerySection;

static void load_dlls(const char *sec)
{
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    pNtQueryObject = (PFN_NtQueryObject)(void *)GetProcAddress(ntdll, "NtQueryObject");
    pNtQuerySection = (PFN_NtQuerySection)(void *)GetProcAddress(ntdll, "NtQuerySection");
    h_dxgi = LoadLibraryA("dxgi.dll");
    if (!h_dxgi) out(sec, "LoadLibrary(dxgi.dll): FAILED error %lu", GetLastError());
    h_d3d11 = LoadLibraryA("d3d11.dll");
    if (!h_d3d11) out(sec, "LoadLibrary(d3d11.dll): FAILED error %lu", GetLastError());
    h_d3d12 = LoadLibraryA("d3d12.dll");
    if (!h_d3d12) out(sec, "LoadLibrary(d3d12.dll): FAILED error %lu", GetLastError());
    if (h_dxgi) {
        pCreateDXGIFactory1 = (PFN_CreateDXGIFactory1)(void *)GetProcAddress(h_dxgi, "CreateDXGIFactory1");
        pCreateDXGIFactory2 = (PFN_CreateDXGIFactory2)(void *)GetProcAddress(h_dxgi, "CreateDXGIFactory2");
    }
    if (h_d3d11) pD3D11CreateDevice = (PFN_D3D11_CREATE_DEVICE)(void *)GetProcAddress(h_d3d11, "D3D11CreateDevice");
    if (h_d3d12) pD3D12CreateDevice = (PFN_D3D12CreateDevice_)(void *)GetProcAddress(h_d3d12, "D3D12CreateDevice");
}

/* Wine's builtin PE DLLs carry "Wine builtin DLL" in the DOS stub at offset 0x40. */
static const char *builtin_tag(HMODULE m)
{
    const char *p = (const char *)m + 0x40;
    return memcmp(p, "Wine builtin DLL", 16) == 0 ? "wine builtin" : "native/other";
}

static void report_modules(const char *sec)
{
    static const char *names[] = {"dxgi.dll", "d3d11.dll", "d3d12.dll", "d3d12core.dll", "d3d10core.dll",
                                  "wined3d.dll", "vulkan-1.dll", "winevulkan.dll", "opengl32.dll",
                                  "libvkd3d-1.dll", "d3d11on12.dll", "dxcore.dll", "winex11.drv", NULL};
    for (int i = 0; names[i]; i++) {
        HMODULE m = GetModuleHandleA(names[i]);
        char path[MAX_PATH] = "";
        if (m) {
            GetModuleFileNameA(m, path, sizeof path);
            out(sec, "module %-15s loaded  %s (%s)", names[i], path, builtin_tag(m));
        } else {
            out(sec, "module %-15s not loaded", names[i]);
        }
    }
}

/* ------------------------------- handle inspection --------------------------------------- */
typedef struct { UNICODE_STRING TypeName; ULONG Reserved[32]; } TYPEINFO;
typedef struct { PVOID BaseAddress; ULONG Attributes; LARGE_INTEGER Size; } SECTION_BASIC_INFO;

static void describe_handle(const char *sec, const char *what, HANDLE h)
{
    DWORD flags = 0;
    char type[128] = "?";
    if (GetHandleInformation(h, &flags))
        out(sec, "%s: handle %p GetHandleInformation OK flags=0x%lx", what, h, (unsigned long)flags);
    else
        out(sec, "%s: handle %p GetHandleInformation FAILED error %lu (not a kernel handle)", what, h,
            GetLastError());
    if (pNtQueryObject) {
        union { TYPEINFO ti; char raw[1024]; } u;
        ULONG len = 0;
        memset(&u, 0, sizeof u);
        NTSTATUS st = pNtQueryObject(h, 2 /* ObjectTypeInformation */, &u, sizeof u, &len);
        if (st == 0 && u.ti.TypeName.Buffer) {
            WCHAR tmp[64] = {0};
            int n = u.ti.TypeName.Length / 2;
            if (n > 63) n = 63;
            memcpy(tmp, u.ti.TypeName.Buffer, n * 2);
            w2u(tmp, type, sizeof type);
        }
        out(sec, "%s: NtQueryObject(ObjectTypeInformation) status=0x%08lx type=\"%s\"", what, (unsigned long)st,
            st == 0 ? type : "-");
    }
    if (pNtQuerySection) {
        SECTION_BASIC_INFO sbi;
        memset(&sbi, 0, sizeof sbi);
        NTSTATUS st = pNtQuerySection(h, 0 /* SectionBasicInformation */, &sbi, sizeof sbi, NULL);
        if (st == 0)
            out(sec, "%s: NtQuerySection OK size=%lld attributes=0x%lx", what, (long long)sbi.Size.QuadPart,
                (unsigned long)sbi.Attributes);
        else
            out(sec, "%s: NtQuerySection status=0x%08lx", what, (unsigned long)st);
    }
    SetLastError(0);
    void *v = MapViewOfFile(h, FILE_MAP_READ | FILE_MAP_WRITE, 0, 0, 0);
    if (v) {
        MEMORY_BASIC_INFORMATION mbi;
        SIZE_T sz = VirtualQuery(v, &mbi, sizeof mbi) ? mbi.RegionSize : 0;
        out(sec, "%s: MapViewOfFile OK at %p region=%zu bytes", what, v, (size_t)sz);
        UnmapViewOfFile(v);
    } else {
        out(sec, "%s: MapViewOfFile FAILED error %lu", what, GetLastError());
    }
}

/* ------------------------------------- DXGI ---------------------------------------------- */
static const char *S;   /* current section name */

static void print_desc1(const char *sec, const char *what, IDXGIAdapter1 *a)
{
    DXGI_ADAPTER_DESC1 d;
    char name[256];
    if (!CHECK_VT(sec, a, GetDesc1)) return;
    memset(&d, 0, sizeof d);
    HRESULT hr = a->lpVtbl->GetDesc1(a, &d);
    w2u(d.Description, name, sizeof name);
    out(sec, "%s GetDesc1: hr=0x%08x (%s) \"%s\" VendorId=0x%04x DeviceId=0x%04x SubSysId=0x%08x Rev=%u "
        "DedicatedVideo=%zuMiB SharedSystem=%zuMiB LUID=%08lx:%08lx Flags=0x%x%s",
        what, HR(hr), name, d.VendorId, d.DeviceId, d.SubSysId, d.Revision,
        (size_t)(d.DedicatedVideoMemory >> 20), (size_t)(d.SharedSystemMemory >> 20),
        (unsigned long)d.AdapterLuid.HighPart, (unsigned long)d.AdapterLuid.LowPart, d.Flags,
        (d.Flags & DXGI_ADAPTER_FLAG_SOFTWARE) ? " (DXGI_ADAPTER_FLAG_SOFTWARE)" : "");
}

static IDXGIFactory1 *g_fac1;
static IDXGIFactory4 *g_fac4;
static IDXGIAdapter1 *g_warp;     /* from EnumWarpAdapter */
static IDXGIAdapter1 *g_adapter0; /* EnumAdapters1(0) */

static void dxgi_factories(void)
{
    HRESULT hr;
    if (!pCreateDXGIFactory1) out(S, "CreateDXGIFactory1: not reached (export missing)");
    else {
        hr = pCreateDXGIFactory1(&IID_IDXGIFactory1, (void **)&g_fac1);
        out(S, "CreateDXGIFactory1(IDXGIFactory1): hr=0x%08x (%s)", HR(hr));
    }
    if (!pCreateDXGIFactory2) out(S, "CreateDXGIFactory2: not reached (export missing)");
    else {
        hr = pCreateDXGIFactory2(0, &IID_IDXGIFactory4, (void **)&g_fac4);
        out(S, "CreateDXGIFactory2(0, IDXGIFactory4): hr=0x%08x (%s)", HR(hr));
        IDXGIFactory6 *f6 = NULL;
        hr = pCreateDXGIFactory2(0, &IID_IDXGIFactory6, (void **)&f6);
        out(S, "CreateDXGIFactory2(0, IDXGIFactory6): hr=0x%08x (%s)", HR(hr));
        if (SUCCEEDED(hr) && CHECK_VT(S, f6, EnumAdapterByGpuPreference)) {
            IDXGIAdapter1 *a = NULL;
            hr = f6->lpVtbl->EnumAdapterByGpuPreference(f6, 0, DXGI_GPU_PREFERENCE_HIGH_PERFORMANCE,
                                                       &IID_IDXGIAdapter1, (void **)&a);
            out(S, "IDXGIFactory6::EnumAdapterByGpuPreference(0, HIGH_PERFORMANCE): hr=0x%08x (%s)", HR(hr));
            if (SUCCEEDED(hr)) print_desc1(S, "  by-preference adapter 0", a);
            RELEASE(a);
        }
        RELEASE(f6);
    }
    if (!g_fac1 && g_fac4 && VT_OK(g_fac4, QueryInterface))
        g_fac4->lpVtbl->QueryInterface(g_fac4, &IID_IDXGIFactory1, (void **)&g_fac1);
}

static void dxgi_enum(void)
{
    HRESULT hr;
    if (!CHECK_VT(S, g_fac1, EnumAdapters1)) return;
    for (UINT i = 0; i < 16; i++) {
        IDXGIAdapter1 *a = NULL;
        char what[64];
        hr = g_fac1->lpVtbl->EnumAdapters1(g_fac1, i, &a);
        if (hr == DXGI_ERROR_NOT_FOUND) { out(S, "EnumAdapters1(%u): hr=0x%08x (%s) -> %u adapter(s)", i, HR(hr), i); break; }
        out(S, "EnumAdapters1(%u): hr=0x%08x (%s)", i, HR(hr));
        if (FAILED(hr)) break;
        snprintf(what, sizeof what, "  adapter %u", i);
        print_desc1(S, what, a);
        if (i == 0) g_adapter0 = a; else RELEASE(a);
    }
    if (!g_fac4 && VT_OK(g_fac1, QueryInterface)) {
        hr = g_fac1->lpVtbl->QueryInterface(g_fac1, &IID_IDXGIFactory4, (void **)&g_fac4);
        out(S, "IDXGIFactory1 -> QueryInterface(IDXGIFactory4): hr=0x%08x (%s)", HR(hr));
    }
    if (!CHECK_VT(S, g_fac4, EnumWarpAdapter)) return;
    hr = g_fac4->lpVtbl->EnumWarpAdapter(g_fac4, &IID_IDXGIAdapter1, (void **)&g_warp);
    out(S, "IDXGIFactory4::EnumWarpAdapter: hr=0x%08x (%s)", HR(hr));
    if (SUCCEEDED(hr)) {
        print_desc1(S, "  WARP adapter", g_warp);
        DXGI_ADAPTER_DESC1 d;
        memset(&d, 0, sizeof d);
        if (VT_OK(g_warp, GetDesc1) && SUCCEEDED(g_warp->lpVtbl->GetDesc1(g_warp, &d)) &&
            CHECK_VT(S, g_fac4, EnumAdapterByLuid)) {
            IDXGIAdapter1 *b = NULL;
            hr = g_fac4->lpVtbl->EnumAdapterByLuid(g_fac4, d.AdapterLuid, &IID_IDXGIAdapter1, (void **)&b);
            out(S, "IDXGIFactory4::EnumAdapterByLuid(WARP LUID): hr=0x%08x (%s)", HR(hr));
            RELEASE(b);
        }
    }
}

static void dxgi_setup(const char *sec)
{
    S = sec;
    guarded(sec, "factories", dxgi_factories);
    guarded(sec, "enumerate", dxgi_enum);
}

/* ------------------------------------- D3D11 --------------------------------------------- */
static ID3D11Device *g_d11;
static ID3D11DeviceContext *g_ctx11;

static ID3D11Device *make_d3d11(const char *what, IDXGIAdapter *ad, D3D_DRIVER_TYPE dt, ID3D11DeviceContext **pctx)
{
    static const D3D_FEATURE_LEVEL fl[] = {D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_11_0};
    ID3D11Device *dev = NULL;
    ID3D11DeviceContext *ctx = NULL;
    D3D_FEATURE_LEVEL got = 0;
    if (!pD3D11CreateDevice) { out(S, "D3D11CreateDevice(%s): not reached (export missing)", what); return NULL; }
    HRESULT hr = pD3D11CreateDevice(ad, dt, NULL, 0, fl, 2, D3D11_SDK_VERSION, &dev, &got, &ctx);
    if (hr == E_INVALIDARG)
        hr = pD3D11CreateDevice(ad, dt, NULL, 0, fl + 1, 1, D3D11_SDK_VERSION, &dev, &got, &ctx);
    out(S, "D3D11CreateDevice(%s): hr=0x%08x (%s) featurelevel=0x%x", what, HR(hr), (unsigned)got);
    if (FAILED(hr)) return NULL;
    IDXGIDevice *dd = NULL;
    if (VT_OK(dev, QueryInterface) &&
        SUCCEEDED(dev->lpVtbl->QueryInterface(dev, &IID_IDXGIDevice, (void **)&dd)) && VT_OK(dd, GetAdapter)) {
        IDXGIAdapter *a = NULL;
        if (SUCCEEDED(dd->lpVtbl->GetAdapter(dd, &a)) && a) {
            IDXGIAdapter1 *a1 = NULL;
            if (VT_OK(a, QueryInterface) &&
                SUCCEEDED(a->lpVtbl->QueryInterface(a, &IID_IDXGIAdapter1, (void **)&a1)))
                print_desc1(S, "  its adapter", a1);
            RELEASE(a1);
        }
        RELEASE(a);
    }
    RELEASE(dd);
    if (pctx) *pctx = ctx; else RELEASE(ctx);
    return dev;
}

static void d3d11_devices(void)
{
    ID3D11Device *d;
    ID3D11DeviceContext *c = NULL;
    g_d11 = make_d3d11("NULL adapter, HARDWARE", NULL, D3D_DRIVER_TYPE_HARDWARE, &g_ctx11);
    d = make_d3d11("NULL adapter, WARP", NULL, D3D_DRIVER_TYPE_WARP, &c);
    if (!g_d11) { g_d11 = d; g_ctx11 = c; d = NULL; c = NULL; }
    RELEASE(c); RELEASE(d);
    d = make_d3d11("NULL adapter, REFERENCE", NULL, D3D_DRIVER_TYPE_REFERENCE, NULL);
    RELEASE(d);
    if (g_warp) {
        d = make_d3d11("EnumWarpAdapter adapter, UNKNOWN", (IDXGIAdapter *)g_warp, D3D_DRIVER_TYPE_UNKNOWN, NULL);
        RELEASE(d);
    } else out(S, "D3D11CreateDevice(WARP adapter): not reached (no WARP adapter)");
    if (g_adapter0) {
        d = make_d3d11("EnumAdapters1(0) adapter, UNKNOWN", (IDXGIAdapter *)g_adapter0, D3D_DRIVER_TYPE_UNKNOWN, NULL);
        RELEASE(d);
    }
    if (g_d11 && CHECK_VT(S, g_d11, CheckFeatureSupport)) {
        D3D11_FEATURE_DATA_D3D11_OPTIONS o;
        memset(&o, 0, sizeof o);
        HRESULT hr = g_d11->lpVtbl->CheckFeatureSupport(g_d11, D3D11_FEATURE_D3D11_OPTIONS, &o, sizeof o);
        out(S, "CheckFeatureSupport(D3D11_OPTIONS): hr=0x%08x (%s) ExtendedResourceSharing=%d MapNoOverwriteOnDynamicBufferSRV=%d",
            HR(hr), (int)o.ExtendedResourceSharing, (int)o.MapNoOverwriteOnDynamicBufferSRV);
    }
}

/* handles produced by D3D11, for the interop section */
static HANDLE g_d11_nt_handle;     /* IDXGIResource1::CreateSharedHandle (texture), unnamed */
static HANDLE g_d11_kmt_handle;    /* IDXGIResource::GetSharedHandle */

static void d3d11_share_one(const char *what, ID3D11Resource *res, int try_nt)
{
    HRESULT hr;
    IDXGIResource *r = NULL;
    IDXGIResource1 *r1 = NULL;
    HANDLE kmt = NULL, nt = NULL, ntn = NULL;
    char w[160];

    hr = res->lpVtbl->QueryInterface(res, &IID_IDXGIResource, (void **)&r);
    out(S, "%s QI(IDXGIResource): hr=0x%08x (%s)", what, HR(hr));
    if (SUCCEEDED(hr) && CHECK_VT(S, r, GetSharedHandle)) {
        hr = r->lpVtbl->GetSharedHandle(r, &kmt);
        out(S, "%s IDXGIResource::GetSharedHandle (KMT): hr=0x%08x (%s) handle=%p", what, HR(hr), kmt);
        if (SUCCEEDED(hr) && kmt) {
            snprintf(w, sizeof w, "%s KMT handle", what);
            describe_handle(S, w, kmt);
            if (!g_d11_kmt_handle) g_d11_kmt_handle = kmt;
        }
    }
    RELEASE(r);
    if (!try_nt) return;
    hr = res->lpVtbl->QueryInterface(res, &IID_IDXGIResource1, (void **)&r1);
    out(S, "%s QI(IDXGIResource1): hr=0x%08x (%s)", what, HR(hr));
    if (SUCCEEDED(hr) && CHECK_VT(S, r1, CreateSharedHandle)) {
        hr = r1->lpVtbl->CreateSharedHandle(r1, NULL, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE, NULL, &nt);
        out(S, "%s IDXGIResource1::CreateSharedHandle (NT, unnamed): hr=0x%08x (%s) handle=%p", what, HR(hr), nt);
        if (SUCCEEDED(hr) && nt) {
            snprintf(w, sizeof w, "%s NT handle", what);
            describe_handle(S, w, nt);
            if (!g_d11_nt_handle) g_d11_nt_handle = nt; else CloseHandle(nt);
        }
        hr = r1->lpVtbl->CreateSharedHandle(r1, NULL, DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                           L"extmem_probe_d3d11", &ntn);
        out(S, "%s IDXGIResource1::CreateSharedHandle (NT, name \"extmem_probe_d3d11\"): hr=0x%08x (%s) handle=%p",
            what, HR(hr), ntn);
        if (SUCCEEDED(hr) && ntn) {
            ID3D11Device1 *d1 = NULL;
            if (SUCCEEDED(g_d11->lpVtbl->QueryInterface(g_d11, &IID_ID3D11Device1, (void **)&d1)) &&
                CHECK_VT(S, d1, OpenSharedResourceByName)) {
                ID3D11Resource *o = NULL;
                hr = d1->lpVtbl->OpenSharedResourceByName(d1, L"extmem_probe_d3d11",
                                                          DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                                          &IID_ID3D11Resource, (void **)&o);
                out(S, "%s ID3D11Device1::OpenSharedResourceByName: hr=0x%08x (%s)", what, HR(hr));
                RELEASE(o);
            }
            RELEASE(d1);
            CloseHandle(ntn);
        }
    }
    RELEASE(r1);
}

static void d3d11_shared(void)
{
    static const struct { UINT misc; const char *name; int nt; } v[] = {
        {0, "misc=0 (baseline)", 0},
        {D3D11_RESOURCE_MISC_SHARED, "misc=SHARED", 0},
        {D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX, "misc=SHARED_KEYEDMUTEX", 0},
        {D3D11_RESOURCE_MISC_SHARED | D3D11_RESOURCE_MISC_SHARED_NTHANDLE, "misc=SHARED|SHARED_NTHANDLE", 1},
        {D3D11_RESOURCE_MISC_SHARED_NTHANDLE | D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX, "misc=SHARED_NTHANDLE|SHARED_KEYEDMUTEX", 1},
    };
    HRESULT hr;
    if (!g_d11) { out(S, "shared resources: not reached (no D3D11 device)"); return; }
    if (!CHECK_VT(S, g_d11, CreateTexture2D) || !CHECK_VT(S, g_d11, CreateBuffer)) return;
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        char what[160];
        D3D11_TEXTURE2D_DESC td;
        memset(&td, 0, sizeof td);
        td.Width = 256; td.Height = 256; td.MipLevels = 1; td.ArraySize = 1;
        td.Format = DXGI_FORMAT_R8G8B8A8_UNORM; td.SampleDesc.Count = 1;
        td.Usage = D3D11_USAGE_DEFAULT; td.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_RENDER_TARGET;
        td.MiscFlags = v[i].misc;
        ID3D11Texture2D *t = NULL;
        hr = g_d11->lpVtbl->CreateTexture2D(g_d11, &td, NULL, &t);
        snprintf(what, sizeof what, "Texture2D 256x256 RGBA8 %s", v[i].name);
        out(S, "CreateTexture2D(%s): hr=0x%08x (%s)", v[i].name, HR(hr));
        if (SUCCEEDED(hr) && t) {
            if (v[i].misc) d3d11_share_one(what, (ID3D11Resource *)t, v[i].nt);
            if (v[i].misc & D3D11_RESOURCE_MISC_SHARED_KEYEDMUTEX) {
                IDXGIKeyedMutex *km = NULL;
                hr = t->lpVtbl->QueryInterface(t, &IID_IDXGIKeyedMutex, (void **)&km);
                out(S, "%s QI(IDXGIKeyedMutex): hr=0x%08x (%s)", what, HR(hr));
                if (SUCCEEDED(hr) && CHECK_VT(S, km, AcquireSync)) {
                    hr = km->lpVtbl->AcquireSync(km, 0, 100);
                    out(S, "%s IDXGIKeyedMutex::AcquireSync(0,100ms): hr=0x%08x (%s)", what, HR(hr));
                    if (SUCCEEDED(hr) && VT_OK(km, ReleaseSync)) km->lpVtbl->ReleaseSync(km, 0);
                }
                RELEASE(km);
            }
        }
        RELEASE(t);

        D3D11_BUFFER_DESC bd;
        memset(&bd, 0, sizeof bd);
        bd.ByteWidth = 65536; bd.Usage = D3D11_USAGE_DEFAULT;
        bd.BindFlags = D3D11_BIND_SHADER_RESOURCE | D3D11_BIND_UNORDERED_ACCESS;
        bd.MiscFlags = v[i].misc | D3D11_RESOURCE_MISC_BUFFER_ALLOW_RAW_VIEWS;
        ID3D11Buffer *b = NULL;
        hr = g_d11->lpVtbl->CreateBuffer(g_d11, &bd, NULL, &b);
        snprintf(what, sizeof what, "Buffer 64KiB raw %s", v[i].name);
        out(S, "CreateBuffer(64KiB, %s): hr=0x%08x (%s)", v[i].name, HR(hr));
        if (SUCCEEDED(hr) && b && v[i].misc) d3d11_share_one(what, (ID3D11Resource *)b, v[i].nt);
        RELEASE(b);
    }
}

static void d3d11_open(void)
{
    HRESULT hr;
    ID3D11Device1 *d1 = NULL;
    ID3D11Resource *o = NULL;
    if (!g_d11) { out(S, "open shared: not reached (no D3D11 device)"); return; }
    if (CHECK_VT(S, g_d11, OpenSharedResource)) {
        HANDLE h = g_d11_kmt_handle ? g_d11_kmt_handle : (HANDLE)(uintptr_t)0x40000002;
        hr = g_d11->lpVtbl->OpenSharedResource(g_d11, h, &IID_ID3D11Resource, (void **)&o);
        out(S, "ID3D11Device::OpenSharedResource(%s %p): hr=0x%08x (%s)",
            g_d11_kmt_handle ? "KMT handle" : "made-up KMT-like value", h, HR(hr));
        RELEASE(o);
    }
    hr = g_d11->lpVtbl->QueryInterface(g_d11, &IID_ID3D11Device1, (void **)&d1);
    out(S, "ID3D11Device QI(ID3D11Device1): hr=0x%08x (%s)", HR(hr));
    if (FAILED(hr)) return;
    if (CHECK_VT(S, d1, OpenSharedResource1)) {
        /* No NT handle from D3D11 itself: try a plain pagefile section, which is what a real NT
         * handle would be on Windows only in name (there it is a DxgkSharedResource), to tell a
         * stub from a check. */
        HANDLE h = g_d11_nt_handle;
        HANDLE sec = NULL;
        if (!h) { sec = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 1 << 20, NULL); h = sec; }
        hr = d1->lpVtbl->OpenSharedResource1(d1, h, &IID_ID3D11Resource, (void **)&o);
        out(S, "ID3D11Device1::OpenSharedResource1(%s): hr=0x%08x (%s)",
            g_d11_nt_handle ? "D3D11 NT handle" : "plain 1MiB section handle (no D3D11 NT handle exists)", HR(hr));
        RELEASE(o);
        if (sec) CloseHandle(sec);
    }
    if (CHECK_VT(S, d1, OpenSharedResourceByName)) {
        hr = d1->lpVtbl->OpenSharedResourceByName(d1, L"extmem_probe_no_such_name",
                                                  DXGI_SHARED_RESOURCE_READ | DXGI_SHARED_RESOURCE_WRITE,
                                                  &IID_ID3D11Resource, (void **)&o);
        out(S, "ID3D11Device1::OpenSharedResourceByName(nonexistent name): hr=0x%08x (%s)", HR(hr));
        RELEASE(o);
    }
    RELEASE(d1);
}

/* copy path: GPU buffer -> staging -> Map (what a CPU device can always do, with a copy) */
static void d3d11_staging(void)
{
    HRESULT hr;
    if (!g_d11 || !g_ctx11) { out(S, "staging copy: not reached (no device/context)"); return; }
    if (!CHECK_VT(S, g_ctx11, CopyResource) || !CHECK_VT(S, g_ctx11, Map)) return;
    static uint32_t init[16384];
    for (int i = 0; i < 16384; i++) init[i] = 0x1000u + i;
    D3D11_BUFFER_DESC bd; memset(&bd, 0, sizeof bd);
    bd.ByteWidth = sizeof init; bd.Usage = D3D11_USAGE_DEFAULT; bd.BindFlags = D3D11_BIND_SHADER_RESOURCE;
    D3D11_SUBRESOURCE_DATA sd = {init, 0, 0};
    ID3D11Buffer *src = NULL, *stg = NULL;
    hr = g_d11->lpVtbl->CreateBuffer(g_d11, &bd, &sd, &src);
    bd.Usage = D3D11_USAGE_STAGING; bd.BindFlags = 0; bd.CPUAccessFlags = D3D11_CPU_ACCESS_READ | D3D11_CPU_ACCESS_WRITE;
    HRESULT hr2 = g_d11->lpVtbl->CreateBuffer(g_d11, &bd, NULL, &stg);
    if (FAILED(hr) || FAILED(hr2)) { out(S, "staging copy: CreateBuffer hr=0x%08x / 0x%08x", (unsigned)hr, (unsigned)hr2); RELEASE(src); RELEASE(stg); return; }
    g_ctx11->lpVtbl->CopyResource(g_ctx11, (ID3D11Resource *)stg, (ID3D11Resource *)src);
    D3D11_MAPPED_SUBRESOURCE m; memset(&m, 0, sizeof m);
    hr = g_ctx11->lpVtbl->Map(g_ctx11, (ID3D11Resource *)stg, 0, D3D11_MAP_READ, 0, &m);
    int ok = SUCCEEDED(hr) && m.pData && memcmp(m.pData, init, sizeof init) == 0;
    out(S, "DEFAULT buffer(64KiB, initial data) -> CopyResource -> STAGING Map(READ): hr=0x%08x (%s) data %s",
        HR(hr), ok ? "matches" : "MISMATCH/none");
    if (SUCCEEDED(hr)) g_ctx11->lpVtbl->Unmap(g_ctx11, (ID3D11Resource *)stg, 0);
    RELEASE(src); RELEASE(stg);
}

/* ------------------------------------- D3D12 --------------------------------------------- */
static ID3D12Device *g_d12;
static HANDLE g_d12_heap_handle, g_d12_res_handle;

static void print_luid12(const char *what, ID3D12Device *d)
{
    if (!CHECK_VT(S, d, GetAdapterLuid)) return;
    LUID l = {0, 0};
    d->lpVtbl->GetAdapterLuid(d, &l);   /* explicit aggregate return (MSVC ABI) */
    out(S, "%s ID3D12Device::GetAdapterLuid: %08lx:%08lx", what, (unsigned long)l.HighPart, (unsigned long)l.LowPart);
}

static ID3D12Device *make_d3d12(const char *what, IUnknown *ad, D3D_FEATURE_LEVEL fl)
{
    ID3D12Device *d = NULL;
    if (!pD3D12CreateDevice) { out(S, "D3D12CreateDevice(%s): not reached (export missing)", what); return NULL; }
    HRESULT hr = pD3D12CreateDevice(ad, fl, &IID_ID3D12Device, NULL);
    out(S, "D3D12CreateDevice(%s, NULL out = capability check): hr=0x%08x (%s)", what, HR(hr));
    hr = pD3D12CreateDevice(ad, fl, &IID_ID3D12Device, (void **)&d);
    out(S, "D3D12CreateDevice(%s): hr=0x%08x (%s)", what, HR(hr));
    if (FAILED(hr)) return NULL;
    print_luid12("  ", d);
    return d;
}

static void d3d12_devices(void)
{
    ID3D12Device *d;
    g_d12 = make_d3d12("default adapter, FL 11_0", NULL, D3D_FEATURE_LEVEL_11_0);
    d = make_d3d12("default adapter, FL 12_0", NULL, D3D_FEATURE_LEVEL_12_0); RELEASE(d);
    if (g_warp) {
        d = make_d3d12("WARP adapter, FL 11_0", (IUnknown *)g_warp, D3D_FEATURE_LEVEL_11_0);
        if (!g_d12) g_d12 = d; else RELEASE(d);
        d = make_d3d12("WARP adapter, FL 12_0", (IUnknown *)g_warp, D3D_FEATURE_LEVEL_12_0); RELEASE(d);
    } else out(S, "D3D12CreateDevice(WARP adapter): not reached (no WARP adapter)");
    if (g_adapter0) {
        d = make_d3d12("EnumAdapters1(0) adapter, FL 11_0", (IUnknown *)g_adapter0, D3D_FEATURE_LEVEL_11_0);
        RELEASE(d);
    }
}

static void d3d12_features(void)
{
    HRESULT hr;
    if (!g_d12) { out(S, "features: not reached (no D3D12 device)"); return; }
    if (!CHECK_VT(S, g_d12, CheckFeatureSupport)) return;
    D3D12_FEATURE_DATA_D3D12_OPTIONS o; memset(&o, 0, sizeof o);
    hr = ID3D12Device_CheckFeatureSupport(g_d12, D3D12_FEATURE_D3D12_OPTIONS, &o, sizeof o);
    out(S, "CheckFeatureSupport(D3D12_OPTIONS): hr=0x%08x (%s) ResourceHeapTier=%d ResourceBindingTier=%d "
        "CrossNodeSharingTier=%d CrossAdapterRowMajorTextureSupported=%d", HR(hr), (int)o.ResourceHeapTier,
        (int)o.ResourceBindingTier, (int)o.CrossNodeSharingTier, (int)o.CrossAdapterRowMajorTextureSupported);
    D3D12_FEATURE_DATA_ARCHITECTURE a; memset(&a, 0, sizeof a);
    hr = ID3D12Device_CheckFeatureSupport(g_d12, D3D12_FEATURE_ARCHITECTURE, &a, sizeof a);
    out(S, "CheckFeatureSupport(ARCHITECTURE): hr=0x%08x (%s) TileBasedRenderer=%d UMA=%d CacheCoherentUMA=%d",
        HR(hr), (int)a.TileBasedRenderer, (int)a.UMA, (int)a.CacheCoherentUMA);
    static const D3D_FEATURE_LEVEL req[] = {D3D_FEATURE_LEVEL_11_0, D3D_FEATURE_LEVEL_11_1, D3D_FEATURE_LEVEL_12_0,
                                            D3D_FEATURE_LEVEL_12_1};
    D3D12_FEATURE_DATA_FEATURE_LEVELS fls = {4, req, 0};
    hr = ID3D12Device_CheckFeatureSupport(g_d12, D3D12_FEATURE_FEATURE_LEVELS, &fls, sizeof fls);
    out(S, "CheckFeatureSupport(FEATURE_LEVELS 11_0..12_1): hr=0x%08x (%s) MaxSupportedFeatureLevel=0x%x", HR(hr),
        (unsigned)fls.MaxSupportedFeatureLevel);
    struct { BOOL Supported; } eh = {0};
    hr = ID3D12Device_CheckFeatureSupport(g_d12, D3D12_FEATURE_EXISTING_HEAPS, &eh, sizeof eh);
    out(S, "CheckFeatureSupport(EXISTING_HEAPS): hr=0x%08x (%s) Supported=%d", HR(hr), (int)eh.Supported);
    if (CHECK_VT(S, g_d12, GetNodeCount)) out(S, "GetNodeCount: %u", ID3D12Device_GetNodeCount(g_d12));
}

static void d3d12_allocinfo(void)
{
    if (!g_d12) { out(S, "GetResourceAllocationInfo: not reached (no D3D12 device)"); return; }
    if (!CHECK_VT(S, g_d12, GetResourceAllocationInfo)) return;
    D3D12_RESOURCE_DESC b; memset(&b, 0, sizeof b);
    b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER; b.Width = 1 << 20; b.Height = 1; b.DepthOrArraySize = 1;
    b.MipLevels = 1; b.Format = DXGI_FORMAT_UNKNOWN; b.SampleDesc.Count = 1; b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
    D3D12_RESOURCE_ALLOCATION_INFO i = {0, 0};
    g_d12->lpVtbl->GetResourceAllocationInfo(g_d12, &i, 0, 1, &b);
    out(S, "GetResourceAllocationInfo(buffer 1MiB): SizeInBytes=%llu Alignment=%llu",
        (unsigned long long)i.SizeInBytes, (unsigned long long)i.Alignment);
    D3D12_RESOURCE_DESC t; memset(&t, 0, sizeof t);
    t.Dimension = D3D12_RESOURCE_DIMENSION_TEXTURE2D; t.Width = 256; t.Height = 256; t.DepthOrArraySize = 1;
    t.MipLevels = 1; t.Format = DXGI_FORMAT_R8G8B8A8_UNORM; t.SampleDesc.Count = 1; t.Layout = D3D12_TEXTURE_LAYOUT_UNKNOWN;
    memset(&i, 0, sizeof i);
    g_d12->lpVtbl->GetResourceAllocationInfo(g_d12, &i, 0, 1, &t);
    out(S, "GetResourceAllocationInfo(tex2d 256x256 RGBA8): SizeInBytes=%llu Alignment=%llu",
        (unsigned long long)i.SizeInBytes, (unsigned long long)i.Alignment);
}

static void d3d12_share_child(const char *what, ID3D12DeviceChild *child, REFIID iid, const WCHAR *name, HANDLE *keep)
{
    HRESULT hr;
    HANDLE h = NULL, hn = NULL;
    char w[160];
    if (!CHECK_VT(S, g_d12, CreateSharedHandle)) return;
    hr = ID3D12Device_CreateSharedHandle(g_d12, child, NULL, GENERIC_ALL, NULL, &h);
    out(S, "%s CreateSharedHandle(unnamed, GENERIC_ALL): hr=0x%08x (%s) handle=%p", what, HR(hr), h);
    if (SUCCEEDED(hr) && h) {
        snprintf(w, sizeof w, "%s handle", what);
        describe_handle(S, w, h);
        if (CHECK_VT(S, g_d12, OpenSharedHandle)) {
            IUnknown *o = NULL;
            HRESULT hr2 = ID3D12Device_OpenSharedHandle(g_d12, h, iid, (void **)&o);
            out(S, "%s OpenSharedHandle(its handle): hr=0x%08x (%s)", what, HR(hr2));
            RELEASE(o);
        }
        if (keep && !*keep) *keep = h; else CloseHandle(h);
    }
    hr = ID3D12Device_CreateSharedHandle(g_d12, child, NULL, GENERIC_ALL, name, &hn);
    char nm[128]; w2u(name, nm, sizeof nm);
    out(S, "%s CreateSharedHandle(name \"%s\"): hr=0x%08x (%s) handle=%p", what, nm, HR(hr), hn);
    if (SUCCEEDED(hr) && hn && CHECK_VT(S, g_d12, OpenSharedHandleByName)) {
        HANDLE h2 = NULL;
        HRESULT hr2 = ID3D12Device_OpenSharedHandleByName(g_d12, name, GENERIC_ALL, &h2);
        out(S, "%s OpenSharedHandleByName(\"%s\"): hr=0x%08x (%s) handle=%p", what, nm, HR(hr2), h2);
        if (h2) CloseHandle(h2);
    }
    if (hn) CloseHandle(hn);
}

static void d3d12_heaps(void)
{
    HRESULT hr;
    if (!g_d12) { out(S, "heaps: not reached (no D3D12 device)"); return; }
    if (!CHECK_VT(S, g_d12, CreateHeap) || !CHECK_VT(S, g_d12, CreateCommittedResource)) return;
    static const struct { int custom; D3D12_HEAP_FLAGS flags; const char *name; } v[] = {
        {0, D3D12_HEAP_FLAG_NONE, "DEFAULT, flags NONE (baseline)"},
        {0, D3D12_HEAP_FLAG_SHARED, "DEFAULT, SHARED"},
        {1, D3D12_HEAP_FLAG_NONE, "CUSTOM WRITE_BACK/L0, flags NONE (baseline)"},
        {1, D3D12_HEAP_FLAG_SHARED, "CUSTOM WRITE_BACK/L0, SHARED"},
        {1, D3D12_HEAP_FLAG_SHARED | D3D12_HEAP_FLAG_SHARED_CROSS_ADAPTER, "CUSTOM WRITE_BACK/L0, SHARED|SHARED_CROSS_ADAPTER"},
    };
    for (size_t i = 0; i < sizeof v / sizeof v[0]; i++) {
        D3D12_HEAP_DESC hd; memset(&hd, 0, sizeof hd);
        hd.SizeInBytes = 1 << 20;
        hd.Properties.Type = v[i].custom ? D3D12_HEAP_TYPE_CUSTOM : D3D12_HEAP_TYPE_DEFAULT;
        hd.Properties.CPUPageProperty = v[i].custom ? D3D12_CPU_PAGE_PROPERTY_WRITE_BACK : D3D12_CPU_PAGE_PROPERTY_UNKNOWN;
        hd.Properties.MemoryPoolPreference = v[i].custom ? D3D12_MEMORY_POOL_L0 : D3D12_MEMORY_POOL_UNKNOWN;
        hd.Alignment = 0;
        hd.Flags = v[i].flags;
        ID3D12Heap *heap = NULL;
        hr = ID3D12Device_CreateHeap(g_d12, &hd, &IID_ID3D12Heap, (void **)&heap);
        out(S, "CreateHeap(1MiB, %s): hr=0x%08x (%s)", v[i].name, HR(hr));
        if (SUCCEEDED(hr) && heap && (v[i].flags & D3D12_HEAP_FLAG_SHARED)) {
            char what[160]; snprintf(what, sizeof what, "heap(%s)", v[i].name);
            d3d12_share_child(what, (ID3D12DeviceChild *)heap, &IID_ID3D12Heap, L"extmem_probe_heap", &g_d12_heap_handle);
        }
        RELEASE(heap);

        D3D12_RESOURCE_DESC b; memset(&b, 0, sizeof b);
        b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER; b.Width = 1 << 20; b.Height = 1; b.DepthOrArraySize = 1;
        b.MipLevels = 1; b.SampleDesc.Count = 1; b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
        ID3D12Resource *r = NULL;
        hr = ID3D12Device_CreateCommittedResource(g_d12, &hd.Properties, v[i].flags, &b, D3D12_RESOURCE_STATE_COMMON,
                                                  NULL, &IID_ID3D12Resource, (void **)&r);
        out(S, "CreateCommittedResource(buffer 1MiB, %s): hr=0x%08x (%s)", v[i].name, HR(hr));
        if (SUCCEEDED(hr) && r && v[i].custom && CHECK_VT(S, r, Map)) {
            void *p = NULL;
            HRESULT hr2 = ID3D12Resource_Map(r, 0, NULL, &p);
            out(S, "  committed buffer on custom WRITE_BACK heap Map: hr=0x%08x (%s) ptr=%p", HR(hr2), p);
            if (SUCCEEDED(hr2)) ID3D12Resource_Unmap(r, 0, NULL);
        }
        if (SUCCEEDED(hr) && r && (v[i].flags & D3D12_HEAP_FLAG_SHARED)) {
            char what[160]; snprintf(what, sizeof what, "committed buffer(%s)", v[i].name);
            d3d12_share_child(what, (ID3D12DeviceChild *)r, &IID_ID3D12Resource, L"extmem_probe_res", &g_d12_res_handle);
        }
        RELEASE(r);
    }
    /* shared fence (CUDA imports these as external semaphores) */
    if (CHECK_VT(S, g_d12, CreateFence)) {
        ID3D12Fence *f = NULL;
        hr = ID3D12Device_CreateFence(g_d12, 0, D3D12_FENCE_FLAG_SHARED, &IID_ID3D12Fence, (void **)&f);
        out(S, "CreateFence(D3D12_FENCE_FLAG_SHARED): hr=0x%08x (%s)", HR(hr));
        if (SUCCEEDED(hr) && f) d3d12_share_child("fence(SHARED)", (ID3D12DeviceChild *)f, &IID_ID3D12Fence, L"extmem_probe_fence", NULL);
        RELEASE(f);
    }
    /* whether OpenSharedHandle is a stub or checks its argument */
    if (CHECK_VT(S, g_d12, OpenSharedHandle)) {
        HANDLE sec = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 1 << 20, NULL);
        IUnknown *o = NULL;
        hr = ID3D12Device_OpenSharedHandle(g_d12, sec, &IID_ID3D12Heap, (void **)&o);
        out(S, "OpenSharedHandle(plain 1MiB section handle, ID3D12Heap): hr=0x%08x (%s)", HR(hr));
        RELEASE(o);
        hr = ID3D12Device_OpenSharedHandle(g_d12, NULL, &IID_ID3D12Resource, (void **)&o);
        out(S, "OpenSharedHandle(NULL handle, ID3D12Resource): hr=0x%08x (%s)", HR(hr));
        RELEASE(o);
        if (sec) CloseHandle(sec);
    }
    if (CHECK_VT(S, g_d12, OpenSharedHandleByName)) {
        HANDLE h = NULL;
        hr = ID3D12Device_OpenSharedHandleByName(g_d12, L"extmem_probe_no_such_name", GENERIC_ALL, &h);
        out(S, "OpenSharedHandleByName(nonexistent name): hr=0x%08x (%s) handle=%p", HR(hr), h);
        if (h) CloseHandle(h);
    }
}

static void d3d12_existing_heaps(void)
{
    HRESULT hr;
    Dev3 *d3 = NULL;
    if (!g_d12) { out(S, "existing heaps: not reached (no D3D12 device)"); return; }
    void *d2 = NULL;
    hr = ID3D12Device_QueryInterface(g_d12, &IID_ID3D12Device2_, &d2);
    out(S, "QI(ID3D12Device2): hr=0x%08x (%s)", HR(hr));
    if (d2) ((IUnknown *)d2)->lpVtbl->Release((IUnknown *)d2);
    hr = ID3D12Device_QueryInterface(g_d12, &IID_ID3D12Device3_, (void **)&d3);
    out(S, "QI(ID3D12Device3): hr=0x%08x (%s)", HR(hr));
    if (FAILED(hr) || !d3) {
        out(S, "ID3D12Device3::OpenExistingHeapFromAddress: not reached (no ID3D12Device3)");
        out(S, "ID3D12Device3::OpenExistingHeapFromFileMapping: not reached (no ID3D12Device3)");
        return;
    }
    SIZE_T sz = 1 << 20;
    uint8_t *mem = VirtualAlloc(NULL, sz, MEM_RESERVE | MEM_COMMIT, PAGE_READWRITE);
    out(S, "VirtualAlloc(1MiB) -> %p (64KiB aligned: %s)", (void *)mem, ((uintptr_t)mem & 0xffff) ? "no" : "yes");
    if (mem && CHECK_VT(S, d3, OpenExistingHeapFromAddress)) {
        ID3D12Heap *heap = NULL;
        for (int i = 0; i < 16; i++) mem[i] = (uint8_t)(0xA0 + i);
        hr = d3->lpVtbl->OpenExistingHeapFromAddress(d3, mem, &IID_ID3D12Heap, (void **)&heap);
        out(S, "ID3D12Device3::OpenExistingHeapFromAddress(VirtualAlloc 1MiB): hr=0x%08x (%s)", HR(hr));
        if (SUCCEEDED(hr) && heap && CHECK_VT(S, heap, GetDesc)) {
            D3D12_HEAP_DESC hd; memset(&hd, 0, sizeof hd);
            heap->lpVtbl->GetDesc(heap, &hd);
            out(S, "  heap desc: SizeInBytes=%llu Type=%d CPUPage=%d Pool=%d Flags=0x%x", (unsigned long long)hd.SizeInBytes,
                (int)hd.Properties.Type, (int)hd.Properties.CPUPageProperty, (int)hd.Properties.MemoryPoolPreference,
                (unsigned)hd.Flags);
            D3D12_RESOURCE_DESC b; memset(&b, 0, sizeof b);
            b.Dimension = D3D12_RESOURCE_DIMENSION_BUFFER; b.Width = 65536; b.Height = 1; b.DepthOrArraySize = 1;
            b.MipLevels = 1; b.SampleDesc.Count = 1; b.Layout = D3D12_TEXTURE_LAYOUT_ROW_MAJOR;
            b.Flags = D3D12_RESOURCE_FLAG_ALLOW_CROSS_ADAPTER;
            ID3D12Resource *r = NULL;
            hr = ID3D12Device_CreatePlacedResource(g_d12, heap, 0, &b, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                  &IID_ID3D12Resource, (void **)&r);
            if (FAILED(hr)) {
                b.Flags = 0;
                hr = ID3D12Device_CreatePlacedResource(g_d12, heap, 0, &b, D3D12_RESOURCE_STATE_COMMON, NULL,
                                                      &IID_ID3D12Resource, (void **)&r);
            }
            out(S, "  CreatePlacedResource(buffer 64KiB at offset 0): hr=0x%08x (%s)", HR(hr));
            if (SUCCEEDED(hr) && r && CHECK_VT(S, r, Map)) {
                void *p = NULL;
                hr = ID3D12Resource_Map(r, 0, NULL, &p);
                out(S, "  placed buffer Map: hr=0x%08x (%s) ptr=%p (%s the VirtualAlloc address)%s", HR(hr), p,
                    p == (void *)mem ? "==" : "!=",
                    (SUCCEEDED(hr) && p && memcmp(p, mem, 16) == 0) ? ", bytes match" : "");
                if (SUCCEEDED(hr)) ID3D12Resource_Unmap(r, 0, NULL);
            }
            RELEASE(r);
        }
        RELEASE(heap);
    }
    HANDLE fm = CreateFileMappingW(INVALID_HANDLE_VALUE, NULL, PAGE_READWRITE, 0, 1 << 20, NULL);
    out(S, "CreateFileMapping(pagefile, 1MiB) -> %p", fm);
    if (fm && CHECK_VT(S, d3, OpenExistingHeapFromFileMapping)) {
        ID3D12Heap *heap = NULL;
        hr = d3->lpVtbl->OpenExistingHeapFromFileMapping(d3, fm, &IID_ID3D12Heap, (void **)&heap);
        out(S, "ID3D12Device3::OpenExistingHeapFromFileMapping(section 1MiB): hr=0x%08x (%s)", HR(hr));
        RELEASE(heap);
    }
    if (fm) CloseHandle(fm);
    if (mem) VirtualFree(mem, 0, MEM_RELEASE);
    d3->lpVtbl->base.Release((ID3D12Device1 *)d3);
}

/* ------------------------------------ interop -------------------------------------------- */
static void interop(void)
{
    HRESULT hr;
    if (!g_d11 || !g_d12) { out(S, "cross-API: not reached (need both a D3D11 and a D3D12 device)"); return; }
    if (g_d11_nt_handle && CHECK_VT(S, g_d12, OpenSharedHandle)) {
        IUnknown *o = NULL;
        hr = ID3D12Device_OpenSharedHandle(g_d12, g_d11_nt_handle, &IID_ID3D12Resource, (void **)&o);
        out(S, "D3D12 OpenSharedHandle(D3D11 NT handle): hr=0x%08x (%s)", HR(hr));
        RELEASE(o);
    } else out(S, "D3D12 OpenSharedHandle(D3D11 NT handle): not reached (D3D11 produced no NT handle)");
    ID3D11Device1 *d1 = NULL;
    if (SUCCEEDED(g_d11->lpVtbl->QueryInterface(g_d11, &IID_ID3D11Device1, (void **)&d1)) &&
        CHECK_VT(S, d1, OpenSharedResource1)) {
        if (g_d12_res_handle) {
            ID3D11Resource *o = NULL;
            hr = d1->lpVtbl->OpenSharedResource1(d1, g_d12_res_handle, &IID_ID3D11Buffer, (void **)&o);
            out(S, "D3D11 OpenSharedResource1(D3D12 committed-resource handle): hr=0x%08x (%s)", HR(hr));
            RELEASE(o);
        } else out(S, "D3D11 OpenSharedResource1(D3D12 resource handle): not reached (D3D12 produced no handle)");
    }
    RELEASE(d1);
}

/* ------------------------------------ Vulkan --------------------------------------------- */
/* What wine's vulkan-1.dll (winevulkan -> host loader -> ICDs) shows: the device vkd3d runs on,
 * and whether its LUID is valid and equal to the DXGI adapter's (the D3D <-> Vulkan pairing key). */
static void vulkan_devices(void)
{
    HMODULE vk = LoadLibraryA("vulkan-1.dll");
    if (!vk) { out(S, "LoadLibrary(vulkan-1.dll): FAILED error %lu", GetLastError()); return; }
    PFN_vkGetInstanceProcAddr gipa = (PFN_vkGetInstanceProcAddr)(void *)GetProcAddress(vk, "vkGetInstanceProcAddr");
    if (!gipa) { out(S, "vkGetInstanceProcAddr: export missing"); return; }
    PFN_vkCreateInstance ci = (PFN_vkCreateInstance)gipa(NULL, "vkCreateInstance");
    PFN_vkEnumerateInstanceVersion eiv = (PFN_vkEnumerateInstanceVersion)gipa(NULL, "vkEnumerateInstanceVersion");
    uint32_t ver = 0;
    if (eiv) eiv(&ver);
    out(S, "vkEnumerateInstanceVersion: %u.%u.%u", VK_API_VERSION_MAJOR(ver), VK_API_VERSION_MINOR(ver), VK_API_VERSION_PATCH(ver));
    VkApplicationInfo ai = {VK_STRUCTURE_TYPE_APPLICATION_INFO, NULL, "d3d_probe", 1, NULL, 0, VK_API_VERSION_1_1};
    VkInstanceCreateInfo ici = {VK_STRUCTURE_TYPE_INSTANCE_CREATE_INFO, NULL, 0, &ai, 0, NULL, 0, NULL};
    VkInstance inst = VK_NULL_HANDLE;
    VkResult r = ci ? ci(&ici, NULL, &inst) : VK_ERROR_INITIALIZATION_FAILED;
    out(S, "vkCreateInstance(API 1.1): VkResult=%d", (int)r);
    if (r != VK_SUCCESS) return;
    PFN_vkEnumeratePhysicalDevices epd = (PFN_vkEnumeratePhysicalDevices)gipa(inst, "vkEnumeratePhysicalDevices");
    PFN_vkGetPhysicalDeviceProperties2 gp2 = (PFN_vkGetPhysicalDeviceProperties2)gipa(inst, "vkGetPhysicalDeviceProperties2");
    PFN_vkEnumerateDeviceExtensionProperties edx =
        (PFN_vkEnumerateDeviceExtensionProperties)gipa(inst, "vkEnumerateDeviceExtensionProperties");
    VkPhysicalDevice pd[8];
    uint32_t n = 8;
    r = epd ? epd(inst, &n, pd) : VK_ERROR_INITIALIZATION_FAILED;
    out(S, "vkEnumeratePhysicalDevices: VkResult=%d count=%u", (int)r, n);
    for (uint32_t i = 0; r >= 0 && i < n && gp2; i++) {
        VkPhysicalDeviceIDProperties idp = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_ID_PROPERTIES, NULL};
        VkPhysicalDeviceProperties2 p2 = {VK_STRUCTURE_TYPE_PHYSICAL_DEVICE_PROPERTIES_2, &idp};
        gp2(pd[i], &p2);
        uint32_t lo, hi;
        memcpy(&lo, idp.deviceLUID, 4); memcpy(&hi, idp.deviceLUID + 4, 4);
        out(S, "  physical device %u: \"%s\" vendor=0x%04x device=0x%04x type=%d api=%u.%u deviceLUIDValid=%u LUID=%08x:%08x",
            i, p2.properties.deviceName, p2.properties.vendorID, p2.properties.deviceID, (int)p2.properties.deviceType,
            VK_API_VERSION_MAJOR(p2.properties.apiVersion), VK_API_VERSION_MINOR(p2.properties.apiVersion),
            (unsigned)idp.deviceLUIDValid, hi, lo);
        char u[2][40];
        for (int k = 0; k < 2; k++) {
            const uint8_t *b = k ? idp.driverUUID : idp.deviceUUID;
            for (int j = 0; j < 16; j++) snprintf(u[k] + 2 * j, 3, "%02x", b[j]);
        }
        out(S, "    deviceUUID=%s driverUUID=%s", u[0], u[1]);
        if (edx) {
            static VkExtensionProperties ext[512];
            uint32_t ne = 512;
            if (edx(pd[i], NULL, &ne, ext) >= 0) {
                static const char *want[] = {"VK_KHR_external_memory_win32", "VK_KHR_external_memory_fd",
                                             "VK_EXT_external_memory_host", "VK_KHR_external_semaphore_win32",
                                             "VK_KHR_win32_keyed_mutex", NULL};
                for (int w = 0; want[w]; w++) {
                    int has = 0;
                    for (uint32_t e = 0; e < ne; e++) if (!strcmp(ext[e].extensionName, want[w])) has = 1;
                    out(S, "    %s: %s", want[w], has ? "exposed" : "not exposed");
                }
            }
        }
    }
    PFN_vkDestroyInstance di = (PFN_vkDestroyInstance)gipa(inst, "vkDestroyInstance");
    if (di) di(inst, NULL);
}

/* -------------------------------------- main --------------------------------------------- */
static void guard_selftest(void) { volatile int *p = (volatile int *)(uintptr_t)8; out(S, "reading %p", (void *)p); out(S, "read %d", *p); }

static void env_info(void)
{
    HMODULE ntdll = GetModuleHandleA("ntdll.dll");
    const char *(CDECL *wv)(void) = (const char *(CDECL *)(void))(void *)GetProcAddress(ntdll, "wine_get_version");
    void (CDECL *hv)(const char **, const char **) =
        (void (CDECL *)(const char **, const char **))(void *)GetProcAddress(ntdll, "wine_get_host_version");
    const char *sys = "?", *rel = "?";
    if (hv) hv(&sys, &rel);
    out("env", "wine_get_version: %s; host %s %s", wv ? wv() : "(not wine)", sys, rel);
    char dsp[256] = "";
    GetEnvironmentVariableA("DISPLAY", dsp, sizeof dsp);
    out("env", "DISPLAY=%s", dsp[0] ? dsp : "(unset)");
}

int main(int argc, char **argv)
{
    const char *what = argc > 1 ? argv[1] : "all";
    int all = !strcmp(what, "all");
    setvbuf(stdout, NULL, _IONBF, 0);
    AddVectoredExceptionHandler(1, veh);
    env_info();
    load_dlls("env");
    if (all || !strcmp(what, "env")) {
        out("env", "after LoadLibrary only:");
        report_modules("env");
    }
    if (all || !strcmp(what, "dxgi") || !strcmp(what, "d3d11") || !strcmp(what, "d3d12") || !strcmp(what, "interop"))
        dxgi_setup(!strcmp(what, "dxgi") || all ? "dxgi" : "dxgi-setup");
    if (all || !strcmp(what, "d3d11") || !strcmp(what, "interop")) {
        S = "d3d11";
        guarded(S, "devices", d3d11_devices);
        guarded(S, "shared resources", d3d11_shared);
        guarded(S, "open shared", d3d11_open);
        guarded(S, "staging copy", d3d11_staging);
    }
    if (all || !strcmp(what, "d3d12") || !strcmp(what, "interop")) {
        S = "d3d12";
        guarded(S, "devices", d3d12_devices);
        guarded(S, "features", d3d12_features);
        guarded(S, "allocation info", d3d12_allocinfo);
        guarded(S, "heaps and shared handles", d3d12_heaps);
        guarded(S, "existing heaps", d3d12_existing_heaps);
    }
    if (all || !strcmp(what, "vulkan")) {
        S = "vulkan";
        guarded(S, "vulkan devices", vulkan_devices);
    }
    if (!strcmp(what, "guardtest")) {   /* checks the fault guard itself: expect one CRASH line, then "done" */
        S = "guardtest";
        guarded(S, "NULL+8 read", guard_selftest);
        guarded(S, "NULL+8 read again", guard_selftest);
    }
    if (all || !strcmp(what, "interop")) {
        S = "interop";
        guarded(S, "cross-API handles", interop);
    }
    out(what, "modules loaded at exit:");
    report_modules(what);
    out(what, "done");
    fflush(stdout);
    /* skip DLL teardown (wine's d3d/vulkan teardown is not what is probed) */
    TerminateProcess(GetCurrentProcess(), 0);
    return 0;
}
