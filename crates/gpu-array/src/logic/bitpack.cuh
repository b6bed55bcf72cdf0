// packbits and unpackbits, one output element i of [outer, n, rdim] (C
// order) each, the input a raw array of [outer, len, rdim] read through
// its own strides; little: the first element is the least significant
// bit.
namespace cuprum_np {
// Output byte i: the truth of up to eight elements along the axis (len of
// them), the last byte padded with zero bits.
template <class A>
__device__ __forceinline__ unsigned char packbits(const A& a, long long i, long long len,
                                                  long long rdim, long long nbytes, int little) {
  const long long r = i % rdim, t = i / rdim;
  const long long j = t % nbytes, l = t / nbytes;
  unsigned int byte = 0;
  for (int b = 0; b < 8; ++b) {
    const long long e = j * 8 + b;
    if (e >= len) break;
    if (cuprum::cast<bool>(a[(l * len + e) * rdim + r]))
      byte |= 1u << (little ? b : 7 - b);
  }
  return (unsigned char)byte;
}

// Output bit i (0 or 1) of the nin bytes along the axis, 0 past them.
template <class A>
__device__ __forceinline__ unsigned char unpackbits(const A& a, long long i, long long nin,
                                                    long long rdim, long long nout, int little) {
  const long long r = i % rdim, t = i / rdim;
  const long long j = t % nout, l = t / nout;
  unsigned int bit = 0;
  if (j < nin * 8) {
    const unsigned int byte = a[(l * nin + j / 8) * rdim + r];
    const int b = (int)(j % 8);
    bit = (byte >> (little ? b : 7 - b)) & 1u;
  }
  return (unsigned char)bit;
}
}  // namespace cuprum_np
