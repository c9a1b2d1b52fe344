/* tests/framework/testing.h: helpers shared by the test programs. */
#ifndef EXTMEM_TESTS_TESTING_H
#define EXTMEM_TESTS_TESTING_H

#include <gtest/gtest.h>

#include <functional>
#include <string>

#include "extmem/extmem.h"

namespace extmem_test {

/* Number of open file descriptors of this process. */
int open_fd_count();

/* True when fd is an open descriptor of this process. */
bool fd_is_open(int fd);

/* Runs fn in a forked child and returns how it ended. */
struct ChildResult {
    bool exited;     /* exited normally */
    int exit_code;   /* when exited */
    int signal;      /* when killed by a signal */
};
ChildResult run_in_child(const std::function<int()> &fn);

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
