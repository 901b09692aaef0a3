<?php
for($q=$z='012345678';$n<2e4;preg_grep('/([12])(..\1..|...\1...)\1/',$w)||$B[$l=($T[$b]=min($r))[0]]=strspn($l,12))for($b=sprintf('%09s
',base_convert($n++,10,3)),$i=8;$i--;)$r[$i]=[$w[$i]=strtr($q=strtr($q,$z,$i%2?852741630:210543876),$z,$b),$q];for($g=readline();$g--;){echo"new game
";for($b=key($T),$i=9;([$l,$q]=$T[$b])&&$i--;$s='-'.str_shuffle($s),$b[$i%2?readline():$q[$s[1]]]=$i%2+1,print$b)for($s=&$B[$l],$t=$s;$t.$s[2]=='';)$l[$k=rand(0,8)]>0||$s.=$k;foreach($B as$l=>&$v){$v<'.'&&$v=substr(strtr($v,'-',$v[1]),(3-$i%2)%3);strtr($l,2,8)%9|substr_count($l,0)<3||print"$l $v
";}}
