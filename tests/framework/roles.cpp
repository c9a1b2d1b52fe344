// Child processes that are this test program again, in a role (framework/testing.h).
#include "framework/testing.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

#include <map>

extern char **environ;

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
    setvbuf(stdout, nullptr, _IOLBF, 0);
    return it->second(args);
}

Child::Child(const std::string &role, const std::vector<std::string> &args)
{
    int to_child[2], from_child[2];
    if (pipe2(to_child, O_CLOEXEC) != 0 || pipe2(from_child, O_CLOEXEC) != 0)
        return;
    posix_spawn_file_actions_t actions;
    posix_spawn_file_actions_init(&actions);
    posix_spawn_file_actions_adddup2(&actions, to_child[0], 0);
    posix_spawn_file_actions_adddup2(&actions, from_child[1], 1);
    std::vector<std::string> all = {"/proc/self/exe", "--extmem-child-role", role};
    all.insert(all.end(), args.begin(), args.end());
    std::vector<char *> argv;
    for (auto &a : all)
        argv.push_back(const_cast<char *>(a.c_str()));
    argv.push_back(nullptr);
    char exe[4096];
    ssize_t n = readlink("/proc/self/exe", exe, sizeof(exe) - 1);
    exe[n > 0 ? n : 0] = '\0';
    if (posix_spawn(&pid_, exe, &actions, nullptr, argv.data(), environ) != 0)
        pid_ = -1;
    posix_spawn_file_actions_destroy(&actions);
    close(to_child[0]);
    close(from_child[1]);
    in_ = to_child[1];
    out_ = fdopen(from_child[0], "r");
}

Child::~Child()
{
    if (in_ >= 0)
        close(in_);
    if (pid_ > 0 && status_ < 0) {
        kill(pid_, SIGKILL);
        wait();
    }
    if (out_)
        fclose(out_);
}

std::string Child::read_line()
{
    char buf[512];
    if (!out_ || !fgets(buf, sizeof(buf), out_))
        return "";
    std::string s(buf);
    if (!s.empty() && s.back() == '\n')
        s.pop_back();
    return s;
}

void Child::write_line(const std::string &s)
{
    std::string line = s + "\n";
    if (in_ >= 0 && write(in_, line.data(), line.size()) != (ssize_t)line.size())
        perror("write to child");
}

int Child::wait()
{
    if (status_ >= 0 || pid_ <= 0)
        return status_;
    int st = 0;
    waitpid(pid_, &st, 0);
    status_ = WIFEXITED(st) ? WEXITSTATUS(st) : 128 + WTERMSIG(st);
    return status_;
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

} // namespace extmem_test
