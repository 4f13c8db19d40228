package nanoclaw

import (
	"strconv"
	"time"

	"github.com/robfig/cron/v3"
)

// NanoClaw 1 keeps a task's due time in scheduled_tasks.next_run while
// the task waits, and overwrites it when a run ends (with the next due
// time); task_run_logs keeps when each run ended (run_at) and how long it
// took. No row says when a past run was due, so dueTime recomputes it from
// the schedule, as NanoClaw's scheduler (src/task-scheduler.ts) sets it:
//
//   - cron: the last time the expression fired at or before the run
//     started (run_at − duration_ms), in NanoClaw's timezone;
//   - interval: the last time at or before the start on the task's grid
//     of next_run ± a multiple of the interval (NanoClaw anchors each due
//     time to the previous one);
//   - once: the time schedule_value names.
//
// A run with no log yet is due at next_run.

// cronParser reads cron expressions as NanoClaw's cron-parser does: five
// fields, or six with seconds first, and the @daily-style descriptors.
var cronParser = cron.NewParser(cron.SecondOptional | cron.Minute | cron.Hour | cron.Dom | cron.Month | cron.Dow | cron.Descriptor)

// dueTime is when the run of task t that run logs was due ("" when it
// cannot be known). zone is NanoClaw's timezone when known.
func dueTime(t *task, run *taskRun, zone string) string {
	if run == nil {
		return t.NextRun
	}
	end, ok := parseTime(run.RunAt)
	if !ok {
		return ""
	}
	start := end.Add(-time.Duration(run.DurationMs) * time.Millisecond)
	switch t.ScheduleType {
	case "once":
		return onceTime(t.ScheduleValue, zone)
	case "interval":
		ms, err := strconv.ParseInt(t.ScheduleValue, 10, 64)
		next, ok := parseTime(t.NextRun)
		if err != nil || ms <= 0 || !ok {
			return ""
		}
		// The grid point at or before start: next + floor((start-next)/ms)·ms.
		d := start.Sub(next).Milliseconds()
		k := d / ms
		if d%ms != 0 && d < 0 {
			k--
		}
		return isoMillis(next.Add(time.Duration(k*ms) * time.Millisecond))
	case "cron":
		if at, ok := cronDue(t.ScheduleValue, t.NextRun, zone, start); ok {
			return isoMillis(at)
		}
	}
	return ""
}

// onceTime is a once task's time: NanoClaw reads schedule_value with
// JavaScript's Date, so a time without an offset is in its timezone. It is
// returned as written when it cannot be converted.
func onceTime(value, zone string) string {
	if at, ok := parseTime(value); ok {
		return isoMillis(at)
	}
	if loc, ok := loadZone(zone); ok {
		for _, layout := range []string{"2006-01-02T15:04:05.999999999", "2006-01-02T15:04"} {
			if at, err := time.ParseInLocation(layout, value, loc); err == nil {
				return isoMillis(at)
			}
		}
	}
	return value
}

// cronDue is the last time expr fired at or before start. The expression
// is read in zone; when zone is unknown (or this machine does not know
// it), in the UTC offset under which next (a time the expression fires,
// NanoClaw's next_run) is one of its times — when every such offset gives
// the same answer.
func cronDue(expr, next, zone string, start time.Time) (time.Time, bool) {
	sched, err := cronParser.Parse(expr)
	if err != nil {
		return time.Time{}, false
	}
	spec, ok := sched.(*cron.SpecSchedule)
	if !ok {
		return time.Time{}, false
	}
	if loc, ok := loadZone(zone); ok {
		spec.Location = loc
		return lastFire(spec, start)
	}
	n, ok := parseTime(next)
	if !ok {
		return time.Time{}, false
	}
	var due time.Time
	found := false
	for off := -12 * time.Hour; off <= 14*time.Hour; off += 15 * time.Minute {
		spec.Location = time.FixedZone("", int(off.Seconds()))
		if !spec.Next(n.Add(-time.Second)).Equal(n) {
			continue
		}
		at, ok := lastFire(spec, start)
		if !ok || (found && !at.Equal(due)) {
			return time.Time{}, false
		}
		due, found = at, true
	}
	return due, found
}

// lastFire is the last time s fires at or before at, looking back up to
// five years.
func lastFire(s cron.Schedule, at time.Time) (time.Time, bool) {
	for _, back := range []time.Duration{time.Minute, time.Hour, 25 * time.Hour, 8 * 24 * time.Hour, 32 * 24 * time.Hour, 367 * 24 * time.Hour, 5 * 366 * 24 * time.Hour} {
		var last time.Time
		for t := s.Next(at.Add(-back)); !t.IsZero() && !t.After(at); t = s.Next(t) {
			last = t
		}
		if !last.IsZero() {
			return last, true
		}
	}
	return time.Time{}, false
}

// loadZone loads an IANA timezone by name; "" and "Local" name none.
func loadZone(zone string) (*time.Location, bool) {
	if zone == "" || zone == "Local" {
		return nil, false
	}
	loc, err := time.LoadLocation(zone)
	return loc, err == nil
}
