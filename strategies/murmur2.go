package strategies

import "encoding/binary"

// Murmur2 is Kafka's Utils.murmur2: the 32-bit MurmurHash2 variant the Java
// producer uses to map a key to a partition. The result is signed, as Java
// returns it, so callers can show the same number a Java trace would.
func Murmur2(data []byte) int32 {
	const (
		seed = 0x9747b28c
		m    = 0x5bd1e995
		r    = 24
	)
	// uint32 arithmetic wraps exactly like Java's int, and >> on uint32 is
	// Java's >>> (logical shift).
	h := uint32(seed) ^ uint32(len(data))
	for len(data) >= 4 {
		k := binary.LittleEndian.Uint32(data) // one load; Java assembles the same little-endian word
		data = data[4:]
		k *= m
		k ^= k >> r
		k *= m
		h *= m
		h ^= k
	}
	switch len(data) {
	case 3:
		h ^= uint32(data[2]) << 16
		fallthrough
	case 2:
		h ^= uint32(data[1]) << 8
		fallthrough
	case 1:
		h ^= uint32(data[0])
		h *= m
	}
	h ^= h >> 13
	h *= m
	h ^= h >> 15
	return int32(h)
}

// ToPositive is Kafka's Utils.toPositive: it clears the sign bit. It is not
// Math.abs: toPositive(-1) is 2147483647, not 1.
func ToPositive(n int32) int32 { return n & 0x7fffffff }

// KeyPartition is the partition Kafka's producer picks for a non-null key
// (BuiltInPartitioner.partitionForKey, DefaultPartitioner before 3.3):
// toPositive(murmur2(key)) % numPartitions over all partitions of the topic,
// available or not. numPartitions must be at least 1.
func KeyPartition(key []byte, numPartitions int) int {
	return positiveMod(ToPositive(Murmur2(key)), numPartitions)
}

// positiveMod is pos % n for pos ≥ 0 and 1 ≤ n, in 32-bit arithmetic when n
// fits (a 32-bit division is several times cheaper than a 64-bit one).
func positiveMod(pos int32, n int) int {
	if n <= 1<<31-1 {
		return int(uint32(pos) % uint32(n))
	}
	return int(pos) // pos < 2^31 ≤ n
}
