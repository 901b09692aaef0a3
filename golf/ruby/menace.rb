STDOUT.sync=1
z=0x7979f969d6673a0a5692b2a9b66904.to_s;z<<z.tr('0-8','876543210')
A=->s{z.scan(/.{9}/).map{|q|[q.tr('0-8',s),q]}}
B={}
%w(. X O).repeated_permutation(9){|a|(s=A[a*''])*?,=~/(\w)..\1..\1|(\w)...\2...\2/||B[t=s.min[0]]=[t.index(?.)]}
gets.to_i.times{puts'new game';b=?.*9;h={};w=1
9.times{|i|t,q=A[b].min;b[(i%2<1?q[h[t]=B[t].sample]:gets).to_i]='XO'[i%2];puts b
B[A[b].min[0]]||(w=2-i%2*2;break)}
B.each{|t,e|t.sum%75==39&&t.sum<700&&((d=h[t])&&(e==[d]&&3.times{e<<(0..8).select{t[_1]==?.}.sample};e[e.index(d),1]=[d]*w);puts(t+' '+e*' '))}}