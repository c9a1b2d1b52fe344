import sys
from h16b import terms2, G0, G1
from num import *; from model import fsum; from load import load
TY={'mma_e4m3':('e4m3','e4m3'),'mma_e5m2':('e5m2','e5m2'),'mma_e4m3e5m2':('e4m3','e5m2')}
NAN=0x7fffffff
def hm32(ts,keys,acc,sp):
    nan=False; pinf=ninf=False
    for k,s in sp:
        if k not in keys: continue
        if s=='nan': nan=True
        elif s==0: pinf=True
        else: ninf=True
    a=dec('f32',acc)
    if a[0]==3: nan=True
    elif a[0]==2:
        if a[1]: ninf=True
        else: pinf=True
    if nan or (pinf and ninf): return NAN
    if pinf: return 0x7f800000
    if ninf: return 0xff800000
    tl=[(t[1],t[2],t[3],t[4]) for t in ts if t[2] and t[0] in keys]
    if a[0]==1: tl.append((a[1],a[2],a[3],a[4]))
    sg,m,e=fsum(tl,25)
    if not m: return 0
    return enc(sg,m,e,8,23,False)
def fadd(x,y):
    a=dec('f32',x); b=dec('f32',y)
    if a[0]==3 or b[0]==3: return NAN
    if a[0]==2 and b[0]==2 and a[1]!=b[1]: return NAN
    if a[0]==2: return x
    if b[0]==2: return y
    tl=[(t[1],t[2],t[3],t[4]) for t in (a,b) if t[0]==1]
    if not tl: return 0x80000000 if (a[1] and b[1]) else 0
    sg,m,e=fsum(tl,400)
    if not m: return 0
    return enc(sg,m,e,8,23,True)
def model(ts,sp,c):
    t=hm32(ts,G0,0,sp); t=hm32(ts,G1,t,sp); return fadd(c,t)
for case in sys.argv[1:]:
    ta,tb=TY[case.replace('_f32','').replace('_tame','')]
    bad=tot=0
    for a,b,c,r in load(case):
        ts,sp=terms2(a,b,ta,tb)
        got=model(ts,sp,c); tot+=1
        if got!=r:
            bad+=1
            if bad<=5: print('got %08x exp %08x c %08x'%(got,r,c), sp)
    print(case,'bad',bad,'of',tot)
