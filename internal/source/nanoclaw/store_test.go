package nanoclaw

import (
	"database/sql"
	"flag"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"runtime"
	"strings"
	"testing"
)

// updating reports whether the tests run with -update (the flag package
// golden defines), which rebuilds each database from its SQL file.
func updating() bool {
	f := flag.Lookup("update")
	return f != nil && f.Value.String() == "true"
}

// buildDB writes the database that the SQL file describes to dbPath: the
// schema its name says (schemas), then its rows.
func buildDB(t testing.TB, sqlPath, dbPath string) {
	t.Helper()
	schemaFile, ok := schemas[filepath.Base(sqlPath)]
	if !ok {
		t.Fatalf("%s: no schema for a file of that name", sqlPath)
	}
	schema, err := os.ReadFile(filepath.Join(testdataDir(), schemaFile))
	if err != nil {
		t.Fatal(err)
	}
	rows, err := os.ReadFile(sqlPath)
	if err != nil {
		t.Fatal(err)
	}
	text := append(schema, rows...)
	tmp := dbPath + ".tmp"
	os.Remove(tmp)
	db, err := sql.Open("sqlite", tmp)
	if err != nil {
		t.Fatal(err)
	}
	// Small pages keep the files in git small: each table and index takes
	// at least one.
	if _, err := db.Exec(`PRAGMA page_size = 1024`); err != nil {
		t.Fatal(err)
	}
	// The file is built from scratch and renamed into place: no journal
	// and no syncing (neither is kept in the file), which makes building
	// one many times faster.
	if _, err := db.Exec(`PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF`); err != nil {
		t.Fatal(err)
	}
	if _, err := db.Exec(string(text)); err != nil {
		db.Close()
		t.Fatalf("%s: %v", sqlPath, err)
	}
	if _, err := db.Exec(`VACUUM`); err != nil {
		t.Fatal(err)
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := os.Rename(tmp, dbPath); err != nil {
		t.Fatal(err)
	}
}

// dumpDB lists a database's schema and every row of every table, in a
// stable order.
func dumpDB(t testing.TB, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	rows, err := db.Query(`SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name`)
	if err != nil {
		t.Fatal(err)
	}
	var tables []string
	for rows.Next() {
		var typ, name, text string
		if err := rows.Scan(&typ, &name, &text); err != nil {
			t.Fatal(err)
		}
		fmt.Fprintf(&b, "%s %s: %s\n", typ, name, text)
		if typ == "table" {
			tables = append(tables, name)
		}
	}
	rows.Close()
	for _, table := range tables {
		rows, err := db.Query(`SELECT * FROM "` + table + `" ORDER BY rowid`)
		if err != nil {
			rows, err = db.Query(`SELECT * FROM "` + table + `"`)
		}
		if err != nil {
			t.Fatal(err)
		}
		cols, _ := rows.Columns()
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s:", table)
			for i, v := range vals {
				if s, ok := v.([]byte); ok {
					v = string(s)
				}
				fmt.Fprintf(&b, " %s=%#v", cols[i], v)
			}
			b.WriteString("\n")
		}
		rows.Close()
	}
	return b.String()
}

// schemas are NanoClaw's schemas in testdata, by the name of the files
// whose rows follow them: NanoClaw 1's store/messages.db, NanoClaw 2's
// data/v2.db and a session's inbound.db and outbound.db.
var schemas = map[string]string{
	"messages.sql": "schema.sql",
	"v2.sql":       "schema-v2.sql",
	"inbound.sql":  "schema-v2-inbound.sql",
	"outbound.sql": "schema-v2-outbound.sql",
}

// testdataDir is this package's testdata, wherever the test runs from.
func testdataDir() string {
	_, file, _, _ := runtime.Caller(0)
	return filepath.Join(filepath.Dir(file), "testdata")
}

// sqlFiles are the SQL files the tests keep a database beside (a
// messages.db beside messages.sql, ...).
// recordings are the example recordings (examples/nanoclaw/recordings).
const recordings = "../../../examples/nanoclaw/recordings"

