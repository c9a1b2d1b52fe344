// The framework's portable parts (framework/testing.h): child roles (the test program run
// again as a child; child.cpp and win32.cpp start them), hex helpers, and ContextTest.
#include "framework/testing.h"

#include <map>

namespace extmem_test {

static std::map<std::string, ChildRole> &roles()
{
    static std::map<std::string, ChildRole> r;
    return r;
}

ChildRoleRegistrar::ChildRoleRegistrar(const char *name, ChildRole fn) { roles()[name] = fn; }

int run_child_role(int argc, char **argv)
{
    if (argc < 3 || std::string(argv[1]) != "--extmem-child-role")
        return -1;
    auto it = roles().find(argv[2]);
    if (it == roles().end()) {
        fprintf(stderr, "no child role %s\n", argv[2]);
        return 99;
    }
    std::vector<std::string> args(argv + 3, argv + argc);
    /* The parent reads the child's lines as they come. Unbuffered rather than line-buffered:
     * Windows' C runtime has no line buffering (it takes _IOLBF for full buffering). */
    setvbuf(stdout, nullptr, _IONBF, 0);
    return it->second(args);
}

std::string to_hex(const void *data, size_t size)
{
    static const char digits[] = "0123456789abcdef";
    std::string s;
    for (size_t i = 0; i < size; ++i) {
        unsigned char b = static_cast<const unsigned char *>(data)[i];
        s += digits[b >> 4];
        s += digits[b & 15];
    }
    return s;
}

bool from_hex(const std::string &text, void *data, size_t size)
{
    if (text.size() != 2 * size)
        return false;
    for (size_t i = 0; i < size; ++i)
        static_cast<unsigned char *>(data)[i] = (unsigned char)std::stoi(text.substr(2 * i, 2), nullptr, 16);
    return true;
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
