/* The test programs' main: GoogleTest plus a check after every test case that it left no
 * file descriptor open (DESIGN.md §12). */
#include "framework/testing.h"

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
    int child = extmem_test::run_child_role(argc, argv);
    if (child >= 0)
        return child;
    ::testing::InitGoogleTest(&argc, argv);
    ::testing::UnitTest::GetInstance()->listeners().Append(new FdLeakCheck);
    return RUN_ALL_TESTS();
}
