/* The test programs' main: GoogleTest plus a check after every test case that it left no
 * file descriptor open (DESIGN.md §12). */
#include "framework/testing.h"

#include <cstdlib>

namespace {

class FdLeakCheck : public ::testing::EmptyTestEventListener {
    int before_ = 0;
    void OnTestStart(const ::testing::TestInfo &) override { before_ = extmem_test::open_fd_count(); }
    void OnTestEnd(const ::testing::TestInfo &) override
    {
        int after = extmem_test::open_fd_count();
        EXPECT_EQ(before_, after) << "the test leaked " << (after - before_) << " file descriptor(s)";
    }
};

} // namespace

int main(int argc, char **argv)
{
    /* Kernels run on the portable executor unless the environment (or a test of the native
     * tier itself) asks for another: under EXTMEM_JIT=auto a module's first launch starts a
     * compile in the background, whose compiler pipes would count as this test's descriptors. */
#if defined(_WIN32)
    if (!std::getenv("EXTMEM_JIT"))
        _putenv("EXTMEM_JIT=portable");
#else
    setenv("EXTMEM_JIT", "portable", 0);
#endif
    int child = extmem_test::run_child_role(argc, argv);
    if (child >= 0)
        return child;
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new FdLeakCheck);
    return RUN_ALL_TESTS();
}
