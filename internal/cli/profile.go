package cli

import (
	"errors"
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
// and writes the heap profile. Profiling problems are reported, never fatal
// (their exit code is 0): the run matters more than its profile.
func (p profiles) start(a *app) (stop func() error) {
	var cpu *os.File
	if p.cpu != "" {
		f, err := os.Create(p.cpu)
		if err == nil {
			err = pprof.StartCPUProfile(f)
		}
		if err != nil {
			a.warn("", fmt.Errorf("--cpuprofile: %w", err))
		} else {
			cpu = f
		}
	}
	return func() error {
		var errs []error
		if cpu != nil {
			pprof.StopCPUProfile()
			if err := cpu.Close(); err != nil {
				errs = append(errs, exitf(ExitPass, "", "--cpuprofile: %w", err))
			}
		}
		if p.mem != "" {
			if err := writeHeap(p.mem); err != nil {
				errs = append(errs, exitf(ExitPass, "", "--memprofile: %w", err))
			}
		}
		return errors.Join(errs...)
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
