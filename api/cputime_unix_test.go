//go:build unix

package api_test

import (
	"syscall"
	"time"
)

// cpuTime is the CPU time the process has used (user and system): a measure of work that the
// load of other processes on the machine does not inflate, as wall time it does.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	if err := syscall.Getrusage(syscall.RUSAGE_SELF, &ru); err != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}
