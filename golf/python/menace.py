from random import*
b=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
u=*range(9),
g='',
for _ in u:g=[s+c for s in g for c in'x_0']
e={min(t*('001'<t<'xxx'>t[3:]>'001'<t[::4]<'xxx')for t in b(i)):[i.find('_')]for i in g}
exec("""x='new game';i='_'*9;o=[]
for p in g[4920]+'_':
 print(x);t,r=min(zip(b(i),b(u)))
 if t not in e:[a[p>'w'](d)for*a,d in o];break
 n=e[t]=e[t]or choices(u,map('_'.count,t),k=3);o+=(n.append,n.remove,d:=choice(n)),;m=p>'0'and~r[d]or~int(input());x=i=i[:~m]+p+i[-m:]
for t in e:sum(map(ord,t))%96%11>9==print(t,e[t])
"""*int(input()))