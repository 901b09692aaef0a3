$>.sync=1
u=->s{q=[*0..8]*'';(1..8).map{q=q.tr('0-8',%w(036147258 210543876)[_1%2]);[q.tr('0-8',s),q]}}
g={}
%w(. X O).repeated_permutation(9){|j|(m=u[j*''])*?,=~/(\w)..\1..\1|(\w)...\2...\2/||g[t=m.min[0]]=[t=~/\./]}
gets.to_i.times{puts'new game';n=?.*9;h={}
w=14%9.times{|i|t,q=u[n].min;n[(i%2<1?q[h[t]=g[t].sample]:gets).to_i]='XO'[i%2];puts n
g[u[n].min[0]]or break i}%4
g.each{|t,e|t.sum%113%37<2&&((d=h[t])&&(e[1]||3.times{t[r=rand(9)]>?.?redo:e<<r};e[e.index(d),1]=[d]*w);puts [t,e]*' ')}}