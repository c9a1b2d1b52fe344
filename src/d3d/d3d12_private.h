/*
 * src/d3d/d3d12_private.h: what the Direct3D 12 files share (Windows only): d3d12.c keeps
 * extmem's own device, d3d12_fence.c opens fences with it.
 */
#ifndef EXTMEM_D3D12_PRIVATE_H
#define EXTMEM_D3D12_PRIVATE_H

#include <windows.h>
#include <d3d12.h>

#include "d3d/d3d.h"

/* Opens the shared Direct3D 12 object of an NT handle (which stays the caller's) or of a name
 * with extmem's own device, as interface `iid`: *out is a new reference. `what` names the
 * handle type in messages. */
CUresult d3d12_open_shared(const char *fn, const char *what, HANDLE handle, const WCHAR *name, REFIID iid, void **out);

#endif
