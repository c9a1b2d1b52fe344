from num import *
def terms(a,b,ta,tb):
    ts=[]; special=None
    for k in range(32):
        x=dec(ta,a[k]); y=dec(tb,b[k])
        if x[0]==3 or y[0]==3 or (x[0]==2 and y[0]==0) or (y[0]==2 and x[0]==0): special='nan'; continue
        if x[0]==2 or y[0]==2:
            special = special or ('inf', x[1]^y[1]); continue
        if x[0]==0 or y[0]==0: ts.append((k,x[1]^y[1],0,0,None)); continue
        ts.append((k,x[1]^y[1],x[2]*y[2],x[3]+y[3],x[4]+y[4]))
    return ts, special
def fsum(ts, F, T=None, rnd='rz'):
    """ts: list of (sign,m,e,top). aligned truncation F bits below max top. returns exact (sign,m,e) of the sum"""
    nz=[t for t in ts if t[1]]
    if not nz: return (0,0,0)
    if T is None: T=max(t[3] for t in nz)
    L=T-F; s=0
    for sg,m,e,tp in nz:
        sh=e-L
        v = m<<sh if sh>=0 else m>>(-sh)
        s += -v if sg else v
    return (1 if s<0 else 0, abs(s), L)
