/*
 * src/graph/graph.h: graphs inside this folder (docs/graphs.md; DESIGN.md §18). A graph is data
 * (graph.c: nodes and edges; node.c: each node type's parameters, owned copies of what the
 * caller gave) until it is instantiated (instantiate.c: a schedule, in topological order),
 * and an executable graph's launch (launch.c) makes its nodes' work with the calls a program
 * would make, through a sink (exec.h), and runs it as one piece of stream work. Captures
 * (capture.c) record what streams are given as nodes; graph-owned memory is memory.c's.
 * Every graph, node, executable graph and capture is guarded by one lock (graph_lock).
 * This folder is above every other of the core (docs/layout.md): exec knows captures only
 * through the hooks it is given (struct capture_hooks).
 */
#ifndef EXTMEM_GRAPH_GRAPH_H
#define EXTMEM_GRAPH_GRAPH_H

#include "exec/exec.h"
#include "memory/memory.h"
#include "module/module.h"

/* ---- The lock ---- */
void graph_lock(void);
void graph_unlock(void);

/* ---- Graph-owned memory (memory.c) ---- */
struct gmem;

/* ---- Node parameters (node.c) ---- */
struct node_params {
    CUgraphNodeParams p;       /* the public form; its pointers point into what follows */
    struct kernel_args args;   /* kernel: the arguments, copied */
    void **arg_ptrs;           /* kernel: kernelParams as the getters give it, into args.buf */
    CUlaunchAttribute attrs[8];/* kernel: attributes set on the node */
    unsigned int nattrs;
    CUexternalSemaphore *sems; /* external semaphore nodes: the arrays, copied */
    void *sem_params;
    struct graph *child;       /* child graph node: owned */
    struct gmem *mem;          /* memory allocation node: the graph's memory */
    struct graph **bodies;     /* conditional: owned */
    CUgraph *body_handles;     /* conditional: phGraph_out */
};
struct graph;
/* Checks p (given by the caller or described by captured work) and makes an owned copy. The
 * current context `ctx` (a reference the caller keeps) is the one nodes without one run in. */
CUresult node_params_copy(const char *fn, struct ctx *ctx, struct graph *g, CUgraphNodeParams *p,
                          struct node_params *out);
void node_params_free(struct node_params *np);
/* A copy of a copy (clone, instantiate): children are cloned, memory shared. */
CUresult node_params_dup(const char *fn, const struct node_params *from, struct node_params *out);

/* ---- Each node type's public parameters as the generic form (node_api.c) ----
 * Used by the calls on graphs' nodes and on executable graphs' (exec_params.c) alike. */
void params_init(CUgraphNodeParams *p, CUgraphNodeType type); /* zeroed, of that type */
void params_kernel(CUgraphNodeParams *p, const CUDA_KERNEL_NODE_PARAMS *k, bool v2); /* v2: kern and ctx too */
CUresult params_memcpy(const char *fn, CUgraphNodeParams *p, const CUDA_MEMCPY3D *c, CUcontext ctx);
CUresult params_memset(const char *fn, CUgraphNodeParams *p, const CUDA_MEMSET_NODE_PARAMS *m, CUcontext ctx);
void params_event(CUgraphNodeParams *p, CUgraphNodeType type, CUevent e); /* a record or a wait */
void params_sems(CUgraphNodeParams *p, CUgraphNodeType type, CUexternalSemaphore *sems, const void *params,
                 unsigned int n); /* a signal or a wait */
void params_memop(CUgraphNodeParams *p, const CUDA_BATCH_MEM_OP_NODE_PARAMS *m);
/* Replaces a graph's node's parameters with a checked copy of p, of the node's own type. */
CUresult node_set(const char *fn, CUgraphNode hNode, CUgraphNodeParams *p);
/* The same for the node of an executable graph made from hNode (instantiate.c). */
CUresult exec_node_set(const char *fn, CUgraphExec hGraphExec, CUgraphNode hNode, CUgraphNodeParams *p);

/* ---- Graphs and nodes (graph.c) ---- */
struct edge {
    struct node *node;
    CUgraphEdgeData data;
};
struct edges {
    struct edge *v;
    size_t n, cap;
};
struct node {
    struct obj base;
    struct graph *g;           /* not a reference: the node dies with its graph */
    struct list_node graph_node;
    uint64_t seq;              /* its place in the graph's order of creation */
    uint64_t origin;           /* the handle of the node it was cloned from (itself if made) */
    struct node_params np;
    struct edges deps, outs;   /* incoming and outgoing edges */
    size_t index;              /* scratch for instantiate and clone (graph_lock) */
};
struct user_ref {
    struct user_ref *next;
    struct user_object *u;
    unsigned int count;
};
struct graph {
    struct obj base;
    struct list_node nodes;    /* struct node.graph_node, in creation order */
    size_t nnodes;
    uint64_t next_seq;
    uint64_t clone_of;         /* the graph it was cloned from, or 0 */
    bool owned;                /* a child or body graph: its node owns it */
    struct user_ref *users;    /* user objects the graph holds references to */
    unsigned int execs;        /* executable graphs made from it that are alive */
    unsigned int conditionals; /* conditional nodes (conditional graphs are not cloned) */
    unsigned int mem_nodes;    /* memory allocation and free nodes (such graphs are not cloned) */
    bool instantiated;         /* ever: no free node may be added from then on */
    CUgraphConditionalHandle *handles; /* cuGraphConditionalHandleCreate's, for instantiate */
    size_t nhandles;
};

