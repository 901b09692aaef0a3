M=Math.random
P=console.log
R=_=>require('fs').readSync(0,c=Buffer(9))&&parseInt(c)
W=/^(...)*(\w)\2\2|(\w)..\3..\3|(\w)...\4...\4|^..(\w).\5.\5/
Q=(a='012345678036147258210543876630741852',a+[...a].reverse().join``).match(/.{9}/g)
L=b=>Q.map(q=>[q.replace(/./g,i=>b[i]),q]).sort()[0]
B={};D={};(G=(b,e)=>b[8]?W.test(b)||(B[t=L(b)[0]]=[t.indexOf`.`],e%11||e>33||(D[t]=1)):[0,1,10].map((w,i)=>G(b+'.XO'[i],e+w)))('',0)
for(n=R();n--;){P('new game');b=[...'.........'];h=[];for(p of'XOXOXOXOX'){[t,q]=L(b);r=M()*(k=B[t]).length|0;for(j=k[1]+1?0:3;j;)t[x=M()*9|0]>'.'||j--&&k.push(x);h.push([k,r]);b[p>'O'?q[k[r]]:R()]=p;P(s=b.join``);if(W.test(s)){for([k,r]of h)p>'O'?k.push(k[r]):k.splice(r,1);break}}for(t in D)P(t,...B[t])}