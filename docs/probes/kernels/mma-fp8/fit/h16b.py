from h16 import *
NAN16=0x7fff
def cls16(x):
    return dec16(x)
def hm16s(ts,keys,acc,sp_terms):
    # sp_terms: per-k special (nan / inf sign) for keys
    nan=False; pinf=ninf=False
    for k,s in sp_terms:
        if k not in keys: continue
        if s=='nan': nan=True
        elif s==0: pinf=True
        else: ninf=True
    a=dec16(acc)
    if a[0]==3: nan=True
    elif a[0]==2:
        if a[1]: ninf=True
        else: pinf=True
    if nan or (pinf and ninf): return NAN16
    if pinf: return 0x7c00
    if ninf: return 0xfc00
    tl=[(t[1],t[2],t[3],t[4]) for t in ts if t[2] and t[0] in keys]
    if a[0]==1: tl.append((a[1],a[2],a[3],a[4]))
    sg,m,e=fsum(tl,25)
    if not m: return 0   # TODO sign of zero
    return enc(sg,m,e,5,10,True)
def hadd2(x,y):
    a=dec16(x); b=dec16(y)
    if a[0]==3 or b[0]==3: return NAN16
    if a[0]==2 and b[0]==2 and a[1]!=b[1]: return NAN16
    if a[0]==2: return x
    if b[0]==2: return y
    tl=[(t[1],t[2],t[3],t[4]) for t in (a,b) if t[0]==1]
    if not tl:
        return 0x8000 if (a[1] and b[1]) else 0
    sg,m,e=fsum(tl,400)
    if not m: return 0
    return enc(sg,m,e,5,10,True)
def terms2(a,b,ta,tb):
    ts=[];sp=[]
    for k in range(32):
        x=dec(ta,a[k]); y=dec(tb,b[k])
        if x[0]==3 or y[0]==3 or (x[0]==2 and y[0]==0) or (y[0]==2 and x[0]==0): sp.append((k,'nan')); continue
        if x[0]==2 or y[0]==2: sp.append((k,x[1]^y[1])); continue
        if x[0]==0 or y[0]==0: continue
        ts.append((k,x[1]^y[1],x[2]*y[2],x[3]+y[3],x[4]+y[4]))
    return ts,sp
def model(ts,sp,c):
    t=hm16s(ts,G0,0,sp); t=hm16s(ts,G1,t,sp); return hadd2(c,t)
if __name__=='__main__':
  for case in sys.argv[1:]:
    ta,tb=TY[case.replace('_f16','').replace('_tame','')]
    bad=tot=0
    for a,b,c,r in load16(case):
        ts,sp=terms2(a,b,ta,tb)
        got=model(ts,sp,c); tot+=1
        if got!=r:
            bad+=1
            if bad<=5: print('got %04x exp %04x c %04x'%(got,r,c), sp)
    print(case,'bad',bad,'of',tot)
