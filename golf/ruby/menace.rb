STDOUT.sync=1
L=->s{s+='012345678';(1..4).flat_map{[s=s.gsub(/#{'(.)'*9}/,'\7\4\1\8\5\2\9\6\3'),s.gsub(/.../){$&.reverse}]}}
B={}
%w(. X O).repeated_permutation(9){|a|(s=L[a*''])*?,=~/(\w)..\1..\1|(\w)...\2...\2/||B[t=s.min[0,9]]=[t.index(?.)]}
gets.to_i.times{puts'new game';b=?.*9;h={};w=1
9.times{|i|t,q=L[b].min.scan(/.{9}/);b[(i%2<1?q[h[t]=B[t].sample]:gets).to_i]='XO'[i%2];puts b
B[L[b].min[0,9]]||(w=2-i%2*2;break)}
B.each{|t,k|t.sum%75==39&&t.sum<700&&((d=h[t])&&(k==[d]&&3.times{k<<(0..8).select{t[_1]==?.}.sample};k[k.index(d),1]=[d]*w);puts(t+' '+k*' '))}}