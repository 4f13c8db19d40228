package nanoclaw

import "testing"

// TestDueTime recomputes when a NanoClaw 1 run was due from its schedule
// and its run log (which says when it ended and how long it took).
func TestDueTime(t *testing.T) {
	// A run that started at 12:00:01.112Z (it ended 13.034 s later).
	run := &taskRun{RunAt: "2026-04-08T12:00:14.146Z", DurationMs: 13034}
	for _, tc := range []struct {
		name string
		task task
		run  *taskRun
		zone string
		want string
	}{
		{"cron in the prompts' zone", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *"}, run, "America/New_York", "2026-04-08T12:00:00.000Z"},
		{"cron in another zone", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *"}, run, "Europe/Berlin", "2026-04-08T06:00:00.000Z"},
		{"cron, zone from next_run", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *", NextRun: "2026-04-09T12:00:00.000Z"}, run, "", "2026-04-08T12:00:00.000Z"},
		{"cron, unknown zone", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *", NextRun: "2026-04-09T12:00:00.000Z"}, run, "Nowhere/Atlantis", "2026-04-08T12:00:00.000Z"},
		{"cron whose zone does not matter", task{ScheduleType: "cron", ScheduleValue: "*/15 * * * *", NextRun: "2026-04-08T12:15:00.000Z"}, run, "", "2026-04-08T12:00:00.000Z"},
		{"cron with seconds", task{ScheduleType: "cron", ScheduleValue: "30 0 12 * * *"}, run, "UTC", "2026-04-07T12:00:30.000Z"},
		{"cron, no zone and no next_run", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *"}, run, "", ""},
		{"cron that next_run does not fit", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *", NextRun: "2026-04-09T12:07:00.000Z"}, run, "", ""},
		{"bad cron", task{ScheduleType: "cron", ScheduleValue: "every morning"}, run, "UTC", ""},
		{"a late run of a missed slot", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *"}, &taskRun{RunAt: "2026-04-08T19:00:00.000Z", DurationMs: 1000}, "America/New_York", "2026-04-08T12:00:00.000Z"},
		{"interval on next_run's grid", task{ScheduleType: "interval", ScheduleValue: "3600000", NextRun: "2026-04-08T14:30:00.000Z"}, run, "", "2026-04-08T11:30:00.000Z"},
		{"interval, next_run before the run", task{ScheduleType: "interval", ScheduleValue: "3600000", NextRun: "2026-04-08T09:30:00.000Z"}, run, "", "2026-04-08T11:30:00.000Z"},
		{"interval, bad value", task{ScheduleType: "interval", ScheduleValue: "0", NextRun: "2026-04-08T14:30:00.000Z"}, run, "", ""},
		{"once with an offset", task{ScheduleType: "once", ScheduleValue: "2026-04-08T08:00:00-04:00"}, run, "", "2026-04-08T12:00:00.000Z"},
		{"once in local time", task{ScheduleType: "once", ScheduleValue: "2026-04-08T08:00:00"}, run, "America/New_York", "2026-04-08T12:00:00.000Z"},
		{"once in an unknown zone", task{ScheduleType: "once", ScheduleValue: "2026-04-08T08:00:00"}, run, "", "2026-04-08T08:00:00"},
		{"no run log yet", task{ScheduleType: "cron", ScheduleValue: "0 8 * * *", NextRun: "2026-04-09T12:00:00.000Z"}, nil, "", "2026-04-09T12:00:00.000Z"},
		{"bad run_at", task{ScheduleType: "once", ScheduleValue: "2026-04-08T08:00:00Z"}, &taskRun{RunAt: "yesterday"}, "", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := dueTime(&tc.task, tc.run, tc.zone); got != tc.want {
				t.Errorf("dueTime = %q, want %q", got, tc.want)
			}
		})
	}
}
