package nanoclaw

import (
	"database/sql"
	"errors"
	"fmt"
	"net/url"
	"os"
	"path/filepath"

	_ "modernc.org/sqlite" // NanoClaw keeps its state in SQLite.
)

// store is one of NanoClaw's SQLite databases, opened read-only: NanoClaw
// 1's store/messages.db (src/db.ts), NanoClaw 2's data/v2.db or a
// session's inbound.db and outbound.db.
type store struct {
	db *sql.DB
}

// openStore opens a database read-only and immutable, so that
// a copy kept in git is never modified (no journal, no WAL, no lock). It
// returns nil without an error when the file does not exist.
func openStore(path string) (*store, error) {
	if _, err := os.Stat(path); err != nil {
		if errors.Is(err, os.ErrNotExist) {
			return nil, nil
		}
		return nil, err
	}
	// Opened immutable, the database is read without its write-ahead log:
	// what the log holds would be silently missing.
	if fi, err := os.Stat(path + "-wal"); err == nil && fi.Size() > 0 {
		return nil, fmt.Errorf("%s-wal holds changes not yet in the database (NanoClaw is running, or stopped without a checkpoint): "+
			"stop NanoClaw, or copy the database with sqlite3's .backup, before reading it", filepath.Base(path))
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		return nil, err
	}
	dsn := url.URL{Scheme: "file", Path: filepath.ToSlash(abs), RawQuery: "mode=ro&immutable=1"}
	db, err := sql.Open("sqlite", dsn.String())
	if err != nil {
		return nil, err
	}
	// Open is lazy: read the file now, so that a file that is not a
	// database fails here.
	var n int
	if err := db.QueryRow(`SELECT count(*) FROM sqlite_master`).Scan(&n); err != nil {
		db.Close()
		return nil, err
	}
	return &store{db: db}, nil
}

func (s *store) Close() error { return s.db.Close() }

// hasTable reports whether the database has the table (older NanoClaw
// databases may lack one).
func (s *store) hasTable(name string) (bool, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?`, name).Scan(&n)
	return n > 0, err
}

// hasColumn reports whether the table has the column (NanoClaw adds
// columns by migration: is_main, context_mode, script).
func (s *store) hasColumn(table, column string) (bool, error) {
	var n int
	err := s.db.QueryRow(`SELECT count(*) FROM pragma_table_info(?) WHERE name = ?`, table, column).Scan(&n)
	return n > 0, err
}

// group is a row of registered_groups.
type group struct {
	JID    string
	Name   string
	Folder string
	IsMain bool
}

// group returns the registered group with the folder, or nil.
func (s *store) group(folder string) (*group, error) {
	ok, err := s.hasTable("registered_groups")
	if err != nil || !ok {
		return nil, err
	}
	isMain := "0"
	if ok, err := s.hasColumn("registered_groups", "is_main"); err != nil {
		return nil, err
	} else if ok {
		isMain = "COALESCE(is_main, 0)"
	}
	var g group
	var main int
	err = s.db.QueryRow(`SELECT jid, name, folder, `+isMain+` FROM registered_groups WHERE folder = ?`, folder).
		Scan(&g.JID, &g.Name, &g.Folder, &main)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, nil
	}
	if err != nil {
		return nil, err
	}
	g.IsMain = main == 1
	return &g, nil
}

// session returns the group's session id from the sessions table ("" when
// there is none).
func (s *store) session(folder string) (string, error) {
	ok, err := s.hasTable("sessions")
	if err != nil || !ok {
		return "", err
	}
	var id string
	err = s.db.QueryRow(`SELECT session_id FROM sessions WHERE group_folder = ?`, folder).Scan(&id)
	if errors.Is(err, sql.ErrNoRows) {
		return "", nil
	}
	return id, err
}

// task is a row of scheduled_tasks.
type task struct {
	ID            string
	GroupFolder   string
	ChatJID       string
	Prompt        string
	ScheduleType  string
	ScheduleValue string
	NextRun       string
	Status        string
	ContextMode   string
}

// errNoTask is returned by task for an unknown id.
var errNoTask = errors.New("no such task")

// task returns the scheduled task with the id.
func (s *store) task(id string) (*task, error) {
	ok, err := s.hasTable("scheduled_tasks")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, errors.New("the database has no scheduled_tasks table")
	}
	// context_mode came by migration; NanoClaw's default is 'isolated'.
	mode := "'isolated'"
	if ok, err := s.hasColumn("scheduled_tasks", "context_mode"); err != nil {
		return nil, err
	} else if ok {
		mode = "COALESCE(context_mode, 'isolated')"
	}
	var t task
	err = s.db.QueryRow(`SELECT id, group_folder, chat_jid, prompt, schedule_type, schedule_value,
		COALESCE(next_run, ''), COALESCE(status, 'active'), `+mode+`
		FROM scheduled_tasks WHERE id = ?`, id).
		Scan(&t.ID, &t.GroupFolder, &t.ChatJID, &t.Prompt, &t.ScheduleType, &t.ScheduleValue, &t.NextRun, &t.Status, &t.ContextMode)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, errNoTask
	}
	if err != nil {
		return nil, err
	}
	return &t, nil
}

// taskRun is a row of task_run_logs.
type taskRun struct {
	RunAt      string
	DurationMs int64
	Status     string
	Result     string
	Error      string
}

// runs returns the task's run logs, oldest first.
func (s *store) runs(taskID string) ([]taskRun, error) {
	ok, err := s.hasTable("task_run_logs")
	if err != nil || !ok {
		return nil, err
	}
	rows, err := s.db.Query(`SELECT run_at, duration_ms, status, COALESCE(result, ''), COALESCE(error, '')
		FROM task_run_logs WHERE task_id = ? ORDER BY run_at, id`, taskID)
	if err != nil {
		return nil, err
	}
	defer rows.Close()
	var out []taskRun
	for rows.Next() {
		var r taskRun
		if err := rows.Scan(&r.RunAt, &r.DurationMs, &r.Status, &r.Result, &r.Error); err != nil {
			return nil, err
		}
		out = append(out, r)
	}
	return out, rows.Err()
}

// wrapStore names the database in an error.
func wrapStore(display string, err error) error {
	return fmt.Errorf("read %s: %w", display, err)
}
