M=Math.random
P=console.log
R=_=>require('fs').readSync(0,c=Buffer(9))&&parseInt(c)
Q=0x7979f969d6673a0a5692b2a9b66904n+'';Q+=Q.replace(/./g,i=>8-i)
L=b=>[[t,q]]=Q.match(/.{9}/g).map(q=>[q.replace(/./g,i=>b[i]),q]).sort()
G=(b,e)=>b[8]?/(\w)..\1..\1|(\w)...\2...\2/.test(L(b))||((e%9|e>27?G:M)[t]=G[t]=t.indexOf`.`+[]):G(b+'O',e+8)|G(b+'X',e+1)|G(b+'.',e)
for(n=R(G('',0));n--;){i=P('new game');for(b=[...t];(i^=1,k=G[L(b),t])>=0;P(...b))b[i?q[b[t]=k[M()*k.length|0]]:R()]='OX'[i];for(t in M)for(j=G[t]==b[t]&&3;j||P(t,G[t]=G[t].replace(b[k||t],i?'':'$&$&'));)t[x=M()*9|0]>'.'||j--&&(G[t]+=x)}