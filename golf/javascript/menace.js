v=s=>require('fs').readSync(0,p=Buffer(9))&&parseInt(p)
w=s=>s[Math.random()*s.length|0]
l=t=>[[N,j]]=[...j='012345678'].map(q=>[(j=j.replace(/./g,x=>q%2?x*3%8||x:x-x%3*2+2)).replace(/./g,x=>t[x]),j]).sort()
Q=(g,o)=>g[8]?/(\w)..\1..\1|(\w)...\2...\2/.test(l(g))||((o%9|o>27?Q:w)[N]=Q[N]=N.replace(/./g,(e,Z)=>e>'.'?'':Z)):Q(g+'O',o+8)|Q(g+'X',o+1)|Q(g+'.',o)
for(U=v(Q('',0));U--;){n=console.log('new game');for(e=[...N];(n^=1,z=Q[l(e),N]);console.log(...e))e[n?j[e[N]=w(z)]:v()]='OX'[n];for(N in w)console.log(N,Q[N]=(Q[N]==e[N]?Q[N]+w(X=w[N])+w(X)+w(X):Q[N]).replace(e[z??N],n?'':'$&$&'))}