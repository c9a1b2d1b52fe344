from sp import *
def run(case, sel, K, na, nb, hyp_meta_lane, nib_of):
    warps=load(case,na,nb,K)
    bad=0;tot=0
    for L in warps:
        # compressed A: row r, comp col c
        Ac={}
        for l in range(32):
            g,t=l>>2,l&3
            for i in range(4*na):
                r=g+8*((i//4)&1); c=4*t+(i%4)+16*((i//4)>>1)
                Ac[(r,c)]=s8(L[l]['a'][i//4]>>(8*(i%4)))
        Bm={}
        for l in range(32):
            g,t=l>>2,l&3
            for i in range(4*nb):
                k=4*t+(i%4)+16*(i//4); Bm[(k,g)]=s8(L[l]['b'][i//4]>>(8*(i%4)))
        for l in range(32):
            g,t=l>>2,l&3
            for i in range(4):
                r=g+8*(i>>1); n=2*t+(i&1)
                acc=L[l]['c'][i]
                for c in range(K//2):
                    ml,sh=hyp_meta_lane(r,c,sel)
                    idx=(L[ml]['e']>>sh)&3
                    k=4*(c//2)+idx
                    acc+=Ac[(r,c)]*Bm[(k,n)]
                tot+=1
                if (acc&0xffffffff)!=L[l]['d'][i]: bad+=1
    return bad,tot
# hypothesis 1: lane 4*(r%8) + (r>=8) + 2*sel holds row r; nibble c//2, bits 2*(c%2)
def h1(r,c,sel): return 4*(r%8)+(r//8)+2*sel, 4*(c//2)+2*(c%2)
def h2(r,c,sel): return 4*(r%8)+2*(r//8)+sel, 4*(c//2)+2*(c%2)
def h3(r,c,sel): return 4*(r%8)+sel*2, 16*(r//8)+4*(c//2)+2*(c%2)   # one lane holds both rows? 16 bits each (only 4 groups?)
for name,h in (('h1',h1),('h2',h2)):
    print(name, run('mma_sp_s8_k32',0,32,2,2,h,None), run('mma_sp_s8_k32_sel1',1,32,2,2,h,None))
