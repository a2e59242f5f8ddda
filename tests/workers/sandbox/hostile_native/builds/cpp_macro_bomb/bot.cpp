#define L0 laugh laugh laugh laugh laugh laugh laugh laugh laugh laugh
#define L1 L0 L0 L0 L0 L0 L0 L0 L0 L0 L0
#define L2 L1 L1 L1 L1 L1 L1 L1 L1 L1 L1
#define L3 L2 L2 L2 L2 L2 L2 L2 L2 L2 L2
#define L4 L3 L3 L3 L3 L3 L3 L3 L3 L3 L3
#define L5 L4 L4 L4 L4 L4 L4 L4 L4 L4 L4
#define L6 L5 L5 L5 L5 L5 L5 L5 L5 L5 L5
#define L7 L6 L6 L6 L6 L6 L6 L6 L6 L6 L6
#define L8 L7 L7 L7 L7 L7 L7 L7 L7 L7 L7
#define L9 L8 L8 L8 L8 L8 L8 L8 L8 L8 L8
int laugh;
int main() { L9; }
