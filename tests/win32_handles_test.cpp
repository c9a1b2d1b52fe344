// Windows handles: VMM allocations shared as NT handles (CU_MEM_HANDLE_TYPE_WIN32, guarded by
// the security attributes of win32HandleMetaData) and KMT handles (CU_MEM_HANDLE_TYPE_WIN32_KMT),
// and cuImportExternalMemory of OPAQUE_WIN32 (by handle or by name) and OPAQUE_WIN32_KMT
// (../shared/seeds/004_899ba516d5a0237d.txt; DESIGN.md §7, §9; docs/windows.md).
// Every test ends with the framework's check that no section or process handle leaked.
#include "framework/testing.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>
#include <aclapi.h>
#include <sddl.h>

#include <cstring>
#include <string>

using namespace extmem_test;

namespace {

size_t granularity()
{
    CUmemAllocationProp p = {};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    size_t g = 0;
    cuMemGetAllocationGranularity(&g, &p, CU_MEM_ALLOC_GRANULARITY_MINIMUM);
    return g;
}

CUmemAllocationProp prop_with(unsigned int types, void *metadata = nullptr)
{
    CUmemAllocationProp p = {};
    p.type = CU_MEM_ALLOCATION_TYPE_PINNED;
    p.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
    p.requestedHandleTypes = (CUmemAllocationHandleType)types;
    p.win32HandleMetaData = metadata;
    return p;
}

// An allocation mapped read-write at a reservation of its own, for the length of a scope.
struct Mapped {
    CUdeviceptr ptr = 0;
    size_t size = 0;
    Mapped(CUmemGenericAllocationHandle h, size_t bytes) : size(bytes)
    {
        EXPECT_OK(cuMemAddressReserve(&ptr, size, 0, 0, 0));
        EXPECT_OK(cuMemMap(ptr, size, 0, h, 0));
        CUmemAccessDesc a = {};
        a.location.type = CU_MEM_LOCATION_TYPE_DEVICE;
        a.flags = CU_MEM_ACCESS_FLAGS_PROT_READWRITE;
        EXPECT_OK(cuMemSetAccess(ptr, size, &a, 1));
    }
    ~Mapped()
    {
        EXPECT_OK(cuMemUnmap(ptr, size));
        EXPECT_OK(cuMemAddressFree(ptr, size));
    }
    unsigned int *words() const { return (unsigned int *)(uintptr_t)ptr; }
};

// The SIDs a handle's object grants access to, in its DACL's order, as SDDL text.
std::vector<std::string> dacl_sids(HANDLE h, DWORD *error = nullptr)
{
    PACL dacl = nullptr;
    PSECURITY_DESCRIPTOR sd = nullptr;
    std::vector<std::string> sids;
    DWORD err = GetSecurityInfo(h, SE_KERNEL_OBJECT, DACL_SECURITY_INFORMATION, nullptr, nullptr, &dacl, nullptr, &sd);
    if (error)
        *error = err;
    if (err != ERROR_SUCCESS)
        return sids;
    for (DWORD i = 0; dacl && i < dacl->AceCount; ++i) {
        ACCESS_ALLOWED_ACE *ace = nullptr;
        if (!GetAce(dacl, i, (void **)&ace))
            continue;
        char *text = nullptr;
        if (ace->Header.AceType == ACCESS_ALLOWED_ACE_TYPE && ConvertSidToStringSidA(&ace->SidStart, &text)) {
            sids.push_back(text);
            LocalFree(text);
        }
    }
    LocalFree(sd);
    return sids;
}

std::string my_user_sid()
{
    HANDLE token;
    OpenProcessToken(GetCurrentProcess(), TOKEN_QUERY, &token);
    union {
        TOKEN_USER user;
        unsigned char bytes[256];
    } info;
    DWORD got = 0;
    GetTokenInformation(token, TokenUser, &info, sizeof(info), &got);
    CloseHandle(token);
    char *text = nullptr;
    ConvertSidToStringSidA(info.user.User.Sid, &text);
    std::string s = text ? text : "";
    LocalFree(text);
    return s;
}

HANDLE as_handle(void *p) { return (HANDLE)p; }

class Win32Handles : public ContextTest {
protected:
    void SetUp() override
    {
        ContextTest::SetUp();
        gran = granularity();
    }
    // An allocation of one granule with the given handle types, filled with `fill`.
    CUmemGenericAllocationHandle make(unsigned int types, unsigned int fill, void *metadata = nullptr)
    {
        CUmemAllocationProp p = prop_with(types, metadata);
        CUmemGenericAllocationHandle h = 0;
        EXPECT_OK(cuMemCreate(&h, gran, &p, 0));
        Mapped m(h, gran);
        EXPECT_OK(cuMemsetD32(m.ptr, fill, gran / 4));
        return h;
    }
    size_t gran = 0;
};

} // namespace

