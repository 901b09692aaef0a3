STDOUT.sync=1
W=/^(...)*(\w)\2\2|(\w)..\3..\3|(\w)...\4...\4|^..(\w).\5.\5/
L=->s{s+='012345678';(1..4).flat_map{[s=s.gsub(/#{'(.)'*9}/,'\7\4\1\8\5\2\9\6\3'),s.gsub(/.../){$&.reverse}]}.min.scan(/.{9}/)}
B={}
%w(. X O).repeated_permutation(9){|a|(b=a*'')=~W||B[t=L[b][0]]=[t.index(?.)]}
gets.to_i.times{puts'new game';b=?.*9;h=[]
9.times{|i|t,q=L[b];r=rand((k=B[t]).size);k[1]||3.times{k<<(0..8).select{t[_1]==?.}.sample}
h<<[k,r];b[(i%2<1?q[k[r]]:gets).to_i]='XO'[i%2];puts b
b=~W&&(h.each{|k,r|k[r,1]=[k[r]]*(2-i%2*2)};break)}
B.each{|t,k|t.sum%75==39&&t.sum<700&&puts(t+' '+k*' ')}}