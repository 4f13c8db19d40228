package nanoclaw

import (
	"database/sql"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
)

// NanoClaw 2's databases: data/v2.db (src/db/schema.ts and its
// migrations) and each session's inbound.db, which the host writes, and
// outbound.db, which the agent's container writes (INBOUND_SCHEMA and
// OUTBOUND_SCHEMA).

// agentGroup is a row of agent_groups.
type agentGroup struct {
	ID, Name, Folder string
}

// agentGroup returns the agent group with the folder, or nil.
func (s *store) agentGroup(folder string) (*agentGroup, error) {
	var g agentGroup
	err := s.db.QueryRow(`SELECT id, name, folder FROM agent_groups WHERE folder = ?`, folder).Scan(&g.ID, &g.Name, &g.Folder)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	return &g, nil
}

// agentGroupFolders lists the agent groups' folders, sorted.
func (s *store) agentGroupFolders() ([]string, error) {
	return s.strings(`SELECT folder FROM agent_groups ORDER BY folder`)
}

// strings returns the one column of a query's rows.
func (s *store) strings(query string, args ...any) ([]string, error) {
	rows, err := s.db.Query(query, args...)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			return nil, err
		}
		out = append(out, v)
	}
	return out, rows.Err()
}

// sessionIDs lists the agent group's sessions, oldest first.
func (s *store) sessionIDs(agentGroupID string) ([]string, error) {
	return s.strings(`SELECT id FROM sessions WHERE agent_group_id = ? ORDER BY created_at, id`, agentGroupID)
}

// taskRow is an occurrence of a scheduled task: a messages_in row of kind
// task. A recurring task gets a new row each time it is due, all sharing
// the first row's id as series_id.
type taskRow struct {
	ID           string
	Seq          int64
	Status       string // pending, paused, completed, failed
	ProcessAfter string // when it is due (a retry moves it)
	Recurrence   string // the cron expression, on the occurrence still to come
	Tries        int
	Prompt       string
}

// requireTable returns an error unless the database has the table.
func (s *store) requireTable(name string) error {
	ok, err := s.hasTable(name)
	if err == nil && !ok {
		err = fmt.Errorf("the database has no %s table", name)
	}
	return err
}

// taskRows returns the occurrences of the task (an id, or the series id
// every occurrence shares), oldest first.
func (s *store) taskRows(id string) ([]taskRow, error) {
	if err := s.requireTable("messages_in"); err != nil {
		return nil, err
	}
	// series_id came by migration: before it, an occurrence had its own id.
	series := "id"
	if ok, err := s.hasColumn("messages_in", "series_id"); err != nil {
		return nil, err
	} else if ok {
		series = "COALESCE(series_id, id)"
	}
	rows, err := s.db.Query(`SELECT id, COALESCE(seq, 0), COALESCE(status, 'pending'), COALESCE(process_after, ''),
		COALESCE(recurrence, ''), COALESCE(tries, 0), content
		FROM messages_in WHERE kind = 'task' AND (id = ? OR `+series+` = ?) ORDER BY seq, id`, id, id)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []taskRow
	for rows.Next() {
		var t taskRow
		var content string
		if err := rows.Scan(&t.ID, &t.Seq, &t.Status, &t.ProcessAfter, &t.Recurrence, &t.Tries, &content); err != nil {
			return nil, err
		}
		var c struct {
			Prompt string `json:"prompt"`
		}
		_ = json.Unmarshal([]byte(content), &c) // a task's content is {prompt, script}
		t.Prompt = c.Prompt
		out = append(out, t)
	}
	return out, rows.Err()
}

// ack is the container's processing status of an inbound message
// (processing_ack): processing, completed or failed, and when it changed.
type ack struct {
	Status, Changed string
}

// acks returns the processing status of each inbound message by id.
func (s *store) acks() (map[string]ack, error) {
	out := map[string]ack{}
	if ok, err := s.hasTable("processing_ack"); err != nil || !ok {
		return out, err
	}
	rows, err := s.db.Query(`SELECT message_id, status, status_changed FROM processing_ack`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var id string
		var a ack
		if err := rows.Scan(&id, &a.Status, &a.Changed); err != nil {
			return nil, err
		}
		out[id] = a
	}
	return out, rows.Err()
}

// continuations returns the agent's conversation ids by provider, from
// session_state: "continuation:<provider>" rows, and the older
// "sdk_session_id" (Claude's).
func (s *store) continuations() (map[string]string, error) {
	out := map[string]string{}
	if ok, err := s.hasTable("session_state"); err != nil || !ok {
		return out, err
	}
	rows, err := s.db.Query(`SELECT key, value FROM session_state WHERE key LIKE 'continuation:%' OR key = 'sdk_session_id'`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	for rows.Next() {
		var key, value string
		if err := rows.Scan(&key, &value); err != nil {
			return nil, err
		}
		if p, ok := strings.CutPrefix(key, "continuation:"); ok {
			out[strings.ToLower(p)] = value
		} else if _, set := out["claude"]; !set {
			out["claude"] = value
		}
	}
	return out, rows.Err()
}

// outRow is a row of messages_out: something the agent sent.
type outRow struct {
	ID          string
	Seq         int64
	Timestamp   string
	Kind        string
	ChannelType string
	PlatformID  string
	Content     string
}

// messagesOut returns the session's outbound messages, in order.
func (s *store) messagesOut() ([]outRow, error) {
	if err := s.requireTable("messages_out"); err != nil {
		return nil, err
	}
	rows, err := s.db.Query(`SELECT id, COALESCE(seq, 0), timestamp, kind, COALESCE(channel_type, ''), COALESCE(platform_id, ''), content
		FROM messages_out ORDER BY seq, timestamp, id`)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []outRow
	for rows.Next() {
		var o outRow
		if err := rows.Scan(&o.ID, &o.Seq, &o.Timestamp, &o.Kind, &o.ChannelType, &o.PlatformID, &o.Content); err != nil {
			return nil, err
		}
		out = append(out, o)
	}
	return out, rows.Err()
}