struct user_object {
    struct obj base;
    atomic_uint refs;          /* the program's and graphs' references */
    void *ptr;
    CUhostFn destroy;
};
void user_object_drop(struct user_object *u, unsigned int count);

/* A new graph (not registered when owned: a child's graph is reached through its node). */
CUresult graph_new(const char *fn, bool owned, struct graph **out);
/* Frees a graph with its nodes (graph_lock held). */
void graph_free_locked(struct graph *g);
CUresult graph_lookup(const char *fn, CUgraph h, struct graph **out);
CUresult node_lookup(const char *fn, CUgraphNode h, struct node **out);
/* Adds a node with p's parameters after deps (graph_lock not held); *out is not a reference. */
CUresult graph_add(const char *fn, struct graph *g, const CUgraphNode *deps, const CUgraphEdgeData *edata, size_t n,
                   CUgraphNodeParams *p, struct node **out);
/* The door of every cuGraphAdd*Node: phGraphNode and hGraph checked, then graph_add. */
CUresult graph_add_node(const char *fn, CUgraphNode *phGraphNode, CUgraph hGraph, const CUgraphNode *deps,
                        const CUgraphEdgeData *edata, size_t n, CUgraphNodeParams *p);
/* The same with the dependencies as nodes (capture; graph_lock held). */
CUresult graph_add_locked(const char *fn, struct ctx *ctx, struct graph *g, struct node *const *deps,
                          const CUgraphEdgeData *edata, size_t n, CUgraphNodeParams *p, struct node **out);
/* A deep copy of g (graph_lock held); *map_out: the copy's nodes by the original's index. */
CUresult graph_clone_locked(const char *fn, struct graph *g, bool owned, struct graph **out);
static inline CUgraph graph_handle(const struct graph *g) { return (CUgraph)(uintptr_t)g->base.handle; }
static inline CUgraphNode node_handle(const struct node *n) { return (CUgraphNode)(uintptr_t)n->base.handle; }

/* ---- Executable graphs (instantiate.c, launch.c) ---- */
struct xnode {
    CUgraphNodeType type;
    uint64_t node;             /* the handle of the graph's node it was made from */
    uint64_t origin;
    uint64_t seq;              /* the node's place in its graph's order of creation */
    size_t *deps, ndeps;       /* the nodes it depends on, by index */
    struct node_params np;
    bool enabled;
    struct exec_graph *child;  /* a child graph node: its own schedule */
    struct exec_graph **bodies;/* a conditional: each body's schedule */
};
struct exec_graph {
    struct obj base;           /* registered only for the top: children are reached through it */
    struct xnode *nodes;       /* in topological order */
    size_t n;
    uint64_t flags;
    struct graph *source;      /* the graph instantiated (a reference), for the graph's count */
    struct ctx *ctx;           /* the context instantiated in (a reference) */
    os_mutex lock;             /* launches in order: one runs at a time */
    os_cond cond;
    _Atomic uint64_t launched, finished; /* launches made, and finished (in order) */
    _Atomic uint64_t enqueued;           /* launches queued (cuGraphLaunch returned success) */
    atomic_uint waiters;       /* launches asleep on cond, waiting for the one before them */
    struct arena *_Atomic spare; /* the memory of the last finished launch, for the next (launch.c) */
    struct arena *arenas;      /* more of it (under lock), while launches overlap */
    bool has_alloc;
};
CUresult exec_lookup(const char *fn, CUgraphExec h, struct exec_graph **out);
/* A schedule of g (graph_lock held). */
CUresult exec_build_locked(const char *fn, struct graph *g, struct ctx *ctx, uint64_t flags, struct node **err_node,
                           CUgraphInstantiateResult *result, struct exec_graph **out);
void exec_free(struct exec_graph *x);
/* Frees the memory x kept for its launches (launch.c; x is being destroyed). */
void exec_arenas_free(struct exec_graph *x);
/* The work of one launch of x, made now in this thread for ctx (launch.c). */
CUresult exec_make_work(const char *fn, struct exec_graph *x, struct ctx *ctx, struct work **out);

/* ---- Graph-owned memory (memory.c) ---- */
CUresult gmem_new(const char *fn, struct ctx *ctx, CUDA_MEM_ALLOC_NODE_PARAMS_v2 *p, struct gmem **out);
void gmem_retain(struct gmem *m);
void gmem_release(struct gmem *m);
CUdeviceptr gmem_address(const struct gmem *m);
/* At a launch: the allocation begins (false: it is still alive from the last launch). */
bool gmem_begin(struct gmem *m, bool auto_free);
bool gmem_live(struct gmem *m);
/* Frees the memory of nodes that are gone (graph_unlock does, outside the lock and device work). */
void gmem_flush(void);
/* A free node or cuMemFree(Async) ends it. */
bool gmem_end_address(CUdeviceptr dptr);
bool gmem_is_graph_memory(CUdeviceptr dptr);

/* A conditional handle: the value its nodes read, set to the default at each launch when
 * `assign` (CU_GRAPH_COND_ASSIGN_DEFAULT). Handles live as long as the library. */
struct cond_value {
    _Atomic uint32_t value;
    uint32_t def;
    bool assign;
};

/* ---- Capture (capture.c) ---- */
void capture_install(void);

#endif /* EXTMEM_GRAPH_GRAPH_H */
