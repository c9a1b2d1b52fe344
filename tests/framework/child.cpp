#include "framework/testing.h"

#include <sys/wait.h>
#include <unistd.h>

namespace extmem_test {

ChildResult run_in_child(const std::function<int()> &fn)
{
    fflush(nullptr);
    pid_t pid = fork();
    if (pid == 0)
        _exit(fn());
    ChildResult r{false, -1, 0};
    int status = 0;
    if (pid < 0 || waitpid(pid, &status, 0) != pid)
        return r;
    if (WIFEXITED(status)) {
        r.exited = true;
        r.exit_code = WEXITSTATUS(status);
    } else if (WIFSIGNALED(status)) {
        r.signal = WTERMSIG(status);
    }
    return r;
}

void ContextTest::SetUp()
{
    ASSERT_OK(cuInit(0));
    CUdevice dev;
    ASSERT_OK(cuDeviceGet(&dev, 0));
    ASSERT_OK(cuCtxCreate(&ctx, nullptr, 0, dev));
}

void ContextTest::TearDown()
{
    if (ctx)
        EXPECT_OK(cuCtxDestroy(ctx));
}

} // namespace extmem_test
