/* link_probe.c: what NVIDIA's driver does with cuLink* (issue 25, part "link").
 * gcc -O1 -I/usr/local/cuda/include link_probe.c -L/usr/local/cuda/lib64/stubs -lcuda -o link_probe
 * Run: ./link_probe <dir with b.o, libb.a, b.fatbin>  */
#include <cuda.h>
#include <stdio.h>
#include <string.h>
#include <stdlib.h>

static const char *name(CUresult r) { const char *s = 0; cuGetErrorName(r, &s); return s ? s : "?"; }
#define P(what, call) do { CUresult r_ = (call); printf("%-60s -> %d %s\n", what, (int)r_, name(r_)); } while (0)

static const char *ptx_a =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 ret) add_one(.param .b32 x);\n"
    ".extern .global .align 4 .u32 counter;\n"
    ".visible .entry kern(.param .u64 out)\n{\n"
    " .reg .b32 %r<4>; .reg .b64 %rd<4>;\n"
    " ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
    " mov.u32 %r1, %tid.x;\n"
    " { .param .b32 a; .param .b32 r; st.param.b32 [a], %r1; call (r), add_one, (a); ld.param.b32 %r2, [r]; }\n"
    " mul.wide.u32 %rd3, %r1, 4; add.s64 %rd3, %rd2, %rd3; st.global.u32 [%rd3], %r2;\n"
    " atom.global.add.u32 %r3, [counter], 1;\n"
    " ret;\n}\n";
static const char *ptx_b =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .global .align 4 .u32 counter = 100;\n"
    ".visible .func (.param .b32 ret) add_one(.param .b32 x)\n{\n"
    " .reg .b32 %r<3>; ld.param.b32 %r1, [x]; add.s32 %r2, %r1, 1; st.param.b32 [ret], %r2; ret;\n}\n";
static const char *ptx_weak1 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".weak .func (.param .b32 ret) pick(.param .b32 x)\n{\n .reg .b32 %r<2>; mov.u32 %r1, 1; st.param.b32 [ret], %r1; ret;\n}\n";
static const char *ptx_weak2 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".weak .func (.param .b32 ret) pick(.param .b32 x)\n{\n .reg .b32 %r<2>; mov.u32 %r1, 2; st.param.b32 [ret], %r1; ret;\n}\n";
static const char *ptx_strong3 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func (.param .b32 ret) pick(.param .b32 x)\n{\n .reg .b32 %r<2>; mov.u32 %r1, 3; st.param.b32 [ret], %r1; ret;\n}\n";
static const char *ptx_pickuser =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".extern .func (.param .b32 ret) pick(.param .b32 x);\n"
    ".visible .entry kpick(.param .u64 out)\n{\n .reg .b32 %r<3>; .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1; mov.u32 %r1, 0;\n"
    " { .param .b32 a; .param .b32 r; st.param.b32 [a], %r1; call (r), pick, (a); ld.param.b32 %r2, [r]; }\n"
    " st.global.u32 [%rd2], %r2; ret;\n}\n";
static const char *ptx_static1 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 hidden = 5;\n"
    ".func (.param .b32 ret) helper()\n{\n .reg .b32 %r<2>; ld.global.u32 %r1, [hidden]; st.param.b32 [ret], %r1; ret;\n}\n"
    ".visible .func (.param .b32 ret) get1()\n{\n .reg .b32 %r<2>; { .param .b32 r; call (r), helper, (); ld.param.b32 %r1, [r]; } st.param.b32 [ret], %r1; ret;\n}\n";
static const char *ptx_static2 =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".global .align 4 .u32 hidden = 7;\n"
    ".func (.param .b32 ret) helper()\n{\n .reg .b32 %r<2>; ld.global.u32 %r1, [hidden]; st.param.b32 [ret], %r1; ret;\n}\n"
    ".extern .func (.param .b32 ret) get1();\n"
    ".visible .entry kstatic(.param .u64 out)\n{\n .reg .b32 %r<4>; .reg .b64 %rd<3>;\n"
    " ld.param.u64 %rd1, [out]; cvta.to.global.u64 %rd2, %rd1;\n"
    " { .param .b32 r; call (r), get1, (); ld.param.b32 %r1, [r]; }\n"
    " { .param .b32 r; call (r), helper, (); ld.param.b32 %r2, [r]; }\n"
    " mad.lo.s32 %r3, %r1, 10, %r2; st.global.u32 [%rd2], %r3; ret;\n}\n";
static const char *ptx_dupvar =
    ".version 8.0\n.target sm_80\n.address_size 64\n.visible .global .align 4 .u32 counter = 1;\n";