func sqlFiles(t *testing.T) []string {
	var files []string
	for _, dir := range []string{"testdata", recordings} {
		err := filepath.WalkDir(dir, func(p string, d fs.DirEntry, err error) error {
			if err != nil {
				return err
			}
			if _, ok := schemas[d.Name()]; ok && !d.IsDir() {
				files = append(files, p)
			}
			return nil
		})
		if err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	return files
}

// TestStoreMatchesSQL checks that every database holds what its SQL file
// says (-update rebuilds them).
func TestStoreMatchesSQL(t *testing.T) {
	files := sqlFiles(t)
	if len(files) == 0 {
		t.Fatal("no SQL file under testdata")
	}
	for _, sqlPath := range files {
		dbPath := strings.TrimSuffix(sqlPath, ".sql") + ".db"
		t.Run(sqlPath, func(t *testing.T) {
			t.Parallel() // each builds its own files
			if updating() {
				buildDB(t, sqlPath, dbPath)
			}
			want := filepath.Join(t.TempDir(), "want.db")
			buildDB(t, sqlPath, want)
			wdb, err := sql.Open("sqlite", want)
			if err != nil {
				t.Fatal(err)
			}
			defer wdb.Close()
			st, err := openStore(dbPath)
			if err != nil || st == nil {
				t.Fatalf("open %s (go test -update builds it): %v", dbPath, err)
			}
			defer st.Close()
			if got, want := dumpDB(t, st.db), dumpDB(t, wdb); got != want {
				t.Errorf("%s differs from %s (go test -update rebuilds it)\ngot:\n%s\nwant:\n%s", dbPath, sqlPath, got, want)
			}
		})
	}
}

// TestStoreReadOnly checks that reading a database leaves its file as it
// was, byte for byte.
func TestStoreReadOnly(t *testing.T) {
	path := filepath.Join("testdata", "root", StorePath)
	before, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := os.Stat(path)
	if _, err := Read(Options{Root: "testdata/root", Group: "family", Task: "task-morning-digest"}); err != nil {
		t.Fatal(err)
	}
	after, _ := os.ReadFile(path)
	info2, _ := os.Stat(path)
	if string(before) != string(after) || !info.ModTime().Equal(info2.ModTime()) {
		t.Error("reading changed messages.db")
	}
	for _, suffix := range []string{"-journal", "-wal", "-shm"} {
		if _, err := os.Stat(path + suffix); err == nil {
			t.Errorf("reading left %s%s", path, suffix)
		}
	}
}

// TestStoreNotADatabase checks the error for a store that is not SQLite.
func TestStoreNotADatabase(t *testing.T) {
	root := mkroot(t, map[string]string{
		"groups/family/CLAUDE.md": "x",
		StorePath:                 "not a database",
	})
	_, err := Read(Options{Root: root, Display: "r", Group: "family"})
	if err == nil || !strings.Contains(err.Error(), "r/store/messages.db") {
		t.Fatalf("err = %v, want one naming r/store/messages.db", err)
	}
}

// TestStoreOddPath reads a root whose path has characters a SQLite URI
// must escape.
func TestStoreOddPath(t *testing.T) {
	db, err := os.ReadFile(filepath.Join(testRoot, StorePath))
	if err != nil {
		t.Fatal(err)
	}
	root := mkroot(t, map[string]string{
		"groups/family/CLAUDE.md":               "# Family\n",
		transcriptsRel + editSession + ".jsonl": transcript(t, editSession),
	})
	odd := filepath.Join(t.TempDir(), "a root #1 ?x=%20&y")
	if err := os.Rename(root, odd); err != nil {
		t.Fatal(err)
	}
	if err := os.MkdirAll(filepath.Join(odd, "store"), 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(odd, StorePath), db, 0o644); err != nil {
		t.Fatal(err)
	}
	tr, err := Read(Options{Root: odd, Group: "family"})
	if err != nil {
		t.Fatal(err)
	}
	if tr.Source.SessionID != editSession || tr.Turns[0].Outbound[0].To != familyJID {
		t.Errorf("source %+v, outbound %+v: the store was not read", tr.Source, tr.Turns[0].Outbound)
	}
}
