/*
 * tests/fuzz/import_replay.c: runs the import driver (import_driver.h) over the files of a
 * corpus, in builds without libFuzzer, plus a stream of seeded random inputs.
 *
 * Usage: extmem-import-replay RANDOM_INPUTS FILE_OR_DIRECTORY...
 */
#define _GNU_SOURCE
#include "import_driver.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *name, const uint8_t *data, size_t n)
{
    char message[512];
    if (import_driver_run(data, n, message, sizeof(message)))
        return 0;
    printf("%s (%zu bytes): DIFFERS: %s", name, n, message);
    return 1;
}

static int replay_file(const char *path)
{
    static uint8_t data[1 << 16];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 2;
    }
    size_t n = fread(data, 1, sizeof(data), f);
    fclose(f);
    return run(path, data, n);
}

int main(int argc, char **argv)
{
    if (argc < 2)
        return 2;
    int random_inputs = atoi(argv[1]), failures = 0, files = 0;
    for (int i = 2; i < argc; ++i) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            failures += replay_file(argv[i]) != 0;
            files++;
            continue;
        }
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
            failures += replay_file(path) != 0;
            files++;
        }
        closedir(d);
    }
    srand(12345);
    for (int i = 0; i < random_inputs; ++i) {
        uint8_t data[2048];
        size_t n = (size_t)(rand() % (int)sizeof(data));
        for (size_t k = 0; k < n; ++k)
            data[k] = (uint8_t)rand();
        char name[32];
        snprintf(name, sizeof(name), "random input %d", i);
        failures += run(name, data, n);
    }
    unsigned long imports, buffers;
    import_driver_counts(&imports, &buffers);
    printf("%lu successful imports, %lu mapped buffers checked\n", imports, buffers);
    printf("%d corpus files and %d random inputs: %d differ\n", files, random_inputs, failures);
    return failures ? 1 : 0;
}
