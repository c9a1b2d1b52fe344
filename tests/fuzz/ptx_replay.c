/*
 * tests/fuzz/ptx_replay.c: runs the PTX driver (ptx_driver.h) over the files of a corpus, in
 * builds without libFuzzer, and over mutations of them: each file cut at many places, and
 * with bytes flipped by a seeded generator, so every build walks the front end's error paths.
 *
 * Usage: extmem-ptx-replay MUTATIONS_PER_FILE FILE_OR_DIRECTORY...
 */
#define _GNU_SOURCE
#include "ptx_driver.h"

#include <dirent.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int run(const char *name, const uint8_t *data, size_t n)
{
    char message[512];
    if (ptx_driver_run(data, n, message, sizeof(message)))
        return 0;
    printf("%s (%zu bytes): DIFFERS: %s", name, n, message);
    return 1;
}

static int replay_file(const char *path, int mutations)
{
    static uint8_t data[1 << 20], work[1 << 20];
    FILE *f = fopen(path, "rb");
    if (!f) {
        perror(path);
        return 1;
    }
    size_t n = fread(data, 1, sizeof(data), f);
    fclose(f);
    int failures = run(path, data, n);
    char name[4200];
    for (int i = 0; i < mutations && n; ++i) {
        size_t cut = (size_t)rand() % n;
        snprintf(name, sizeof(name), "%s cut at %zu", path, cut);
        failures += run(name, data, cut);
        memcpy(work, data, n);
        for (int k = 0; k < 4; ++k)
            work[(size_t)rand() % n] = (uint8_t)rand();
        snprintf(name, sizeof(name), "%s mutation %d", path, i);
        failures += run(name, work, n);
    }
    return failures;
}

int main(int argc, char **argv)
{
    if (argc < 3)
        return 2;
    int mutations = atoi(argv[1]), failures = 0, files = 0;
    srand(4242);
    for (int i = 2; i < argc; ++i) {
        DIR *d = opendir(argv[i]);
        if (!d) {
            failures += replay_file(argv[i], mutations);
            files++;
            continue;
        }
        for (struct dirent *e; (e = readdir(d));) {
            if (e->d_name[0] == '.')
                continue;
            char path[4096];
            snprintf(path, sizeof(path), "%s/%s", argv[i], e->d_name);
            failures += replay_file(path, mutations);
            files++;
        }
        closedir(d);
    }
    printf("%d corpus files, %d mutations each: %lu loaded, %d differ\n", files, mutations, ptx_driver_loaded(),
           failures);
    return failures ? 1 : 0;
}