static const char *ptx_bad =
    ".version 8.0\n.target sm_80\n.address_size 64\n.visible .entry broken()\n{\n frobnicate.u32 %r1;\n}\n";
static const char *ptx_mismatch =
    ".version 8.0\n.target sm_80\n.address_size 64\n"
    ".visible .func (.param .b64 ret) add_one(.param .b64 x, .param .b64 y)\n{\n ret;\n}\n";

static char info[4096], err[4096];
static CUlinkState make(int verbose)
{
    CUlinkState s = 0;
    CUjit_option o[5] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES, CU_JIT_ERROR_LOG_BUFFER,
                         CU_JIT_ERROR_LOG_BUFFER_SIZE_BYTES, CU_JIT_LOG_VERBOSE};
    static void *v[5];
    memset(info, 0, sizeof info);
    memset(err, 0, sizeof err);
    v[0] = info; v[1] = (void *)(size_t)sizeof info; v[2] = err; v[3] = (void *)(size_t)sizeof err;
    v[4] = (void *)(size_t)verbose;
    CUresult r = cuLinkCreate(5, o, v, &s);
    if (r) printf("cuLinkCreate failed %s\n", name(r));
    printf("  after create: info size slot %zu, err size slot %zu\n", (size_t)v[1], (size_t)v[3]);
    return s;
}
static void logs(const char *tag)
{
    printf("  [%s] info log: \"%s\"\n  [%s] error log: \"%s\"\n", tag, info, tag, err);
}
static void add(CUlinkState s, const char *what, const char *ptx, const char *nm)
{
    P(what, cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx, strlen(ptx) + 1, nm, 0, 0, 0));
}
static int run1(void *img, const char *kname)
{
    CUmodule m; CUfunction f; CUdeviceptr d;
    CUresult r = cuModuleLoadData(&m, img);
    printf("  cuModuleLoadData(linked) -> %s\n", name(r));
    if (r) return -1;
    r = cuModuleGetFunction(&f, m, kname);
    if (r) { printf("  get %s -> %s\n", kname, name(r)); return -1; }
    cuMemAlloc(&d, 128);
    cuMemsetD8(d, 0, 128);
    void *args[] = {&d};
    r = cuLaunchKernel(f, 1, 1, 1, 4, 1, 1, 0, 0, args, 0);
    CUresult r2 = cuCtxSynchronize();
    unsigned h[4] = {0};
    cuMemcpyDtoH(h, d, 16);
    printf("  launch %s -> %s/%s: %u %u %u %u\n", kname, name(r), name(r2), h[0], h[1], h[2], h[3]);
    CUdeviceptr g; size_t gs;
    if (cuModuleGetGlobal(&g, &gs, m, "counter") == 0) {
        unsigned c; cuMemcpyDtoH(&c, g, 4);
        printf("  counter = %u (size %zu)\n", c, gs);
    }
    cuMemFree(d);
    cuModuleUnload(m);
    return 0;
}
static char *slurp(const char *path, size_t *n)
{
    FILE *f = fopen(path, "rb");
    if (!f) return NULL;
    fseek(f, 0, SEEK_END); *n = (size_t)ftell(f); fseek(f, 0, SEEK_SET);
    char *b = malloc(*n); if (fread(b, 1, *n, f) != *n) { fclose(f); free(b); return NULL; }
    fclose(f); return b;
}