TEST_F(Win32Handles, Attributes_AdvertiseWin32AndKmtHandles_NotPosixFds)
{
    int v = -1;
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_HANDLE_SUPPORTED, 0));
    EXPECT_EQ(1, v);
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_WIN32_KMT_HANDLE_SUPPORTED, 0));
    EXPECT_EQ(1, v);
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR_SUPPORTED, 0));
    EXPECT_EQ(0, v);
    ASSERT_OK(cuDeviceGetAttribute(&v, CU_DEVICE_ATTRIBUTE_IPC_EVENT_SUPPORTED, 0));
    EXPECT_EQ(1, v);
}

TEST_F(Win32Handles, ExportWin32_GivesANewSectionHandle_TheCallerCloses)
{
    int before = open_fd_count();
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 7);
    HANDLE h1 = nullptr, h2 = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h1, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    ASSERT_OK(cuMemExportToShareableHandle(&h2, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    EXPECT_NE(h1, h2);
    EXPECT_EQ(before + 3, open_fd_count()); // the allocation's own, and two that are the caller's
    // It is a section: a view of it shows the allocation's bytes.
    void *view = MapViewOfFile(h1, FILE_MAP_READ, 0, 0, 0);
    ASSERT_NE(nullptr, view);
    EXPECT_EQ(7u, ((unsigned int *)view)[100]);
    UnmapViewOfFile(view);
    // Importing it in this process: a new allocation handle, the same memory; h1 stays open.
    CUmemGenericAllocationHandle b = 0;
    ASSERT_OK(cuMemImportFromShareableHandle(&b, h1, CU_MEM_HANDLE_TYPE_WIN32));
    EXPECT_NE(a, b);
    EXPECT_TRUE(fd_is_open((int)(intptr_t)h1));
    CloseHandle(h1);
    CloseHandle(h2);
    {
        Mapped m(b, gran);
        EXPECT_EQ(7u, m.words()[gran / 4 - 1]);
        m.words()[0] = 99;
        Mapped original(a, gran);
        EXPECT_EQ(99u, original.words()[0]);
    }
    EXPECT_OK(cuMemRelease(b));
    EXPECT_OK(cuMemRelease(a));
    EXPECT_EQ(before, open_fd_count());
}

TEST_F(Win32Handles, ByDefault_TheSectionAdmitsItsOwnerAlone_AndIsNotInherited)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 1);
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    DWORD err = 0;
    std::vector<std::string> sids = dacl_sids(h, &err);
    EXPECT_EQ((DWORD)ERROR_SUCCESS, err);
    ASSERT_EQ(1u, sids.size());
    EXPECT_EQ(my_user_sid(), sids[0]);
    DWORD flags = 0;
    ASSERT_TRUE(GetHandleInformation(h, &flags));
    EXPECT_EQ(0u, flags & HANDLE_FLAG_INHERIT);
    CloseHandle(h);
    EXPECT_OK(cuMemRelease(a));
}

