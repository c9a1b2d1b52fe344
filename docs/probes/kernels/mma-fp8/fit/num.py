# exact numbers: (cls, sign, m, e) value = (-1)^s m 2^e ; cls 0 zero,1 fin,2 inf,3 nan
def dec(t, x):
    if t=='e4m3':
        s=x>>7; e=(x>>3)&15; f=x&7
        if (x&0x7f)==0x7f: return (3,s,0,0,0)
        if e==0:
            if f==0: return (0,s,0,0,0)
            return (1,s,f,-9,-9+f.bit_length()-1)
        return (1,s,f|8,e-10,e-7)
    if t=='e5m2':
        s=x>>7; e=(x>>2)&31; f=x&3
        if e==31: return (3 if f else 2,s,0,0,0)
        if e==0:
            if f==0: return (0,s,0,0,0)
            return (1,s,f,-16,-14)
        return (1,s,f|4,e-17,e-15)
    if t=='f32':
        s=x>>31; e=(x>>23)&255; f=x&0x7fffff
        if e==255: return (3 if f else 2,s,0,0,0)
        if e==0:
            if f==0: return (0,s,0,0,0)
            return (1,s,f,-149,-126)
        return (1,s,f|0x800000,e-150,e-127)
def bitlen(m): return m.bit_length()
def enc32(sign, m, e, rn=False):
    # round sign*m*2^e to f32, RZ or RN; overflow inf
    if m==0: return 0
    top=e+bitlen(m)-1
    lsb = max(top,-126)-23
    sh=lsb-e
    if sh<=0: q=m<<(-sh)
    else:
        q=m>>sh; rem=m&((1<<sh)-1); half=1<<(sh-1)
        if rn and (rem>half or (rem==half and q&1)): q+=1
    if bitlen(q)>24: q>>=1; lsb+=1
    if q==0: return 0
    sb=sign<<31
    if bitlen(q)<=23: return sb|q
    be=lsb+23+127
    if be>=255: return sb|0x7f800000
    return sb|(be<<23)|(q&0x7fffff)
def dec16(x):
    s=x>>15; e=(x>>10)&31; f=x&1023
    if e==31: return (3 if f else 2,s,0,0,0)
    if e==0:
        if f==0: return (0,s,0,0,0)
        return (1,s,f,-24,-14)
    return (1,s,f|1024,e-25,e-15)
def enc(sign,m,e,eb,fb,rn):
    if m==0: return 0
    bias=(1<<(eb-1))-1; emin=1-bias
    top=e+bitlen(m)-1
    lsb=max(top,emin)-fb
    sh=lsb-e
    if sh<=0: q=m<<(-sh)
    else:
        q=m>>sh; rem=m&((1<<sh)-1); half=1<<(sh-1)
        if rn and (rem>half or (rem==half and q&1)): q+=1
    if bitlen(q)>fb+1: q>>=1; lsb+=1
    if q==0: return 0
    sb=sign<<(eb+fb)
    if bitlen(q)<=fb: return sb|q
    be=lsb+fb+bias
    if be>=(1<<eb)-1: return sb|(((1<<eb)-1)<<fb)
    return sb|(be<<fb)|(q&((1<<fb)-1))
