import sys, itertools
from load import u32s
INS='/tmp/fp8/ins/'; EXP='/work/wt-fp8/tests/kernels/expected/nvcc/'
PAIRS=[0x4,0x8,0xc,0x9,0xd,0xe]
def meta(w):
    e=0
    for j in range(8): e|=PAIRS[((w>>(4*j))&15)%6]<<(4*j)
    return e
def s8(x): x&=0xff; return x-256 if x>127 else x
def load(case,na,nb,K):
    A=u32s(open(INS+case+'.in0','rb').read()); B=u32s(open(INS+case+'.in1','rb').read()); C=u32s(open(INS+case+'.in2','rb').read())
    D=u32s(open(EXP+case+'.bin','rb').read())
    warps=[]
    for w in range(64):
        L=[]
        for l in range(32):
            li=w*32+l
            L.append(dict(a=A[li*(na+1):li*(na+1)+na], e=meta(A[li*(na+1)+na]), b=B[li*nb:li*nb+nb], c=C[li*4:li*4+4], d=D[li*4:li*4+4]))
        warps.append(L)
    return warps
