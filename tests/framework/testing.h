/* tests/framework/testing.h: helpers shared by the test programs. */
#ifndef EXTMEM_TESTS_TESTING_H
#define EXTMEM_TESTS_TESTING_H

#include <gtest/gtest.h>

#include <cstdio>
#include <functional>
#include <string>
#include <vector>
#if !defined(_WIN32)
#include <sys/types.h>
#endif

#include "extmem/extmem.h"

namespace extmem_test {

/* Number of open file descriptors of this process (Windows: of its handles to the kinds of
 * object extmem holds, sections and processes; framework/win32.cpp says why). */
int open_fd_count();

/* True when fd is an open descriptor of this process (Windows: an open handle's value). */
bool fd_is_open(int fd);

/* Host memory that is mapped but cannot be read or written (PROT_NONE; PAGE_NOACCESS), and its
 * release: unmapped again, the same addresses are a hole. */
void *map_inaccessible(size_t size);
void unmap_inaccessible(void *p, size_t size);

/* The handle type this platform shares VMM allocations through (POSIX fds on Linux, NT
 * handles on Windows), and one of the other platform's. */
#if defined(_WIN32)
constexpr CUmemAllocationHandleType kNativeHandleType = CU_MEM_HANDLE_TYPE_WIN32;
constexpr CUmemAllocationHandleType kForeignHandleType = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
#else
constexpr CUmemAllocationHandleType kNativeHandleType = CU_MEM_HANDLE_TYPE_POSIX_FILE_DESCRIPTOR;
constexpr CUmemAllocationHandleType kForeignHandleType = CU_MEM_HANDLE_TYPE_WIN32;
#endif

/* A process id: pid_t on POSIX, a DWORD's value on Windows (whose C runtime has no pid_t). */
#if defined(_WIN32)
typedef int process_id;
#else
typedef pid_t process_id;
#endif

/* Runs fn in a forked child and returns how it ended (POSIX only: Windows cannot fork, and
 * there it reports a child that never ran). */
struct ChildResult {
    bool exited;     /* exited normally */
    int exit_code;   /* when exited */
    int signal;      /* when killed by a signal */
};
ChildResult run_in_child(const std::function<int()> &fn);

/* ---- Real child processes: the test program run again in a role ----
 * EXTMEM_CHILD_ROLE(name) { ... } defines a role; spawn_role() starts this program as a new
 * process (exec, so the child initialises extmem itself, as a real second process does) that
 * runs the role with the given arguments and exits with its return value. The child's stdout
 * is a pipe the parent reads lines from; its stdin is a pipe the parent writes lines to. */
typedef int (*ChildRole)(const std::vector<std::string> &args);
struct ChildRoleRegistrar {
    ChildRoleRegistrar(const char *name, ChildRole fn);
};
#define EXTMEM_CHILD_ROLE(name)                                                      \
    static int name##_role(const std::vector<std::string> &args);                   \
    static ::extmem_test::ChildRoleRegistrar name##_registrar(#name, name##_role);   \
    static int name##_role(const std::vector<std::string> &args)

class Child {
public:
    Child(const std::string &role, const std::vector<std::string> &args = {});
    ~Child();
    std::string read_line();               /* "" at end of file */
    void write_line(const std::string &s);
    int wait();                            /* exit code, or 128 + signal */
    void kill_now();                       /* ends it at once: wait() then says 128 + 9 */
    process_id pid() const { return pid_; }
private:
    process_id pid_ = -1;
    void *process_ = nullptr; /* Windows: the child's process handle */
    FILE *out_ = nullptr;
    int in_ = -1;
    int status_ = -1;
};

/* From now on a memory fault ends this process at once, as an uncaught SIGSEGV does on POSIX:
 * no sanitizer's report, no debugger (wine's winedbg), and Child::wait() in the parent says
 * 128 + 11 on both platforms. For roles that fault on purpose. */
void fault_kills_process();

/* Runs the role named by argv when this program was started as a child; returns -1 when it
 * was not. Called by the framework's main. */
int run_child_role(int argc, char **argv);

/* Bytes as hex text and back, to pass handles on command lines and pipes. */
std::string to_hex(const void *data, size_t size);
bool from_hex(const std::string &text, void *data, size_t size);

/* A current context on the software device for the length of a test. */
class ContextTest : public ::testing::Test {
protected:
    void SetUp() override;
    void TearDown() override;
    CUcontext ctx = nullptr;
};

} // namespace extmem_test

/* Asserts a result code and shows the error detail when it differs; more text may follow
 * with <<. */
#define EXPECT_CU(expected, call) \
    EXPECT_EQ((int)(expected), (int)(call)) << #call << ": " << extmem_error_detail() << " "
#define ASSERT_CU(expected, call) \
    ASSERT_EQ((int)(expected), (int)(call)) << #call << ": " << extmem_error_detail() << " "
#define EXPECT_OK(call) EXPECT_CU(CUDA_SUCCESS, call)
#define ASSERT_OK(call) ASSERT_CU(CUDA_SUCCESS, call)

/* Checks that the failure just seen recorded a reason mentioning text. */
#define EXPECT_DETAIL_HAS(text) \
    EXPECT_NE(std::string(extmem_error_detail()).find(text), std::string::npos) << extmem_error_detail()

#endif
