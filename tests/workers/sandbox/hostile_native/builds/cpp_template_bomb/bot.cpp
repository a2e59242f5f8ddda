template <int Depth, long Path>
struct Bomb {
    static constexpr long value = Bomb<Depth - 1, Path * 2>::value + Bomb<Depth - 1, Path * 2 + 1>::value;
};
template <long Path>
struct Bomb<0, Path> {
    static constexpr long value = 1;
};
int main() { return Bomb<40, 1>::value == 0; }
