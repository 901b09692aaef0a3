#define F(i,n)for(i=0;i<n;i++)
char P[8][10]={"012345678"},*L="012345678036147258048246",b[10],t[10],u[10],D[19683];
int B[19683][9],H[9],C[9],N,n,i,j,k,m,c,r,s,w;
G(n){F(k,9)b[k]="xO_"[n%3],n/=3;}
Q(char*s){m=0;*t=0;F(j,8){F(k,9)u[k]=s[P[j][k]-48];if(strcmp(u,t)>0)strcpy(t,u),m=j;}n=0;for(k=9;k--;)n=n*3+t[k]%3;}
W(){F(k,8)if(b[L[3*k]-48]-95&&b[L[3*k]-48]==b[L[3*k+1]-48]&&b[L[3*k]-48]==b[L[3*k+2]-48])return 1;return 0;}
main(){F(j,7)F(k,9)P[j+1][k]=P[j][(j%4?"630741852":"036147258")[k]-48];
F(i,19683){G(i);Q(b);if(!W()&&n==i){B[i][strcspn(t,"_")%9]=1;F(k,9)r+=t[k]-95?t[k]-79?1:-1:0,s+=t[k]==95;D[i]=!r&s>2;r=s=0;}}
for(scanf("%d",&N);N--;){puts("new game");strcpy(b,"_________");w=1;
F(i,9){if(i%2)fflush(0),scanf("%d",&c);else{Q(b);s=0;F(r,9)s+=B[n][r];r=rand()%s;for(c=0;r>=B[n][c];)r-=B[n][c++];
B[n][c]--;H[i]=n;C[i]=c;if(s<2)F(r,3){do k=rand()%9;while(t[k]-95);B[n][k]++;}c=P[m][c]-48;}
b[c]="xO"[i%2];puts(b);if(W()){w=i%2?0:2;break;}}
for(j=0;j<=i&&j<9;j+=2)B[H[j]][C[j]]+=w;
F(n,19683)if(D[n]){G(n);printf("%s",b);F(k,9)F(r,B[n][k])printf(" %d",k);puts("");}}}