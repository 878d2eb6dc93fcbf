/**
 * CRC-32 (the gzip polynomial) of two byte strings joined, from each one's CRC and the second one's
 * length, without reading the bytes again: zlib's crc32_combine (multiplication modulo the CRC
 * polynomial by x^(8·length)), in O(log length).
 */
const POLYNOMIAL = 0xedb88320;

/** a · b modulo the polynomial (reflected bit order, as CRC-32 stores it). */
function multiplyModulo(a: number, b: number): number {
  let m = 0x80000000;
  let product = 0;
  let factor = b >>> 0;
  for (;;) {
    if ((a & m) !== 0) {
      product ^= factor;
      if ((a & (m - 1)) === 0) break;
    }
    m >>>= 1;
    factor = factor & 1 ? (factor >>> 1) ^ POLYNOMIAL : factor >>> 1;
  }
  return product >>> 0;
}

/** x^(2^k) modulo the polynomial, for k = 0..31. */
const POWERS: number[] = [];
for (let p = 0x40000000, k = 0; k < 32; k++) {
  POWERS.push(p);
  p = multiplyModulo(p, p);
}

/** x^(n·2^k) modulo the polynomial. */
function powerOfX(n: number, k: number): number {
  let p = 0x80000000;
  for (let rest = n, bit = k; rest > 0; rest = Math.floor(rest / 2), bit++) {
    if (rest % 2 === 1) p = multiplyModulo(POWERS[bit & 31] ?? 0, p);
  }
  return p;
}

export function crc32Combine(crcFirst: number, crcSecond: number, lengthSecond: number): number {
  return crc32CombineWith(crc32Shift(lengthSecond), crcFirst, crcSecond);
}

/** The part of crc32Combine that depends only on the second string's length: made once, reused for every join. */
export function crc32Shift(lengthSecond: number): number {
  return powerOfX(lengthSecond, 3);
}

/** crc32Combine with the second string's length given as its `crc32Shift`. */
export function crc32CombineWith(shift: number, crcFirst: number, crcSecond: number): number {
  return (multiplyModulo(shift, crcFirst >>> 0) ^ crcSecond) >>> 0;
}
