import sys, itertools
from load import *; from model import *
TY={'mma_e4m3':('e4m3','e4m3'),'mma_e5m2':('e5m2','e5m2'),'mma_e4m3e5m2':('e4m3','e5m2')}
def prep(case):
    ta,tb=TY[case.replace('_f32','').replace('_tame','')]
    out=[]
    for a,b,c,r in load(case):
        ts,sp=terms(a,b,ta,tb)
        if sp: continue
        cc=dec('f32',c)
        if cc[0]>=2: continue
        out.append((ts,cc,c,r))
    return out
def tofn(x):  # f32 bits -> term
    d=dec('f32',x); return (d[1],d[2],d[3],d[4]) if d[0]==1 else None
def chain(ts,cc,groups,F,cfirst=True,inter='rz',final='rz'):
    acc = (cc[1],cc[2],cc[3],cc[4]) if cc[0]==1 else None
    for gi,g in enumerate(groups):
        tl=[(t[1],t[2],t[3],t[4]) for t in ts if t[2] and t[0] in g]
        if acc: tl.append(acc)
        sg,m,e=fsum(tl,F)
        last = gi==len(groups)-1
        if not m: acc=None; bits=0; continue
        bits=enc32(sg,m,e, rn=(final if last else inter)=='rn')
        acc=tofn(bits)
    return bits if acc else 0
def score(data,fn):
    return sum(1 for ts,cc,c,r in data if fn(ts,cc)!=r)
