import os,sys,collections,re
def load(root):
    out={}
    for fam in sorted(os.listdir(root)):
        for f in sorted(os.listdir(os.path.join(root,fam))):
            label=f[:-3]
            t=open(os.path.join(root,fam,f)).read()
            # names of every kernel in the program (extern "C" __global__ void NAME)
            names=re.findall(r'__global__ void (\w+)\(',t)
            n=t
            for k,name in enumerate(names): n=re.sub(r'\b%s\b'%re.escape(name),'KNAME%d'%k,n)
            out[(fam,label)]=n
    return out
b=load(sys.argv[1]); a=load(sys.argv[2])
for fam in sorted(set(f for f,_ in b)):
    bc=collections.Counter(v for (f,_),v in b.items() if f==fam)
    ac=collections.Counter(v for (f,_),v in a.items() if f==fam)
    same=sum((bc&ac).values())
    print(f"{fam}: before {sum(bc.values())} after {sum(ac.values())} identical-but-name {same}")
    if len(sys.argv)>3 and fam==sys.argv[3]:
        onlyb=[k for k,v in b.items() if k[0]==fam and v not in ac]
        onlya=[k for k,v in a.items() if k[0]==fam and v not in bc]
        print(" only before:", len(onlyb), onlyb[:8]); print(" only after:", len(onlya), onlya[:8])
