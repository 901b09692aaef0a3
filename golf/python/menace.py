from random import*
u=*range(9),
r='',
for t in u:r=[i+r for i in r for r in'x_0']
k=lambda i:[i:=i[t::3]+i[1::3]+i[2-t::3]for t in[0,2,2,2]*2]
e={min(t*('001'<t[3:]<'xxx'>t>'001'<t[::4]<'xxx')for t in k(i)):[i.find('_')]for i in r}
exec(int(input())*"""p,i,*s='new game','_'*9
try:
 for r in'x0x0x0x0x_':t,x=min(zip(k(i),k(u)));print(p);l=e[t]=e[t]or choices(u,map('_'.count,t),k=3);shuffle(l);s+=l,;m=r>'0'and~x[l[0]]or~int(input());p=i=i[:~m]+r+i[-m:]
except:
 for i in s:i[:1]*=2*(r<'x')
for t in e:9<sum(map(ord,t))%96%11==print(t,e[t])
""")