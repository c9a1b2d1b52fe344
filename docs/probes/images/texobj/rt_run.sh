#!/bin/sh
cd "$(dirname "$0")"
nvcc -o /tmp/rt_texobj_probe rt_texobj_probe.cu && /tmp/rt_texobj_probe
