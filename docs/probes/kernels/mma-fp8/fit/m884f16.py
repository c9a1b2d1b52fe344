import m884fit as F
from m884 import *
import itertools, sys
def hyp(a,b,c,pairs):
    cc=F.h2f(c); s=[]
    for (i,j) in pairs:
        p=F.op_fma(F.h2f(a[i]),F.h2f(b[i]),0x80000000)
        s.append(F.op_fma(F.h2f(a[j]),F.h2f(b[j]),p))
    r=F.op_add(cc,s[0]); r=F.op_add(r,s[1]); return F.f2h(r)
allp=[]
for perm in itertools.permutations(range(4)):
    allp.append(((perm[0],perm[1]),(perm[2],perm[3])))
if __name__=="__main__":
 for l in sys.argv[1:]:
     al,bl=l.split('_')
     datas=[load('mma_m884_%s_f16%s'%(l,t),al,bl,False,False) for t in ('','_tame')]
     res=[]
     for pr in allp:
         bad=sum(1 for data in datas for a,b,c,d in data if hyp(a,b,c,pr)!=d)
         res.append((bad,pr))
     res.sort(); print(l,res[:6])
 