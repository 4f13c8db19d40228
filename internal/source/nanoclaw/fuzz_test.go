package nanoclaw

import (
	"testing"
	"time"
)

// FuzzDueTime feeds dueTime schedules and run logs as a NanoClaw store may
// hold them: it must not panic, and what it returns is "", a time, or a
// once task's value as written.
func FuzzDueTime(f *testing.F) {
	f.Add("cron", "0 8 * * *", "2026-04-09T12:00:00.000Z", "2026-04-08T12:00:14.146Z", int64(13034), "America/New_York")
	f.Add("cron", "*/5 * * * *", "", "2026-04-08T12:00:14.146Z", int64(0), "")
	f.Add("cron", "0 0 30 2 *", "2026-04-09T12:00:00.000Z", "2026-04-08 12:00:14", int64(-5), "")
	f.Add("interval", "3600000", "2026-04-08T14:30:00.000Z", "2026-04-08T12:00:14.146Z", int64(13034), "")
	f.Add("interval", "-1", "x", "2026-04-08T12:00:14.146Z", int64(1<<62), "")
	f.Add("once", "2026-04-08T08:00:00", "", "2026-04-08T12:00:14.146Z", int64(1), "Europe/Berlin")
	f.Fuzz(func(t *testing.T, typ, value, next, runAt string, duration int64, zone string) {
		got := dueTime(&task{ScheduleType: typ, ScheduleValue: value, NextRun: next}, &taskRun{RunAt: runAt, DurationMs: duration}, zone)
		if got == "" || (typ == "once" && got == value) {
			return
		}
		if _, err := time.Parse("2006-01-02T15:04:05.000Z", got); err != nil {
			t.Errorf("dueTime = %q: not a time", got)
		}
	})
}

// FuzzSentText feeds sentText messages_out contents: it must not panic,
// and a row of another kind is never a message.
func FuzzSentText(f *testing.F) {
	f.Add("chat", `{"text":"hi"}`)
	f.Add("chat", `{"operation":"edit","messageId":"1","text":"x"}`)
	f.Add("chat-sdk", `{"type":"ask_question","question":"Which?"}`)
	f.Add("chat", `{"text":"","files":["a.png"]}`)
	f.Add("system", `{"action":"schedule_task"}`)
	f.Add("chat", `not json`)
	f.Fuzz(func(t *testing.T, kind, content string) {
		_, ok := sentText(outRow{Kind: kind, Content: content})
		if ok && kind != "chat" && kind != "chat-sdk" {
			t.Errorf("a %s row is a message", kind)
		}
	})
}
