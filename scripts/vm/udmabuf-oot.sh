#!/usr/bin/env bash
# Adapts the kernel's drivers/dma-buf/udmabuf.c (Linux 6.1) to build as a module outside the
# kernel tree: in the tree it is a built-in driver (CONFIG_UDMABUF is a bool), so it calls
# functions the kernel does not export to modules.
#   - memfd_fcntl(F_GET_SEALS): read the seals of a shmem file from its inode instead;
#   - is_file_hugepages(): hugetlbfs memfds are refused (its helpers are not exported either;
#     extmem's memory is never hugetlbfs);
#   - the dma-buf core's symbols are in the DMA_BUF namespace, which a module must import.
#   udmabuf-oot.sh SRC DST
set -euo pipefail
src=$1 dst=$2
sed -e 's/memfd_fcntl(memfd, F_GET_SEALS, 0)/extmem_oot_seals(memfd)/' \
    -e 's/is_file_hugepages(memfd)/extmem_oot_hugetlb(memfd)/g' \
    -e '/^#include <linux\/hugetlb.h>$/a\
\
/* extmem: out-of-tree build (scripts/vm/udmabuf-oot.sh). */\
MODULE_IMPORT_NS(DMA_BUF);\
static inline int extmem_oot_seals(struct file *file)\
{\
	return shmem_mapping(file->f_mapping) ? (int)SHMEM_I(file_inode(file))->seals : -EINVAL;\
}\
static inline bool extmem_oot_hugetlb(struct file *file)\
{\
	return false;\
}' "$src" >"$dst"
# Each change must have happened: a newer udmabuf.c needs this script looked at again.
for want in 'extmem_oot_seals(memfd)' 'extmem_oot_hugetlb(memfd)' 'MODULE_IMPORT_NS(DMA_BUF);'; do
  grep -qF "$want" "$dst" || { echo "udmabuf-oot.sh: '$want' not applied to $src: update this script" >&2; exit 1; }
done
if grep -q 'memfd_fcntl\|[^_]is_file_hugepages(' "$dst"; then
  echo "udmabuf-oot.sh: $src calls memfd_fcntl or is_file_hugepages elsewhere: update this script" >&2
  exit 1
fi
