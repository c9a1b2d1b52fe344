#define main runner_main
#include "/work/wt-fp8/tests/kernels/corpus_runner.c"
#undef main
int main(int argc, char **argv) {
    for (size_t i = 0; i < corpus_case_count; ++i) {
        const struct kcase *c = &corpus_cases[i];
        if (strcmp(c->name, argv[1])) continue;
        for (unsigned k = 0; k < 3; ++k) {
            if (c->in[k].gen == GEN_NONE) continue;
            size_t per = c->in[k].per_thread ? c->in[k].per_thread : 1;
            size_t count = (size_t)c->n * per, sz = gen_size(c->in[k].gen);
            unsigned char *buf = calloc(count, sz);
            generate(c, k, buf, count);
            char path[256]; snprintf(path, sizeof path, "%s/%s.in%u", argv[2], c->name, k);
            FILE *f = fopen(path, "wb"); fwrite(buf, sz, count, f); fclose(f); free(buf);
        }
    }
    return 0;
}
