from sp import *
def s4(x): x&=0xf; return x-16 if x>7 else x
def run(case, sel, K, na, nb, bits, hyp):
    warps=load(case,na,nb,K)
    per=32//bits; conv=s8 if bits==8 else s4
    bad=0;tot=0
    for L in warps:
        Ac={}; Bm={}
        for l in range(32):
            g,t=l>>2,l&3
            for i in range(per*na):
                reg=i//per; r=g+8*(reg&1); c=per*t+(i%per)+4*per*(reg>>1)
                Ac[(r,c)]=conv(L[l]['a'][reg]>>(bits*(i%per)))
            for i in range(per*nb):
                reg=i//per; k=per*t+(i%per)+4*per*reg; Bm[(k,g)]=conv(L[l]['b'][reg]>>(bits*(i%per)))
        for l in range(32):
            g,t=l>>2,l&3
            for i in range(4):
                r=g+8*(i>>1); n=2*t+(i&1)
                acc=L[l]['c'][i]
                for c in range(K//2):
                    ml,sh,unit=hyp(r,c,sel)
                    idx=(L[ml]['e']>>sh)&3
                    if unit==1: k=4*(c//2)+idx
                    else: # pairs of elements: c is element; pair index c//2, group of 4 pairs
                        pc=c//2; k=2*(4*(pc//2)+((L[ml]['e']>>sh)&3))+(c%2)
                    acc+=Ac[(r,c)]*Bm[(k,n)]
                tot+=1
                if (acc&0xffffffff)!=L[l]['d'][i]: bad+=1
    return bad,tot
def k64a(r,c,sel): g=c//2; return 4*(r%8)+(r//8)+2*(g//8), 4*(g%8)+2*(c%2), 1
def k64b(r,c,sel): g=c//2; return 4*(r%8)+2*(r//8)+(g//8), 4*(g%8)+2*(c%2), 1
def k64c(r,c,sel): g=c//2; return 4*(r%8)+(g//8)+2*(r//8), 4*(g%8)+2*(c%2), 1
for h in (k64a,k64b):
    print(h.__name__, run('mma_sp_s8_k64',0,64,4,4,8,h))
def s4a(r,c,sel): pc=c//2; g=pc//2; return 4*(r%8)+(r//8)+2*sel, 4*g+2*(pc%2), 2
def s4b(r,c,sel): g=c//2; return 4*(r%8)+(r//8)+2*sel+ 0, 4*(g%8)+2*(c%2), 1
print('s4a', run('mma_sp_s4_k64',0,64,2,2,4,s4a))
