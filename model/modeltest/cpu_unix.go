//go:build unix

package modeltest

import (
	"syscall"
	"testing"
)

// CPUMs is the process's CPU time so far (user and system, all threads:
// the garbage collector's work counts), in milliseconds. On a machine
// other jobs share, wall time per op says more about them than about the
// code; a benchmark reports both (ReportCPU).
func CPUMs() float64 {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return float64(ru.Utime.Nano()+ru.Stime.Nano()) / 1e6
}

// ReportCPU reports the CPU milliseconds per op since from (a CPUMs
// reading taken when the timed loop began) as cpu-ms/op.
func ReportCPU(b *testing.B, from float64) {
	b.ReportMetric((CPUMs()-from)/float64(b.N), "cpu-ms/op")
}