TEST_F(Win32Handles, SecurityAttributes_GuardTheSection_AndMakeExportsInheritable)
{
    // Everyone may read; the exported handles are inherited by child processes.
    PSECURITY_DESCRIPTOR sd = nullptr;
    ASSERT_TRUE(ConvertStringSecurityDescriptorToSecurityDescriptorA("D:(A;;GR;;;WD)", SDDL_REVISION_1, &sd, nullptr));
    SECURITY_ATTRIBUTES sa = {sizeof(sa), sd, TRUE};
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 3, &sa);
    CUmemAllocationProp out = {};
    ASSERT_OK(cuMemGetAllocationPropertiesFromHandle(&out, a));
    EXPECT_EQ(CU_MEM_HANDLE_TYPE_WIN32, out.requestedHandleTypes);
    EXPECT_EQ((void *)&sa, out.win32HandleMetaData); // reported as given
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    std::vector<std::string> sids = dacl_sids(h);
    ASSERT_EQ(1u, sids.size());
    EXPECT_EQ("S-1-1-0", sids[0]); // Everyone (WD)
    DWORD flags = 0;
    ASSERT_TRUE(GetHandleInformation(h, &flags));
    EXPECT_NE(0u, flags & HANDLE_FLAG_INHERIT);
    CloseHandle(h);
    EXPECT_OK(cuMemRelease(a));
    LocalFree(sd);
}

// winternl.h's OBJECT_ATTRIBUTES, which CUDA's header names as the metadata's type.
struct object_attributes {
    ULONG Length;
    HANDLE RootDirectory;
    void *ObjectName;
    ULONG Attributes;
    PVOID SecurityDescriptor;
    PVOID SecurityQualityOfService;
};

TEST_F(Win32Handles, ObjectAttributes_AreTakenAsWellAsSecurityAttributes)
{
    PSECURITY_DESCRIPTOR sd = nullptr;
    ASSERT_TRUE(ConvertStringSecurityDescriptorToSecurityDescriptorA("D:(A;;GA;;;WD)", SDDL_REVISION_1, &sd, nullptr));
    object_attributes oa = {sizeof(oa), nullptr, nullptr, 0x2 /* OBJ_INHERIT */, sd, nullptr};
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 3, &oa);
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    std::vector<std::string> sids = dacl_sids(h);
    ASSERT_EQ(1u, sids.size());
    EXPECT_EQ("S-1-1-0", sids[0]);
    DWORD flags = 0;
    ASSERT_TRUE(GetHandleInformation(h, &flags));
    EXPECT_NE(0u, flags & HANDLE_FLAG_INHERIT);
    CloseHandle(h);
    EXPECT_OK(cuMemRelease(a));
    LocalFree(sd);
}

TEST_F(Win32Handles, BadMetadataAndForeignHandleTypes_AreRefusedWithAReason)
{
    CUmemGenericAllocationHandle a = 0;
    DWORD junk[8] = {7};
    CUmemAllocationProp p = prop_with(CU_MEM_HANDLE_TYPE_WIN32, junk);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&a, gran, &p, 0));
    EXPECT_DETAIL_HAS("neither a SECURITY_ATTRIBUTES");
    SECURITY_ATTRIBUTES bad_sd = {sizeof(bad_sd), junk, FALSE};
    p = prop_with(CU_MEM_HANDLE_TYPE_WIN32, &bad_sd);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&a, gran, &p, 0));
    EXPECT_DETAIL_HAS("not valid");
    SECURITY_ATTRIBUTES sa = {sizeof(sa), nullptr, FALSE};
    p = prop_with(CU_MEM_HANDLE_TYPE_WIN32_KMT, &sa); // metadata belongs to CU_MEM_HANDLE_TYPE_WIN32
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&a, gran, &p, 0));
    EXPECT_DETAIL_HAS("lacks CU_MEM_HANDLE_TYPE_WIN32");
    p = prop_with(CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemCreate(&a, gran, &p, 0));
    EXPECT_DETAIL_HAS("exist on Linux only");
    EXPECT_EQ(0u, a);

    a = make(CU_MEM_HANDLE_TYPE_WIN32, 0);
    int fd = -1;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&fd, a, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR, 0));
    EXPECT_EQ(-1, fd);
    unsigned int kmt = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    EXPECT_DETAIL_HAS("not created with CU_MEM_HANDLE_TYPE_WIN32_KMT");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemExportToShareableHandle(&kmt, a, (CUmemAllocationHandleType)(CU_MEM_HANDLE_TYPE_WIN32 | 4), 0));
    HANDLE h = nullptr;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 1));
    EXPECT_EQ(nullptr, h);
    CUmemGenericAllocationHandle b = 0;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED,
              cuMemImportFromShareableHandle(&b, (void *)(intptr_t)3, CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR));
    EXPECT_OK(cuMemRelease(a));
}

