// Child processes on POSIX (framework/testing.h): forked ones, and the test program run again
// in a role. framework/win32.cpp is the Windows version of this file and fds.cpp.
#include "framework/testing.h"

#include <fcntl.h>
#include <signal.h>
#include <spawn.h>
#include <sys/wait.h>
#include <unistd.h>

extern char **environ;

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

void fault_kills_process()
{
    signal(SIGSEGV, SIG_DFL); // a sanitizer's handler would turn the fault into an exit code
    signal(SIGBUS, SIG_DFL);
}

void Child::kill_now()
{
    if (pid_ > 0 && status_ < 0)
        kill(pid_, SIGKILL);
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

} // namespace extmem_test
