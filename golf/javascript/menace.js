x=_=>require('fs').readSync(0,k=Buffer(9))&&parseInt(k)
f=S=>S[Math.random()*S.length|0]
a=_=>[[e,F]]=[...F='012345678'].map(b=>[(F=F.replace(/./g,S=>b%2?S*3%8||S:S-S%3*2+2)).replace(/./g,S=>_[S]),F]).sort()
g=(_,S)=>_[8]?/(\w)..\1..\1|(\w)...\2...\2/.test(a(_))||((S%9|S>27?g:f)[e]=g[e]=e.replace(/./g,(h,e)=>h>'.'?'':e)):g(_+'O',S+8)|g(_+'X',S+1)|g(_+'.',S)
for($=x(g('',0));$--;){_=console.log('new game');for(S=[...e];(_^=1,V=g[a(S),e]);console.log(...S))S[_?F[S[e]=f(V)]:x()]='OX'[_];for(e in f)console.log(e,g[e]=(g[e]==S[e]?g[e]+f(n=f[e])+f(n)+f(n):g[e]).replace(S[V??e],_?'':'$&$&'))}