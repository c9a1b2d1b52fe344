// The Windows versions of fds.cpp and child.cpp (framework/testing.h): handle counting, and
// the test program run again in a role through CreateProcess. Windows cannot fork, so
// run_in_child reports a child that never ran; the tests that need it are POSIX-only
// (tests/CMakeLists.txt lists them).
#include "framework/testing.h"

#ifndef WIN32_LEAN_AND_MEAN
#define WIN32_LEAN_AND_MEAN
#endif
#ifndef NOMINMAX
#define NOMINMAX
#endif
#include <windows.h>

#include <fcntl.h>
#include <io.h>

namespace extmem_test {

// ntdll's SystemExtendedHandleInformation and ObjectTypeInformation (winternl.h declares
// neither): every handle of every process, of which this counts its own of some types.
struct system_handle_entry {
    void *object;
    ULONG_PTR process_id;
    ULONG_PTR handle;
    ULONG access;
    USHORT backtrace_index;
    USHORT type_index;
    ULONG attributes;
    ULONG reserved;
};
struct system_handle_information {
    ULONG_PTR count;
    ULONG_PTR reserved;
    system_handle_entry handles[1];
};
struct object_type_information {
    USHORT length;
    USHORT maximum_length;
    WCHAR *name;
    unsigned char rest[512];
};
typedef LONG(NTAPI *query_system_information_fn)(int, void *, ULONG, ULONG *);
typedef LONG(NTAPI *query_object_fn)(HANDLE, int, void *, ULONG, ULONG *);

static FARPROC ntdll(const char *name) { return GetProcAddress(GetModuleHandleA("ntdll.dll"), name); }

enum handle_kind { NOT_A_HANDLE, OTHER_KIND, COUNTED_KIND };

// The kinds of object extmem holds handles to: sections (every allocation and interprocess
// event holds one) and processes (IPC). Threads, events, semaphores and mutexes are left out:
// the C runtime, winpthreads (behind mingw-w64's thread-locals) and wine create those per
// thread, lazily, so their number follows thread activity rather than leaks.
static handle_kind kind_of(HANDLE h)
{
    static auto query = (query_object_fn)(void (*)(void))ntdll("NtQueryObject");
    object_type_information type = {};
    ULONG got = 0;
    if (!query || query(h, 2 /* ObjectTypeInformation */, &type, sizeof(type), &got) < 0 || !type.name)
        return NOT_A_HANDLE;
    std::wstring name(type.name, type.length / sizeof(WCHAR));
    return name == L"Section" || name == L"Process" ? COUNTED_KIND : OTHER_KIND;
}

// Windows: the system's list of handles.
static int count_from_system_list()
{
    static auto query = (query_system_information_fn)(void (*)(void))ntdll("NtQuerySystemInformation");
    if (!query)
        return -1;
    std::vector<unsigned char> buf(1 << 20);
    LONG status;
    for (;;) {
        ULONG needed = 0;
        status = query(64 /* SystemExtendedHandleInformation */, buf.data(), (ULONG)buf.size(), &needed);
        if (status != (LONG)0xC0000004L /* STATUS_INFO_LENGTH_MISMATCH */)
            break;
        buf.resize(buf.size() * 2 > needed ? buf.size() * 2 : needed + 4096);
    }
    if (status < 0)
        return -1;
    auto *info = reinterpret_cast<system_handle_information *>(buf.data());
    ULONG_PTR self = GetCurrentProcessId();
    int n = 0;
    for (ULONG_PTR i = 0; i < info->count; ++i)
        n += info->handles[i].process_id == self && kind_of((HANDLE)info->handles[i].handle) == COUNTED_KIND;
    return n;
}

// Wine: its wineserver (8.0) crashes when it lists the system's handles while another process
// exits, which ctest's parallel processes make happen. Wine gives out handle values from the
// lowest free one up (4, 8, 12...), so trying values until a long run of non-handles finds
// them all.
static int count_by_probing()
{
    int n = 0, misses = 0;
    for (uintptr_t value = 4; misses < 1024; value += 4) {
        handle_kind k = kind_of((HANDLE)value);
        misses = k == NOT_A_HANDLE ? misses + 1 : 0;
        n += k == COUNTED_KIND;
    }
    return n;
}

// Handles of this process of the counted kinds. GetProcessHandleCount counts every kind (and
// wine's answers 0), hence the lists.
int open_fd_count()
{
    static bool wine = ntdll("wine_get_version") != nullptr;
    return wine ? count_by_probing() : count_from_system_list();
}

bool fd_is_open(int fd)
{
    DWORD flags;
    return GetHandleInformation((HANDLE)(intptr_t)fd, &flags) != 0;
}

void *map_inaccessible(size_t size) { return VirtualAlloc(nullptr, size, MEM_RESERVE | MEM_COMMIT, PAGE_NOACCESS); }

void unmap_inaccessible(void *p, size_t size)
{
    (void)size; // a VirtualAlloc region goes as a whole
    VirtualFree(p, 0, MEM_RELEASE);
}

ChildResult run_in_child(const std::function<int()> &fn)
{
    (void)fn;
    ADD_FAILURE() << "run_in_child: Windows cannot fork; this test belongs to the POSIX-only list";
    return ChildResult{false, -1, 0};
}

static std::string quoted(const std::string &arg)
{
    // The arguments here are role names and hex text: quoting is enough, nothing to escape.
    return "\"" + arg + "\"";
}

Child::Child(const std::string &role, const std::vector<std::string> &args)
{
    SECURITY_ATTRIBUTES inherit = {sizeof(inherit), nullptr, TRUE};
    HANDLE to_child_read, to_child_write, from_child_read, from_child_write;
    if (!CreatePipe(&to_child_read, &to_child_write, &inherit, 0))
        return;
    if (!CreatePipe(&from_child_read, &from_child_write, &inherit, 0)) {
        CloseHandle(to_child_read);
        CloseHandle(to_child_write);
        return;
    }
    // Only the child's ends are inherited.
    SetHandleInformation(to_child_write, HANDLE_FLAG_INHERIT, 0);
    SetHandleInformation(from_child_read, HANDLE_FLAG_INHERIT, 0);
    char exe[MAX_PATH];
    DWORD n = GetModuleFileNameA(nullptr, exe, sizeof(exe));
    exe[n < sizeof(exe) ? n : 0] = '\0';
    std::string cmd = quoted(exe) + " --extmem-child-role " + quoted(role);
    for (const auto &a : args)
        cmd += " " + quoted(a);
    STARTUPINFOA si = {};
    si.cb = sizeof(si);
    si.dwFlags = STARTF_USESTDHANDLES;
    si.hStdInput = to_child_read;
    si.hStdOutput = from_child_write;
    si.hStdError = GetStdHandle(STD_ERROR_HANDLE);
    PROCESS_INFORMATION pi = {};
    std::vector<char> line(cmd.begin(), cmd.end());
    line.push_back('\0');
    if (CreateProcessA(exe, line.data(), nullptr, nullptr, TRUE, 0, nullptr, nullptr, &si, &pi)) {
        CloseHandle(pi.hThread);
        process_ = pi.hProcess;
        pid_ = (process_id)pi.dwProcessId;
    }
    CloseHandle(to_child_read);
    CloseHandle(from_child_write);
    // The C runtime's descriptors own the pipe handles from here on.
    in_ = _open_osfhandle((intptr_t)to_child_write, _O_WRONLY | _O_BINARY);
    int out = _open_osfhandle((intptr_t)from_child_read, _O_RDONLY | _O_BINARY);
    out_ = out >= 0 ? _fdopen(out, "rb") : nullptr;
}

Child::~Child()
{
    if (in_ >= 0)
        _close(in_);
    if (process_ && status_ < 0) {
        TerminateProcess(process_, 128 + 9);
        wait();
    }
    if (out_)
        fclose(out_);
    if (process_)
        CloseHandle(process_);
}

static LONG CALLBACK end_on_fault(EXCEPTION_POINTERS *info)
{
    if (info->ExceptionRecord->ExceptionCode != EXCEPTION_ACCESS_VIOLATION)
        return EXCEPTION_CONTINUE_SEARCH;
    // ExceptionInformation: [0] 0 read, 1 write, 8 execute; [1] the address.
    fprintf(stderr, "access violation: %s at %p\n", info->ExceptionRecord->ExceptionInformation[0] ? "write" : "read",
            (void *)info->ExceptionRecord->ExceptionInformation[1]);
    fflush(stderr);
    TerminateProcess(GetCurrentProcess(), 128 + 11); // what a SIGSEGV'd child reports on POSIX
    return EXCEPTION_CONTINUE_SEARCH;
}

void fault_kills_process() { AddVectoredExceptionHandler(1, end_on_fault); }

void Child::kill_now()
{
    if (process_ && status_ < 0)
        TerminateProcess(process_, 128 + 9); // what a SIGKILL'd child reports on POSIX
}

std::string Child::read_line()
{
    char buf[512];
    if (!out_ || !fgets(buf, sizeof(buf), out_))
        return "";
    std::string s(buf);
    while (!s.empty() && (s.back() == '\n' || s.back() == '\r'))
        s.pop_back();
    return s;
}

void Child::write_line(const std::string &s)
{
    std::string line = s + "\n";
    if (in_ >= 0 && _write(in_, line.data(), (unsigned)line.size()) != (int)line.size())
        perror("write to child");
}

int Child::wait()
{
    if (status_ >= 0 || !process_)
        return status_;
    WaitForSingleObject(process_, INFINITE);
    DWORD code = 0;
    GetExitCodeProcess(process_, &code);
    status_ = (int)code;
    return status_;
}

} // namespace extmem_test
