package modeltest

import "math/rand/v2"

// Walk is an order in which to visit n steps the way a lab's keys do:
// forward through them, back through them (every stride-th: a long
// demo's quiet stretches are the same step many times), then jumps
// nearby pairs; seeded, so a failure repeats.
func Walk(n, stride, jumps int, seed uint64) []int {
	stride = max(stride, 1)
	var order []int
	for i := 0; i < n; i += stride {
		order = append(order, i)
	}
	for i := n - 1; i >= 0; i -= stride {
		order = append(order, i)
	}
	r := rand.New(rand.NewPCG(uint64(n), seed))
	for range jumps {
		i := r.IntN(n)
		order = append(order, i, min(i+1+r.IntN(3), n-1), max(i-1-r.IntN(3), 0))
	}
	return order
}
