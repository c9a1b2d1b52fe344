import sys, struct
from fractions import Fraction as Fr
from num import *
from load import u32s
INS='/tmp/fp8/ins/'; EXP='/work/wt-fp8/tests/kernels/expected/'
def lane_of(q,t): return (t%4)+4*q+16*(t//4)
def apos(lay,t,i): return (t,i) if lay=='row' else (4*(t//4)+i, t%4)
def bpos(lay,t,i): return (i,t) if lay=='col' else (t%4, 4*(t//4)+i)   # (k,n)
def cpos(f32,t,i):
    if not f32: return (t,i)
    t0,t1,t2=t&1,(t>>1)&1,t>>2; v0,v1,v2=i&1,(i>>1)&1,i>>2
    return (t0+2*v1+4*t2, v0+2*t1+4*v2)
def load(case, alay, blay, cf32, df32, ptx='nvcc'):
    tame=case.endswith('_tame')
    A=u32s(open(INS+case+'.in0','rb').read()); B=u32s(open(INS+case+'.in1','rb').read()); C=u32s(open(INS+case+'.in2','rb').read())
    D=u32s(open(EXP+ptx+'/'+case+'.bin','rb').read())
    abm=0xbfffbfff if tame else 0xffffffff
    cm=(0xbfffffff if cf32 else 0xbfffbfff) if tame else 0xffffffff
    nc=8 if cf32 else 4; nd=8 if df32 else 4
    out=[]
    def h(regs,base,i,m): return ((regs[base+i//2]&m)>>(16*(i%2)))&0xffff
    for w in range(2048//32):
        for q in range(4):
            Am={};Bm={};Cm={};Dm={}
            for t in range(8):
                li=w*32+lane_of(q,t)
                for i in range(4):
                    Am[apos(alay,t,i)]=h(A,li*2,i,abm); Bm[bpos(blay,t,i)]=h(B,li*2,i,abm)
                for i in range(8):
                    Cm[cpos(cf32,t,i)]= (C[li*8+i]&cm) if cf32 else h(C,li*4,i,cm)
                    Dm[cpos(df32,t,i)]= D[li*8+i] if df32 else h(D,li*4,i,0xffffffff)
            for m in range(8):
                for n in range(8):
                    out.append(([Am[(m,k)] for k in range(4)],[Bm[(k,n)] for k in range(4)],Cm[(m,n)],Dm[(m,n)]))
    return out
# exact arithmetic on (cls,...) via Fractions; NaN -> None
class V:
    pass
def f16v(x):
    d=dec16(x)
    if d[0]==3: return 'nan'
    if d[0]==2: return float('-inf') if d[1] else float('inf')
    if d[0]==0: return ('z',d[1])
    return Fr((-1)**d[1]*d[2])*Fr(2)**d[3]
def f32v(x):
    d=dec('f32',x)
    if d[0]==3: return 'nan'
    if d[0]==2: return float('-inf') if d[1] else float('inf')
    if d[0]==0: return ('z',d[1])
    return Fr((-1)**d[1]*d[2])*Fr(2)**d[3]
def rnd(v, eb, fb):
    """round Fraction to float format RN, return bits"""
    if v==0: return 0
    s=1 if v<0 else 0; a=abs(v)
    e=a.denominator.bit_length()  # scale
    # represent a = m*2^e0 exactly
    den=a.denominator; assert den&(den-1)==0
    e0=-(den.bit_length()-1); m=a.numerator
    return enc(s,m,e0,eb,fb,True)
def val(bits,f32=True):
    return f32v(bits) if f32 else f16v(bits)
