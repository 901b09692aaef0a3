from random import*
b=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
u=*range(9),
g='',
for _ in u:g=[s+c for s in g for c in'x_0']
f={min(t*('001'<t<'xxx'>t[3:]>'001'<t[::4]<'xxx')for t in b(i)):[i.find('_')]for i in g}
exec("""i,h,*o='_'*9,'new game'
for p in'x0x0x0x0x_':
 print(h);t,l=min(zip(b(i),b(u)))
 if t not in f:
  for t in o:t[:1]*=2*(p<'x')
  break
 n=f[t]=f[t]or choices(u,map('_'.count,t),k=3);shuffle(n);o+=n,;m=p>'0'and~l[n[0]]or~int(input());h=i=i[:~m]+p+i[-m:]
for t in f:sum(map(ord,t))%96%11>9==print(t,f[t])
"""*int(input()))