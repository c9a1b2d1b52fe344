from fractions import Fraction as Fr
import math, sys, struct
def f32(x): return Fr(struct.unpack('<f',struct.pack('<I',x))[0])
def e4(x):
    s=(x>>7)&1; e=(x>>3)&15; f=x&7
    if e==0: return s,f,-9, -6 if 0 else None
    return s,f|8,e-10,None
def terms_of(pairs, c, subnorm_top):
    ts=[]
    for a,b in pairs:
        sa,ma,ea,_=e4(a); sb,mb,eb,_=e4(b)
        if ma==0 or mb==0: continue
        def top(m,e,sub):
            if m<8 and subnorm_top=='emin': return -6
            return e+m.bit_length()-1
        ts.append((sa^sb, ma*mb, ea+eb, top(ma,ea,1)+top(mb,eb,1)))
    sc,mc,ec,tc = c
    if mc: ts.append((sc,mc,ec,tc))
    return ts
def fused(ts,F):
    if not ts: return Fr(0)
    T=max(t[3] for t in ts); L=T-F; tot=0
    for s,m,e,_ in ts:
        v=m*Fr(2)**(e-L); q=math.floor(v); tot+= -q if s else q
    return tot*Fr(2)**L
def rnd32(v,mode):
    if v==0: return Fr(0)
    s=-1 if v<0 else 1; a=abs(v); e=math.floor(math.log2(a))
    while Fr(2)**e>a: e-=1
    while Fr(2)**(e+1)<=a: e+=1
    u=Fr(2)**(max(e,-126)-23); q=a/u; qi=math.floor(q)
    if mode=='RN' and (q-qi>Fr(1,2) or (q-qi==Fr(1,2) and qi%2)): qi+=1
    return s*qi*u
def cterm(v):
    if v==0: return (0,0,0,0)
    s=1 if v<0 else 0; a=abs(v); e=math.floor(math.log2(a))
    while Fr(2)**e>a: e-=1
    while Fr(2)**(e+1)<=a: e+=1
    e=max(e,-126); m=a/Fr(2)**(e-23); assert m.denominator==1
    return (s,int(m),e-23,e)
def tobits(v):
    return struct.unpack('<I',struct.pack('<f',float(v)))[0] if v!=0 else 0
exs=[]
for l in open(sys.argv[1]):
    p=l.split()
    if not p or p[0][0]!='w': continue
    exp=int(p[6],16); c=int(p[7][2:],16)
    pairs=[tuple(int(x,16) for x in t.split('*')) for t in p[9:]]
    exs.append((f32(c),pairs,exp))
def model(c,pairs,F,order,inter,sub,split):
    acc=c
    groups=[pairs[:16],pairs[16:]] if split==16 else [pairs[i:i+8] for i in range(0,32,8)] if split==8 else [pairs]
    if order=='rev': groups=groups[::-1]
    for g in groups:
        acc=rnd32(fused(terms_of(g,cterm(acc),sub),F),inter)
    return tobits(acc)
for F in (23,24,25,26,27):
  for order in ('fwd','rev'):
    for inter in ('RZ','RN'):
      for sub in ('emin','actual'):
        for split in (8,16,32):
          ok=sum(model(c,p,F,order,inter,sub,split)==e for c,p,e in exs)
          if ok>len(exs)*0.8: print(F,order,inter,sub,split,ok,len(exs))
print('ulps')
for c,pairs,e in exs[:40]:
    ex=c+sum((lambda A,B: (-1 if A[0]^B[0] else 1)*A[1]*B[1]*Fr(2)**(A[2]+B[2]))(e4(a),e4(b)) for a,b in pairs)
    E=f32(e); 
    if E==0: print('zero'); continue
    ulp=Fr(2)**(math.floor(math.log2(abs(float(E))))-23)
    print(round(float((ex-E)/ulp),3), float(c), float(E))
print('hyp2')
def model2(c,pairs,F,mode,split,sub,cfirst):
    acc=c
    groups=[pairs[:16],pairs[16:]] if split==16 else [pairs[i:i+8] for i in range(0,32,8)] if split==8 else [pairs[i:i+4] for i in range(0,32,4)] if split==4 else [pairs]
    for g in groups:
        P=fused(terms_of(g,(0,0,0,0),sub),F)
        acc=rnd32(acc+P,mode)
    return tobits(acc)
for F in range(10,27):
  for mode in ('RZ','RN'):
    for split in (4,8,16,32):
      for sub in ('emin','actual'):
        ok=sum(model2(c,p,F,mode,split,sub,0)==e for c,p,e in exs)
        if ok>len(exs)*0.5: print(F,mode,split,sub,ok,len(exs))
print('hyp3')
def vterm(v):
    if v==0: return (0,0,0,-10**6)
    s=1 if v<0 else 0; a=abs(v); e=math.floor(math.log2(a))
    while Fr(2)**e>a: e-=1
    while Fr(2)**(e+1)<=a: e+=1
    # exact representation: m * 2^k with integer m
    k=e-200; m=a/Fr(2)**k; assert m.denominator==1
    return (s,int(m),k,e)
def model3(c,pairs,F,F2,split,sub,final,ctrunc):
    gs=[pairs[i:i+split] for i in range(0,32,split)]
    Ps=[fused(terms_of(g,(0,0,0,0),sub),F) for g in gs]
    ts=[vterm(P) for P in Ps]+[cterm(c)]
    ts=[t for t in ts if t[1]]
    return tobits(rnd32(fused(ts,F2),final))
for F in (22,23,24,25,26,27,30):
  for F2 in (23,24,25,26,30,60):
    for split in (4,8,16):
      for sub in ('emin','actual'):
        for final in ('RZ','RN'):
          ok=sum(model3(c,p,F,F2,split,sub,final,0)==e for c,p,e in exs)
          if ok>len(exs)*0.6: print(F,F2,split,sub,final,ok,len(exs))