TEST_F(Win32Handles, ImportingWhatIsNotExtmemMemory_IsInvalidValue_AndLeavesTheHandleAlone)
{
    int before = open_fd_count();
    CUmemGenericAllocationHandle b = 0;
    HANDLE event = CreateEventA(nullptr, TRUE, FALSE, nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, event, CU_MEM_HANDLE_TYPE_WIN32));
    EXPECT_DETAIL_HAS("not a section");
    EXPECT_TRUE(fd_is_open((int)(intptr_t)event));
    CloseHandle(event);
    HANDLE foreign = CreateFileMappingA(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, (DWORD)gran, nullptr);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, foreign, CU_MEM_HANDLE_TYPE_WIN32));
    EXPECT_DETAIL_HAS("not memory exported by extmem");
    CloseHandle(foreign);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, foreign, CU_MEM_HANDLE_TYPE_WIN32)); // closed
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, nullptr, CU_MEM_HANDLE_TYPE_WIN32));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, (void *)(intptr_t)0x7ffffff0,
                                                                       CU_MEM_HANDLE_TYPE_WIN32)); // forged
    EXPECT_EQ(0u, b);
    EXPECT_EQ(before, open_fd_count());
}

TEST_F(Win32Handles, KmtHandle_IsA32BitTokenThatOpensTheMemoryWhileItLives)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT, 5);
    unsigned long long kmt = 0; // a D3DKMT_HANDLE: 32 bits are written, the rest stays
    ASSERT_OK(cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    EXPECT_NE(0u, kmt);
    EXPECT_EQ(0u, kmt >> 32);
    unsigned long long again = 0;
    ASSERT_OK(cuMemExportToShareableHandle(&again, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    EXPECT_EQ(kmt, again); // the same token: it names the object, it is no reference
    int before = open_fd_count();
    CUmemGenericAllocationHandle b = 0;
    ASSERT_OK(cuMemImportFromShareableHandle(&b, (void *)(uintptr_t)kmt, CU_MEM_HANDLE_TYPE_WIN32_KMT));
    {
        Mapped m(b, gran);
        EXPECT_EQ(5u, m.words()[1]);
    }
    EXPECT_OK(cuMemRelease(b));
    EXPECT_EQ(before, open_fd_count()); // the token took no handle from the caller
    // Mapped, the memory lives on after its release, and the token with it...
    {
        Mapped m(a, gran);
        EXPECT_OK(cuMemRelease(a));
        ASSERT_OK(cuMemImportFromShareableHandle(&b, (void *)(uintptr_t)kmt, CU_MEM_HANDLE_TYPE_WIN32_KMT));
        EXPECT_OK(cuMemRelease(b));
    }
    // ...and once every reference is gone, the token opens nothing.
    b = 0;
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemImportFromShareableHandle(&b, (void *)(uintptr_t)kmt, CU_MEM_HANDLE_TYPE_WIN32_KMT));
    EXPECT_DETAIL_HAS("holds no reference");
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemImportFromShareableHandle(&b, nullptr, CU_MEM_HANDLE_TYPE_WIN32_KMT));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE,
              cuMemImportFromShareableHandle(&b, (void *)(uintptr_t)0x100000001ull, CU_MEM_HANDLE_TYPE_WIN32_KMT));
    EXPECT_EQ(0u, b);
}

