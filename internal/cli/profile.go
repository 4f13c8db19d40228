package cli

import (
	"fmt"
	"os"
	"runtime"
	"runtime/pprof"
)

// profiles are --cpuprofile and --memprofile: files a slow or large run
// can be diagnosed from (go tool pprof FILE).
type profiles struct {
	cpu, mem string
}

// start begins the CPU profile, when asked for; the returned stop ends it
// and writes the heap profile. Profiling problems are reported, never fatal:
// the run matters more than its profile.
func (p profiles) start(a *app) (stop func()) {
	var cpu *os.File
	if p.cpu != "" {
		f, err := os.Create(p.cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			fmt.Fprintf(a.Err, "ananke: --cpuprofile: %v\n", err)
		} else {
			cpu = f
		}
	}
	return func() {
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				fmt.Fprintf(a.Err, "ananke: --cpuprofile: %v\n", err)
			}
		}
		if p.mem != "" {
			if err := writeHeap(p.mem); err != nil {
				fmt.Fprintf(a.Err, "ananke: --memprofile: %v\n", err)
			}
		}
	}
}

// writeHeap writes the heap profile: what was allocated over the run
// (alloc_space) and what is still live.
func writeHeap(path string) error {
	f, err := os.Create(path)
	if err != nil {
		return err
	}
	runtime.GC()
	if err := pprof.Lookup("allocs").WriteTo(f, 0); err != nil {
		f.Close()
		return err
	}
	return f.Close()
}
