import struct, sys
EXP = "/work/wt-fp8/tests/kernels/expected/nvcc/"
INS = "/tmp/fp8/ins/"
def A_pos(M,E,lane,i):
    g,t,r,j=lane>>2,lane&3,i//E,i%E
    return g+8*(r&1), t*E+j+4*E*(r>>1)
def B_pos(E,lane,i):
    g,t,r,j=lane>>2,lane&3,i//E,i%E
    return t*E+j+4*E*r, g
def C_pos(lane,i):
    g,t=lane>>2,lane&3
    return g+8*(i>>1), 2*t+(i&1)
def u32s(b): return list(struct.unpack('<%dI'%(len(b)//4), b))
def load(case, tame=None):
    if tame is None: tame = case.endswith('_tame')
    A=u32s(open(INS+case+'.in0','rb').read()); B=u32s(open(INS+case+'.in1','rb').read()); C=u32s(open(INS+case+'.in2','rb').read())
    D=u32s(open(EXP+case+'.bin','rb').read())
    cm = 0xbfffffff if tame else 0xffffffff
    out=[]
    for w in range(len(A)//4//32):
        Am=[[0]*32 for _ in range(16)]; Bm=[[0]*8 for _ in range(32)]; Cm=[[0]*8 for _ in range(16)]
        for l in range(32):
            li=w*32+l
            for i in range(16):
                r,c=A_pos(16,4,l,i); Am[r][c]=(A[li*4+i//4]>>(8*(i%4)))&0xff
            for i in range(8):
                r,c=B_pos(4,l,i); Bm[r][c]=(B[li*2+i//4]>>(8*(i%4)))&0xff
            for i in range(4):
                r,c=C_pos(l,i); Cm[r][c]=C[li*4+i]&cm
        for l in range(32):
            li=w*32+l
            for i in range(4):
                r,c=C_pos(l,i)
                out.append((Am[r][:], [Bm[k][c] for k in range(32)], Cm[r][c], D[li*4+i]))
    return out
