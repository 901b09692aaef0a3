from random import*
n=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
b=*range(9),
f='',
for _ in b:f=[s+c for s in f for c in'X_o']
e={max(n(i)):[i.find('_')]for i in f if all('XXY'<t<'ooo'>t[3:]>'XXY'<t[::4]<'ooo'for t in n(i))}
exec("""print('new game');i='_'*9;h=[]
for p in f[4920]:
 t,r=max(zip(n(i),n(b)));k=e[t]=e[t]or choices(b,map('_'.count,t),k=3);h+=(k,d:=choice(k)),;m=p<'o'and~r[d]or~int(input())
 if print(i:=i[:~m]+p+i[-m:])or max(n(i))not in e:[(k.remove,k.append)[p<'o'](d)for k,d in h];break
for t in e:(c:=t.count)('X')==c('o')<4==print(t,e[t])
"""*int(input()))