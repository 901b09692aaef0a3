#define F(i,n)for(i=0;i<n;i++)
#define V(x)b[L[3*k+x]-48]
char P[8][10]={"012345678"},*L="012345678036147258048246",b[10],t[10],u[10],D[19683];
int B[19683][9],*H[5],N,n,i,j,k,m,c,r,s,w,g;
G(n){F(k,9)b[k]="xO_"[n%3],n/=3;}
Q(char*s){m=0;*t=0;F(j,8){F(k,9)u[k]=s[P[j][k]-48];if(strcmp(u,t)>0)strcpy(t,u),m=j;}n=0;for(k=9;k--;)n=n*3+t[k]%3;}
W(){F(k,8)if(V(0)-95&&V(0)==V(1)&&V(1)==V(2))break;return k<8;}
main(){F(j,7)F(k,9)P[j+1][k]=P[j][(j%4?"630741852":"036147258")[k]-48];
F(i,19683){G(i);Q(b);if(!W()&&n==i){B[i][strcspn(t,"_")%9]=1;s=0;F(k,9)s+=t[k];D[i]=s%9<1&s<883;}}
for(scanf("%d",&N);N--;){puts("new game");G(19682);w=1;
F(i,9){if(i%2)fflush(0),scanf("%d",&c);else{Q(b);s=0;F(r,9)s+=B[n][r];r=rand()%s;for(c=0;r>=B[n][c];)r-=B[n][c++];
B[n][c]--;H[g++]=B[n]+c;if(s<2)F(r,3){do k=rand()%9;while(t[k]-95);B[n][k]++;}c=P[m][c]-48;}
b[c]="xO"[i%2];puts(b);if(W()){w=i%2?0:2;break;}}
while(g)*H[--g]+=w;
F(n,19683)if(D[n]){G(n);printf(b);F(k,9)F(r,B[n][k])printf(" %d",k);puts("");}}}