import sys, itertools
from m884 import *
import math
NAN32=0x7fffffff
def isz(x): return isinstance(x,tuple)
def num(x): return 0 if isz(x) else x
# f32 ops with specials, operating on bit patterns
def op_fma(a,b,c):  # a,b,c f32 bits -> f32 bits RN, GPU NaN canonical
    va,vb,vc=f32v(a),f32v(b),f32v(c)
    if 'nan' in (va,vb,vc) if not any(isinstance(v,Fr) for v in ()) else False: pass
    for v in (va,vb,vc):
        if isinstance(v,str): return NAN32
    # inf handling
    def isinf(v): return isinstance(v,float)
    if isinf(va) or isinf(vb):
        if (isz(va) or isz(vb)): return NAN32
        sa=(va<0) if not isz(va) else va[1]; sb=(vb<0) if not isz(vb) else vb[1]
        p=float('-inf') if sa!=sb else float('inf')
        if isinf(vc) and vc!=p: return NAN32
        return 0xff800000 if p<0 else 0x7f800000
    if isinf(vc): return 0xff800000 if vc<0 else 0x7f800000
    p=num(va)*num(vb); r=p+num(vc)
    if r==0:
        # sign of zero: exact zero result
        pz = isz(va) or isz(vb)
        psign = ((va[1] if isz(va) else va<0) ^ (vb[1] if isz(vb) else vb<0))
        csign = vc[1] if isz(vc) else None
        if pz and isz(vc):
            return 0x80000000 if (psign and csign) else 0
        return 0
    return rnd(r,8,23)
def op_add(a,b):
    return op_fma(a,0x3f800000,b)
def h2f(x):  # f16 bits -> f32 bits exact
    d=dec16(x)
    if d[0]==3: return 0x7fffffff
    if d[0]==2: return 0xff800000 if d[1] else 0x7f800000
    if d[0]==0: return 0x80000000 if d[1] else 0
    return enc(d[1],d[2],d[3],8,23,True)
def f2h(x):  # f32 -> f16 RN
    d=dec('f32',x)
    if d[0]==3: return 0x7fff
    if d[0]==2: return 0xfc00 if d[1] else 0x7c00
    if d[0]==0: return 0x8000 if d[1] else 0
    return enc(d[1],d[2],d[3],5,10,True)
ZERO=0
def hyp_f32chain(a,b,c,order=(0,1,2,3)):
    s=op_fma(h2f(a[order[0]]),h2f(b[order[0]]),ZERO)
    for k in order[1:]: s=op_fma(h2f(a[k]),h2f(b[k]),s)
    return op_add(c,s)
def hyp_f16(a,b,c,pairs=((2,3),(0,1))):
    cc=h2f(c)
    s=[]
    for (i,j) in pairs:
        p=op_fma(h2f(a[i]),h2f(b[i]),ZERO)   # FMUL
        s.append(op_fma(h2f(a[j]),h2f(b[j]),p))
    r=op_add(cc,s[0]); r=op_add(r,s[1])
    return f2h(r)
if __name__=='__main__':
    case=sys.argv[1]; alay,blay=sys.argv[2],sys.argv[3]; cf,df=sys.argv[4]=='1',sys.argv[5]=='1'
    data=load(case,alay,blay,cf,df)
    fn=eval(sys.argv[6])
    bad=0
    for a,b,c,d in data:
        g=fn(a,b,c)
        if g!=d:
            bad+=1
            if bad<=4: print('a',[hex(x) for x in a],'b',[hex(x) for x in b],'c %x got %x exp %x'%(c,g,d))
    print(case,'bad',bad,'of',len(data))
