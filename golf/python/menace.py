from random import*
X=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
g=*range(9),
f='',
for _ in g:f=[s+c for s in f for c in'X_o']
e={max(X(i)):[i.find('_')]for i in f if all('XXY'<t<'ooo'>t[3:]>'XXY'<t[::4]<'ooo'for t in X(i))}
exec("""x='new game';i='_'*9;o=[]
for p in f[4920]+'_':
 print(x);t,r=max(zip(X(i),X(g)))
 if t not in e:[a[p<'Y'](d)for*a,d in o];break
 n=e[t]=e[t]or choices(g,map('_'.count,t),k=3);o+=(n.append,n.remove,d:=choice(n)),;m=p<'o'and~r[d]or~int(input());x=i=i[:~m]+p+i[-m:]
for t in e:(c:=t.count)('X')==c('o')<4==print(t,e[t])
"""*int(input()))