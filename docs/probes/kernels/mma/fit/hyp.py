from fractions import Fraction as Fr
import struct, math, sys, itertools
def hd(x):  # (sign, m, e) exact f16
    s=(x>>15)&1; e=(x>>10)&31; f=x&1023
    if e==0: return s,f,-24
    return s,f|1024,e-25
def fd(x):
    s=x>>31; e=(x>>23)&255; f=x&0x7fffff
    if e==0: return s,f,-149
    return s,f|0x800000,e-150
def val(s,m,e): v=Fr(m)*Fr(2)**e; return -v if s else v
def f32bits_trunc(v, mode):  # v Fraction -> f32 bits RZ or RD
    if v==0: return 0
    s=1 if v<0 else 0; a=abs(v)
    e=math.floor(math.log2(a));
    while Fr(2)**e>a: e-=1
    while Fr(2)**(e+1)<=a: e+=1
    ulp=Fr(2)**(e-23)
    q=a/ulp; qi=math.floor(q)
    if mode=='RD' and s and q!=qi: qi+=1
    if mode=='RN' and (q-qi>Fr(1,2) or (q-qi==Fr(1,2) and qi%2)): qi+=1
    if qi==1<<24: qi>>=1; e+=1
    return (s<<31)|((e+127)<<23)|(qi&0x7fffff)
def model(c, terms, F, ref, trunc, final):
    ts=[]
    for a,b in terms:
        sa,ma,ea=hd(a); sb,mb,eb=hd(b)
        if ma==0 or mb==0: continue
        m=ma*mb; e=ea+eb
        top = e+m.bit_length()-1 if ref=='top' else (max(ea+10,ea+ma.bit_length()-1)+max(eb+10,eb+mb.bit_length()-1) if ref=='esum' else None)
        ts.append((sa^sb,m,e,top))
    sc,mc,ec=fd(c)
    if mc: ts.append((sc,mc,ec,ec+mc.bit_length()-1))
    T=max(t[3] for t in ts)
    L=T-F
    tot=Fr(0)
    for s,m,e,_ in ts:
        v=Fr(m)*Fr(2)**(e-L)
        if trunc=='mag': q=math.floor(v)
        else: q=math.floor(v) if not s else math.ceil(v)
        tot += (-q if s else q)
    return f32bits_trunc(tot*Fr(2)**L, final)
exs=[]
for line in open(sys.argv[1]):
    p=line.split()
    if not p or p[0][0]!='w': continue
    got=int(p[4],16); exp=int(p[6],16); c=int(p[7][2:],16)
    terms=[tuple(int(x,16) for x in t.split('*')) for t in p[9:]]
    exs.append((c,terms,exp))
for F in range(23,29):
  for ref in ('top','esum'):
    for trunc in ('mag','floor'):
      for final in ('RZ','RD','RN'):
        ok=sum(model(c,t,F,ref,trunc,final)==e for c,t,e in exs)
        if ok>=len(exs)-1: print(F,ref,trunc,final,ok,len(exs))
