package cli

import (
	"fmt"
	"time"
)

// durationFlag is a time.Duration flag that must not be negative.
type durationFlag struct{ time.Duration }

func (d *durationFlag) String() string {
	if d.Duration == 0 {
		return ""
	}
	return d.Duration.String()
}

func (d *durationFlag) Set(s string) error {
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("want a duration such as 90s or 2m")
	}
	d.Duration = v
	return nil
}