int main(int argc, char **argv)
{
    const char *dir = argc > 1 ? argv[1] : ".";
    CUdevice dev; CUcontext ctx;
    cuInit(0); cuDeviceGet(&dev, 0); cuDevicePrimaryCtxRetain(&ctx, dev); cuCtxSetCurrent(ctx);
    void *img; size_t sz;
    CUlinkState s;

    printf("== numba style: two PTX, verbose\n");
    s = make(1);
    add(s, "add A (extern func+var)", ptx_a, "a.ptx");
    logs("after A");
    add(s, "add B (defs)", ptx_b, "b.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    printf("  image size %zu magic %02x%02x%02x%02x\n", sz, ((unsigned char *)img)[0], ((unsigned char *)img)[1], ((unsigned char *)img)[2], ((unsigned char *)img)[3]);
    logs("complete");
    run1(img, "kern");
    { CUlibrary lib; P("cuLibraryLoadData(linked)", cuLibraryLoadData(&lib, img, 0, 0, 0, 0, 0, 0)); cuLibraryUnload(lib); }
    P("complete again", cuLinkComplete(s, &img, &sz));
    add(s, "add after complete", ptx_b, "b2.ptx");
    P("destroy", cuLinkDestroy(s));

    printf("== not verbose\n");
    s = make(0);
    add(s, "add A", ptx_a, "a.ptx");
    add(s, "add B", ptx_b, "b.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    logs("quiet");
    cuLinkDestroy(s);

    printf("== unresolved\n");
    s = make(0);
    add(s, "add A only", ptx_a, "a.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    logs("unresolved");
    cuLinkDestroy(s);

    printf("== duplicate function\n");
    s = make(0);
    add(s, "add B", ptx_b, "b.ptx");
    add(s, "add B again", ptx_b, "b2.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    logs("dup");
    cuLinkDestroy(s);

    printf("== duplicate variable\n");
    s = make(0);
    add(s, "add B", ptx_b, "b.ptx");
    add(s, "add dupvar", ptx_dupvar, "v.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    logs("dupvar");
    cuLinkDestroy(s);

    printf("== weak, weak\n");
    s = make(0);
    add(s, "w1", ptx_weak1, "w1.ptx"); add(s, "w2", ptx_weak2, "w2.ptx"); add(s, "user", ptx_pickuser, "u.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    run1(img, "kpick");
    cuLinkDestroy(s);
    printf("== weak, strong, weak\n");
    s = make(0);
    add(s, "w1", ptx_weak1, "w1.ptx"); add(s, "s3", ptx_strong3, "s3.ptx"); add(s, "w2", ptx_weak2, "w2.ptx"); add(s, "user", ptx_pickuser, "u.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    run1(img, "kpick");
    cuLinkDestroy(s);
    printf("== statics with the same names\n");
    s = make(0);
    add(s, "static1", ptx_static1, "s1.ptx"); add(s, "static2", ptx_static2, "s2.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    run1(img, "kstatic");
    cuLinkDestroy(s);

    printf("== prototype mismatch\n");
    s = make(0);
    add(s, "add A", ptx_a, "a.ptx");
    add(s, "add mismatch", ptx_mismatch, "m.ptx");
    add(s, "add dupvar (counter)", ptx_dupvar, "v.ptx");
    P("complete", cuLinkComplete(s, &img, &sz));
    logs("mismatch");
    cuLinkDestroy(s);

    printf("== malformed PTX\n");
    s = make(0);
    add(s, "add bad", ptx_bad, "bad.ptx");
    logs("bad");
    P("complete", cuLinkComplete(s, &img, &sz));
    cuLinkDestroy(s);

    printf("== bad arguments\n");
    P("cuLinkCreate(0, NULL, NULL, NULL)", cuLinkCreate(0, NULL, NULL, NULL));
    s = 0;
    P("cuLinkCreate(1000000, NULL, NULL, &s)", cuLinkCreate(1000000, NULL, NULL, &s));
    if (s) cuLinkDestroy(s);
    { CUjit_option o = CU_JIT_INFO_LOG_BUFFER; void *v = NULL; s = 0;
      P("cuLinkCreate(INFO_LOG_BUFFER=NULL)", cuLinkCreate(1, &o, &v, &s)); if (s) cuLinkDestroy(s); }
    { CUjit_option o[2] = {CU_JIT_INFO_LOG_BUFFER, CU_JIT_INFO_LOG_BUFFER_SIZE_BYTES}; void *v[2] = {NULL, (void *)64}; s = 0;
      P("cuLinkCreate(INFO_LOG_BUFFER=NULL, size 64)", cuLinkCreate(2, o, v, &s)); if (s) cuLinkDestroy(s); }
    { CUjit_option o = (CUjit_option)999; void *v = NULL; s = 0;
      P("cuLinkCreate(option 999)", cuLinkCreate(1, &o, &v, &s)); if (s) cuLinkDestroy(s); }
    { CUjit_option o = CU_JIT_TARGET; void *v = (void *)(size_t)75; s = 0;
      P("cuLinkCreate(TARGET 75)", cuLinkCreate(1, &o, &v, &s));
      if (s) { add(s, "add A", ptx_a, "a"); add(s, "add B", ptx_b, "b"); P("complete", cuLinkComplete(s, &img, &sz)); run1(img, "kern"); cuLinkDestroy(s); } }
    s = make(0);
    P("cuLinkAddData(NULL state)", cuLinkAddData(NULL, CU_JIT_INPUT_PTX, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(type 99)", cuLinkAddData(s, (CUjitInputType)99, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(NVVM)", cuLinkAddData(s, CU_JIT_INPUT_NVVM, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(CUBIN with PTX bytes)", cuLinkAddData(s, CU_JIT_INPUT_CUBIN, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(FATBINARY with PTX bytes)", cuLinkAddData(s, CU_JIT_INPUT_FATBINARY, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(OBJECT with PTX bytes)", cuLinkAddData(s, CU_JIT_INPUT_OBJECT, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(LIBRARY with PTX bytes)", cuLinkAddData(s, CU_JIT_INPUT_LIBRARY, (void *)ptx_b, strlen(ptx_b) + 1, "b", 0, 0, 0));
    P("cuLinkAddData(data NULL)", cuLinkAddData(s, CU_JIT_INPUT_PTX, NULL, 10, "b", 0, 0, 0));
    P("cuLinkAddData(size 0)", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_b, 0, "b", 0, 0, 0));
    P("cuLinkAddData(name NULL)", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_b, strlen(ptx_b) + 1, NULL, 0, 0, 0));
    P("cuLinkAddData(PTX without NUL in size)", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_b, strlen(ptx_b), "b", 0, 0, 0));
    P("cuLinkAddData(numOptions 5, NULL arrays)", cuLinkAddData(s, CU_JIT_INPUT_PTX, (void *)ptx_weak1, strlen(ptx_weak1) + 1, "w", 5, NULL, NULL));
    logs("badargs");
    P("cuLinkAddFile(nonexistent)", cuLinkAddFile(s, CU_JIT_INPUT_PTX, "/nonexistent/x.ptx", 0, 0, 0));
    P("cuLinkAddFile(NULL path)", cuLinkAddFile(s, CU_JIT_INPUT_PTX, NULL, 0, 0, 0));
    P("cuLinkComplete(NULL out)", cuLinkComplete(s, NULL, &sz));
    P("cuLinkComplete(NULL size)", cuLinkComplete(s, &img, NULL));
    P("cuLinkComplete(NULL state)", cuLinkComplete(NULL, &img, &sz));
    cuLinkDestroy(s);
    s = make(0);
    P("complete with no inputs", cuLinkComplete(s, &img, &sz));
    logs("empty");
    cuLinkDestroy(s);
    P("cuLinkDestroy(NULL)", cuLinkDestroy(NULL));

    printf("== objects, archives, fat binaries\n");
    char path[512];
    size_t n; char *buf;
    const char *kinds[] = {"b.o", "libb.a", "b.fatbin", "b_sass.o", "b_sass.fatbin", "b.cubin"};
    CUjitInputType types[] = {CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_LIBRARY, CU_JIT_INPUT_FATBINARY, CU_JIT_INPUT_OBJECT, CU_JIT_INPUT_FATBINARY, CU_JIT_INPUT_CUBIN};
    for (int i = 0; i < 6; ++i) {
        snprintf(path, sizeof path, "%s/%s", dir, kinds[i]);
        printf("-- %s\n", kinds[i]);
        s = make(0);
        add(s, "add user PTX", ptx_a, "a.ptx");
        P("cuLinkAddFile", cuLinkAddFile(s, types[i], path, 0, 0, 0));
        P("complete", cuLinkComplete(s, &img, &sz));
        logs(kinds[i]);
        if (sz) run1(img, "kern");
        cuLinkDestroy(s);
        buf = slurp(path, &n);
        if (buf) {
            s = make(0);
            add(s, "add user PTX", ptx_a, "a.ptx");
            P("cuLinkAddData", cuLinkAddData(s, types[i], buf, n, kinds[i], 0, 0, 0));
            P("complete", cuLinkComplete(s, &img, &sz));
            cuLinkDestroy(s);
            free(buf);
        }
    }
    printf("== wrong type for an object\n");
    snprintf(path, sizeof path, "%s/b.o", dir);
    s = make(0);
    P("cuLinkAddFile(b.o as PTX)", cuLinkAddFile(s, CU_JIT_INPUT_PTX, path, 0, 0, 0));
    logs("wrongtype");
    P("cuLinkAddFile(b.o as FATBINARY)", cuLinkAddFile(s, CU_JIT_INPUT_FATBINARY, path, 0, 0, 0));
    P("cuLinkAddFile(b.o as LIBRARY)", cuLinkAddFile(s, CU_JIT_INPUT_LIBRARY, path, 0, 0, 0));
    cuLinkDestroy(s);

    printf("== module load of PTX with an unresolved extern\n");
    { CUmodule m; P("cuModuleLoadData(A alone)", cuModuleLoadData(&m, ptx_a)); }
    return 0;
}
