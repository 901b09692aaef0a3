S={}for i=0,71 do k=S[i-9]S[i]=i<9 and i or i//9%2>0 and k%3*3+k//3 or k+2-k%3*2 end
B,L,v,d,C,R={},{},0,0,{[0]="X","-","O"},math.random
function Q()n=0 z=F for k=71,0,-1 do v=v*3+b:byte(S[k]+1)%11 d=d+(k%9%4<1 and v%3 or 0)z=z or k%3<1 and v%27%26<1 if k%9<1 then z=z or d%6<1 if v>n then n=v m=k-1 end v=0 d=0 end end end
function G(n)b=""s=0 for k=0,8 do c=C[n%3]b=b..c s=s+c:byte()n=n//3 end Q()end
for i=0,2e4 do G(i)B[i]=b:find"-"if n==i and not z and s%106%29<1 then L[b]=i end end
for _=1,io.read"n"do print"new game"G(9841)H={}i=0
repeat if i%2>0 then io.flush()c=io.read"n"else t=B[n]..""for _=#t*3+1,3 do repeat k=R(9)until b:byte(S[m+k]+1)<50 t=t..k end B[n]=t r=R(#t)H[n]=t:sub(r,r)c=S[m+H[n]]end
b=b:sub(1,c)..C[i%2*2]..b:sub(c+2)print(b)Q()i=i+1 until z or i>8
for j,e in pairs(H)do B[j]=B[j]:gsub(e,e:rep(z and i%2*2 or 1),1)end
for l,i in pairs(L)do print(l,B[i])end end