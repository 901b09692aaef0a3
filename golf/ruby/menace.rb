$>.sync=g={}
u=->s{q=[*0..8]*'';(1..8).map{q=q.tr('0-8',%w(036147258 210543876)[_1%2]);[q.tr('0-8',s),q]}}
%w(. X O).repeated_permutation(9){(m=u[_1*''])*?,=~/(\w)(..\1..|...\1...)\1/||g[t=m.min[0]]=[t=~/\./]}
eval"puts'new game';n=?.*9;h=[]
9.times{|i|t,q=u[n].min;h<<e=g[t];e[0]||3.times{t[r=rand(9)]>?.?redo:e<<r};n[(i%2<1?q[e.shuffle![0]]:gets).to_i]='XO'[i%2];puts n
g[u[n].min[0]]or break h.map{_1[0,1]*=~i%2*2}}
g.each{_1[0].sum%113%37<2&&puts(_1*' ')}
"*gets.to_i