TEST_F(Win32Handles, AnImportedKmtAllocation_ExportsAsKmtAgain_AnImportedNtOneDoesNot)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT, 5);
    unsigned int kmt = 0, kmt2 = 0;
    ASSERT_OK(cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    CUmemGenericAllocationHandle b = 0;
    ASSERT_OK(cuMemImportFromShareableHandle(&b, (void *)(uintptr_t)kmt, CU_MEM_HANDLE_TYPE_WIN32_KMT));
    ASSERT_OK(cuMemExportToShareableHandle(&kmt2, b, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    EXPECT_EQ(kmt, kmt2);
    CUmemGenericAllocationHandle c = make(CU_MEM_HANDLE_TYPE_WIN32, 1), d = 0;
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, c, CU_MEM_HANDLE_TYPE_WIN32, 0));
    ASSERT_OK(cuMemImportFromShareableHandle(&d, h, CU_MEM_HANDLE_TYPE_WIN32));
    CloseHandle(h);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuMemExportToShareableHandle(&kmt2, d, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    for (auto x : {a, b, c, d})
        EXPECT_OK(cuMemRelease(x));
}

/* Imports the allocation argv[1] names (an inherited NT handle value, or a KMT token, as hex
 * text; argv[0] says which), checks its first word is argv[2], and writes argv[3] there. */
EXTMEM_CHILD_ROLE(vmm_importer)
{
    CUcontext ctx = nullptr;
    if (cuInit(0) || cuCtxCreate(&ctx, nullptr, 0, 0))
        return 10;
    void *os_handle = (void *)(uintptr_t)std::stoull(args[1], nullptr, 16);
    CUmemAllocationHandleType type = args[0] == "kmt" ? CU_MEM_HANDLE_TYPE_WIN32_KMT : CU_MEM_HANDLE_TYPE_WIN32;
    CUmemGenericAllocationHandle h = 0;
    CUresult r = cuMemImportFromShareableHandle(&h, os_handle, type);
    printf("import %d %s\n", (int)r, r ? extmem_error_detail() : "");
    if (r)
        return 0;
    {
        Mapped m(h, granularity());
        printf("read %u\n", m.words()[0]);
        m.words()[0] = (unsigned int)std::stoul(args[3]);
    }
    cuMemRelease(h);
    if (type == CU_MEM_HANDLE_TYPE_WIN32)
        CloseHandle(as_handle(os_handle)); // it was inherited: this process's to close
    printf("done\n");
    return 0;
}

TEST_F(Win32Handles, AnotherProcess_ImportsAnInheritedNtHandle)
{
    SECURITY_ATTRIBUTES sa = {sizeof(sa), nullptr, TRUE}; // default DACL, inheritable exports
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 41, &sa);
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    char hex[32];
    snprintf(hex, sizeof(hex), "%llx", (unsigned long long)(uintptr_t)h);
    {
        Child c("vmm_importer", {"nt", hex, "41", "42"});
        EXPECT_EQ("import 0 ", c.read_line());
        EXPECT_EQ("read 41", c.read_line());
        EXPECT_EQ("done", c.read_line());
        EXPECT_EQ(0, c.wait());
    }
    CloseHandle(h);
    Mapped m(a, gran);
    EXPECT_EQ(42u, m.words()[0]);
    EXPECT_OK(cuMemRelease(a));
}

TEST_F(Win32Handles, AnotherProcess_ImportsAKmtHandle_UntilTheMemoryIsGone)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32_KMT, 8);
    unsigned int kmt = 0;
    ASSERT_OK(cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    char hex[32];
    snprintf(hex, sizeof(hex), "%x", kmt);
    {
        Child c("vmm_importer", {"kmt", hex, "8", "9"});
        EXPECT_EQ("import 0 ", c.read_line());
        EXPECT_EQ("read 8", c.read_line());
        EXPECT_EQ("done", c.read_line());
        EXPECT_EQ(0, c.wait());
    }
    {
        Mapped m(a, gran);
        EXPECT_EQ(9u, m.words()[0]);
    }
    EXPECT_OK(cuMemRelease(a));
    Child c("vmm_importer", {"kmt", hex, "8", "9"});
    std::string line = c.read_line();
    EXPECT_EQ(0u, line.find("import 1 ")) << line; // CUDA_ERROR_INVALID_VALUE
    EXPECT_NE(std::string::npos, line.find("holds no reference")) << line;
    EXPECT_EQ(0, c.wait());
}

// ---- cuImportExternalMemory ----

namespace {

CUDA_EXTERNAL_MEMORY_HANDLE_DESC win32_desc(CUexternalMemoryHandleType type, const void *handle, const void *name,
                                            unsigned long long size)
{
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = {};
    d.type = type;
    d.handle.win32.handle = (void *)handle;
    d.handle.win32.name = name;
    d.size = size;
    return d;
}

unsigned int first_word(CUexternalMemory ext, unsigned long long offset)
{
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.offset = offset;
    b.size = 4096;
    CUdeviceptr p = 0;
    EXPECT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &b));
    unsigned int v = 0;
    EXPECT_OK(cuMemcpyDtoH(&v, p, 4));
    EXPECT_OK(cuMemFree(p));
    return v;
}

} // namespace

