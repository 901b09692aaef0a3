<?php
function L($b){$s=$b.'012345678';for($i=4;$i--;$r[]=preg_replace('/(.)(.)(.)/','$3$2$1',$s))$r[]=$s=preg_replace('/(.)(.)(.)(.)(.)(.)(.)(.)(.)/','$7$4$1$8$5$2$9$6$3',$s);sort($r);return$r;}
for($n=0;$n<19683;)preg_match('/(\w)..\1..\1|(\w)...\2...\2/',join(',',$r=L(strtr(sprintf('%09s',base_convert($n++,10,3)),'012','.XO'))))||$B[$t=substr($r[0],0,9)]=[strpos($t,'.')];
for($g=fgets(STDIN);$g--;){echo"new game\n";$b='.........';$h=[];
foreach(str_split('XOXOXOXOX')as$p){[$t,$q]=str_split(L($b)[0],9);$h[$t]=$r=array_rand($B[$t]);
if(count($B[$t])<2)for($j=3;$j;)if($t[$e=rand(0,8)]=='.'){$B[$t][]=$e;$j--;}
$b[$p>'O'?$q[$B[$t][$r]]:+fgets(STDIN)]=$p;echo"$b\n";
if(!isset($B[substr(L($b)[0],0,9)])){foreach($h as$t=>$r)$p>'O'?$B[$t][]=$B[$t][$r]:array_splice($B[$t],$r,1);break;}}
foreach($B as$t=>$k)($c=count_chars($t))[88]==$c[79]&&$c[46]>2&&print"$t ".join(' ',$k)."\n";}