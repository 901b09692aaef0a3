from random import*
I=lambda s:[s:=s[a::3]+s[1::3]+s[2-a::3]for a in[0,2,2,2]*2]
R=[*range(9)]
S={''}
for _ in R:S={s+c for s in S for c in'.XO'}
B={(t:=min(I(b))):[t.find('.')]for b in S if not{'XXX','OOO'}&{u for t in I(b)for u in(t[:3],t[3:6],t[::4])}}
exec("""print('new game');b='.'*9;h=[]
for p in'XOXOXOXOX':
 t,q=min(zip(I(b),I(R)));k=B[t];k+=choices(R,[c<'O'for c in t],k=3)*(k==[d:=choice(k)]);h+=(k,d),;m=q[d]if'O'<p else int(input())
 if print(b:=b[:m]+p+b[m+1:])or min(I(b))not in B:[(k.remove,k.append)[p>'O'](d)for k,d in h];break
for t in B:t.count('X')==t.count('O')<4==print(t,*B[t])
"""*int(input()))