TEST_F(Win32Handles, ExternalOpaqueWin32Handle_StaysTheCallers_ExtmemHoldsItsOwnReference)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32, 12);
    HANDLE h = nullptr;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    EXPECT_OK(cuMemRelease(a)); // the exported handle keeps the memory
    int before = open_fd_count();
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, h, nullptr, gran);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &d));
    EXPECT_TRUE(fd_is_open((int)(intptr_t)h));
    EXPECT_EQ(before + 1, open_fd_count()); // extmem's own duplicate
    CloseHandle(h); // the specification: the application releases its handle
    EXPECT_EQ(12u, first_word(ext, 8192)); // extmem's reference keeps the memory
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_EQ(before - 1, open_fd_count());
}

TEST_F(Win32Handles, ExternalOpaqueWin32Name_OpensANamedSection_OfAnyProgram)
{
    wchar_t name[64];
    swprintf(name, 64, L"Local\\extmem-test-%lu", GetCurrentProcessId());
    HANDLE section = CreateFileMappingW(INVALID_HANDLE_VALUE, nullptr, PAGE_READWRITE, 0, 65536, name);
    ASSERT_NE(nullptr, section);
    auto *view = (unsigned int *)MapViewOfFile(section, FILE_MAP_ALL_ACCESS, 0, 0, 0);
    ASSERT_NE(nullptr, view);
    view[1024] = 0xabcd;
    int before = open_fd_count();
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, nullptr, name, 65536);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &d));
    EXPECT_EQ(0xabcdu, first_word(ext, 4096)); // zero-copy, both ways:
    CUDA_EXTERNAL_MEMORY_BUFFER_DESC b = {};
    b.size = 65536;
    CUdeviceptr p = 0;
    ASSERT_OK(cuExternalMemoryGetMappedBuffer(&p, ext, &b));
    EXPECT_OK(cuMemsetD32(p + 8192, 0x5eed, 1));
    EXPECT_EQ(0x5eedu, view[2048]);
    EXPECT_OK(cuMemFree(p));
    b.size = 65536 + 4096; // past the section's end
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuExternalMemoryGetMappedBuffer(&p, ext, &b));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_EQ(before, open_fd_count());
    UnmapViewOfFile(view);
    CloseHandle(section);
    // Gone with its last handle: the name opens nothing now.
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("extmem-test-");
}

TEST_F(Win32Handles, ExternalOpaqueWin32Kmt_OpensByToken_HoldsNoReferenceOfTheCallers)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32_KMT, 21);
    unsigned int kmt = 0;
    ASSERT_OK(cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC d =
        win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT, (void *)(uintptr_t)kmt, nullptr, gran);
    CUexternalMemory ext = nullptr;
    ASSERT_OK(cuImportExternalMemory(&ext, &d));
    EXPECT_OK(cuMemRelease(a)); // the import itself holds the memory now
    EXPECT_EQ(21u, first_word(ext, 0));
    EXPECT_OK(cuDestroyExternalMemory(ext));
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d)); // every reference is gone
    EXPECT_DETAIL_HAS("holds no reference");
}

