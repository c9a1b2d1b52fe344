/*
 * tests/fuzz/vmm_replay.c: runs the VMM driver (vmm_driver.h) over the files of a corpus,
 * for builds without libFuzzer (gcc): the fuzz target's inputs still run in every build.
 *
 * Usage: extmem-vmm-replay FILE_OR_DIRECTORY...
 * Exits 0 when every input matched the model, 1 on the first difference (printed), 2 on a
 * usage or I/O error.
 */
#define _GNU_SOURCE
#include "vmm_driver.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/stat.h>

static vmm_driver_result result;

static int replay_file(const char *path)
{
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    static uint8_t data[1 << 20];
    size_t n = fread(data, 1, sizeof(data), f);
    fclose(f);
    int ok = vmm_driver_run(data, n, 0, &result);
    size_t successes = 0, calls = 0;
    for (int op = 0; op < VMM_OP_COUNT; ++op) {
        successes += result.successes[op];
        calls += result.calls[op];
    }
    printf("%s: %zu bytes, %zu steps, %zu of %zu calls succeeded, at most %zu mappings: %s\n", path, n, result.steps,
           successes, calls, result.max_mappings, ok ? "matches the model" : "DIFFERS");
    if (!ok)
        printf("%s", result.message);
    return ok ? 0 : 1;
}

static int by_name(const struct dirent **a, const struct dirent **b) { return strcmp((*a)->d_name, (*b)->d_name); }

static int replay(const char *path)
{
    struct stat st;
    if (stat(path, &st) != 0) {
        perror(path);
        return 2;
    }
    if (!S_ISDIR(st.st_mode))
        return replay_file(path);
    struct dirent **names;
    int n = scandir(path, &names, NULL, by_name), status = 0;
    if (n < 0) {
        perror(path);
        return 2;
    }
    int files = 0;
    for (int i = 0; i < n; ++i) {
        char full[4096];
        snprintf(full, sizeof(full), "%s/%s", path, names[i]->d_name);
        if (names[i]->d_name[0] != '.' && stat(full, &st) == 0 && S_ISREG(st.st_mode) && status == 0) {
            status = replay_file(full);
            files++;
        }
        free(names[i]);
    }
    free(names);
    if (files == 0) {
        fprintf(stderr, "%s: no inputs\n", path);
        return 2;
    }
    return status;
}

int main(int argc, char **argv)
{
    if (argc < 2) {
        fprintf(stderr, "usage: %s FILE_OR_DIRECTORY...\n", argv[0]);
        return 2;
    }
    char why[256];
    if (vmm_driver_setup(why, sizeof(why)) != 0) {
        fprintf(stderr, "%s: %s\n", argv[0], why);
        return 2;
    }
    for (int i = 1; i < argc; ++i) {
        int status = replay(argv[i]);
        if (status)
            return status;
    }
    return 0;
}
