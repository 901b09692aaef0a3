from random import*
I=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
R=*range(9),
S='',
for _ in R:S=[s+c for s in S for c in'X_o']
B={max(I(b)):[b.find('_')]for b in S if all('XXY'<t<'ooo'>t[3:]>'XXY'<t[::4]<'ooo'for t in I(b))}
exec("""print('new game');b='_'*9;h=[]
for p in S[4920]:
 t,q=max(zip(I(b),I(R)));k=B[t]=B[t]or choices(R,map('_'.count,t),k=3);h+=(k,d:=choice(k)),;m=p<'o'and~q[d]or~int(input())
 if print(b:=b[:~m]+p+b[-m:])or max(I(b))not in B:[(k.remove,k.append)[p<'o'](d)for k,d in h];break
for t in B:(c:=t.count)('X')==c('o')<4==print(t,B[t])
"""*int(input()))