TEST_F(Win32Handles, ExternalWin32Descriptors_FollowTheSpecificationsHandleAndNameRules)
{
    CUmemGenericAllocationHandle a = make(CU_MEM_HANDLE_TYPE_WIN32 | CU_MEM_HANDLE_TYPE_WIN32_KMT, 1);
    HANDLE h = nullptr;
    unsigned int kmt = 0;
    ASSERT_OK(cuMemExportToShareableHandle(&h, a, CU_MEM_HANDLE_TYPE_WIN32, 0));
    ASSERT_OK(cuMemExportToShareableHandle(&kmt, a, CU_MEM_HANDLE_TYPE_WIN32_KMT, 0));
    int before = open_fd_count();
    CUexternalMemory ext = nullptr;
    const wchar_t *name = L"Local\\extmem-no-such-section";
    auto d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, h, name, gran); // both
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("exactly one");
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, nullptr, nullptr, gran); // neither
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, nullptr, name, gran); // no such name
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("extmem-no-such-section");
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT, (void *)(uintptr_t)kmt, name, gran); // a name
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("no name");
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT, nullptr, nullptr, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32_KMT, (void *)(uintptr_t)0x40000000u, nullptr, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d)); // a token nobody has
    // A handle of the wrong kind, or closed: refused, and the caller's handle is untouched.
    HANDLE event = CreateEventA(nullptr, TRUE, FALSE, nullptr);
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, event, nullptr, gran);
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    EXPECT_DETAIL_HAS("not a section");
    EXPECT_DETAIL_HAS("stays yours");
    EXPECT_TRUE(fd_is_open((int)(intptr_t)event));
    CloseHandle(event);
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_WIN32, event, nullptr, gran); // closed now
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    // The POSIX types do not exist here; Direct3D is not imported yet; NVSCIBUF never.
    CUDA_EXTERNAL_MEMORY_HANDLE_DESC fd = {};
    fd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_OPAQUE_FD;
    fd.handle.fd = 3;
    fd.size = gran;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&ext, &fd));
    fd.type = CU_EXTERNAL_MEMORY_HANDLE_TYPE_DMABUF_FD;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&ext, &fd));
    d = win32_desc(CU_EXTERNAL_MEMORY_HANDLE_TYPE_D3D12_RESOURCE, h, nullptr, gran); // no DEDICATED flag
    EXPECT_CU(CUDA_ERROR_INVALID_VALUE, cuImportExternalMemory(&ext, &d));
    d.flags = CUDA_EXTERNAL_MEMORY_DEDICATED;
    EXPECT_CU(CUDA_ERROR_NOT_SUPPORTED, cuImportExternalMemory(&ext, &d));
    EXPECT_EQ(nullptr, ext);
    EXPECT_EQ(before, open_fd_count());
    CloseHandle(h);
    EXPECT_OK(cuMemRelease(a));
}

// ---- IPC: the sections behind cuIpc* handles ----

TEST_F(Win32Handles, IpcSections_AdmitTheirOwnerAlone_AndAreNamedAfterTheHandlesNonce)
{
    CUdeviceptr p = 0;
    ASSERT_OK(cuMemAlloc(&p, 1 << 20));
    CUipcMemHandle handle;
    ASSERT_OK(cuIpcGetMemHandle(&handle, p));
    // The handle's layout (src/interop/ipc.c): pid at 8, the section's token at 12, the size at 32,
    // the nonce at 40, masked with the size (mask_nonce there, which this undoes).
    unsigned char bytes[64];
    memcpy(bytes, &handle, 64);
    uint32_t pid, token;
    uint64_t size;
    memcpy(&pid, bytes + 8, 4);
    memcpy(&token, bytes + 12, 4);
    memcpy(&size, bytes + 32, 8);
    for (int half = 0; half < 2; ++half) {
        uint64_t z = (half ? ~size : size) + 0x9e3779b97f4a7c15ull;
        z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ull;
        z = (z ^ (z >> 27)) * 0x94d049bb133111ebull;
        z ^= z >> 31;
        for (int i = 0; i < 8; ++i)
            bytes[40 + 8 * half + i] ^= (unsigned char)(z >> (8 * i));
    }
    std::string name = "Local\\extmem-device-" + to_hex(bytes + 40, 16) + "-" + std::to_string(pid) + "-" +
                       std::to_string(token);
    HANDLE section = OpenFileMappingA(FILE_MAP_READ | READ_CONTROL, FALSE, name.c_str());
    ASSERT_NE(nullptr, section) << name << ": error " << GetLastError();
    std::vector<std::string> sids = dacl_sids(section);
    ASSERT_EQ(1u, sids.size());
    EXPECT_EQ(my_user_sid(), sids[0]);
    CloseHandle(section);
    bytes[40] ^= 1; // a guessed nonce names no section
    name = "Local\\extmem-device-" + to_hex(bytes + 40, 16) + "-" + std::to_string(pid) + "-" + std::to_string(token);
    EXPECT_EQ(nullptr, OpenFileMappingA(FILE_MAP_READ, FALSE, name.c_str()));
    EXPECT_OK(cuMemFree(p));
}
