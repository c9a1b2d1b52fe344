from hyp import *
import sys
K=range(32)
G0={k for k in K if k%4<2}; G1={k for k in K if k%4>=2}
def hm(ts, keys, acc, F=25, rn=False):
    tl=[(t[1],t[2],t[3],t[4]) for t in ts if t[2] and t[0] in keys]
    if acc: tl.append(acc)
    sg,m,e=fsum(tl,F)
    if not m: return None
    return tofn(enc32(sg,m,e,rn=rn))
def fadd(x,y,rn=True):
    tl=[t for t in (x,y) if t]
    if not tl: return None
    sg,m,e=fsum(tl,400)
    if not m: return None
    return tofn(enc32(sg,m,e,rn=rn))
def bits(x):
    if not x: return 0
    return enc32(x[0],x[1],x[2])
def Ha(ts,cc):
    c=(cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    t=hm(ts,G0,None); t=hm(ts,G1,t); return bits(fadd(c,t))
def Hb(ts,cc):
    c=(cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    t0=hm(ts,G0,None); t1=hm(ts,G1,None); return bits(fadd(c,fadd(t0,t1)))
def Hc(ts,cc):
    c=(cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    t0=hm(ts,G0,None); t1=hm(ts,G1,None); return bits(fadd(fadd(c,t0),t1))
def Hd(ts,cc):
    c=(cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    t0=hm(ts,G0,None); t1=hm(ts,G1,None); return bits(fadd(fadd(c,t1),t0))
def He(ts,cc):
    c=(cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    t=hm(ts,G1,None); t=hm(ts,G0,t); return bits(fadd(c,t))
for case in sys.argv[1:]:
    data=prep(case)
    for name,fn in (("Ha",Ha),):
        print(case,name,score(data,fn),len(data),flush=True)
