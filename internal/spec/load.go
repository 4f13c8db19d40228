package spec

import (
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strings"
	"time"

	"gopkg.in/yaml.v3"

	"github.com/ananke/action/internal/decode"
	"github.com/ananke/action/internal/diag"
	"github.com/ananke/action/internal/vars"
)

// maxFileSize bounds one config or test file. Real files are a few KiB; the
// bound keeps a mistaken path (a log, a binary) from being parsed at all.
const maxFileSize = 4 << 20

// Suite is a loaded, valid config and its tests.
type Suite struct {
	Config *Config
	Tests  []*Test
	// Warnings are what is worth fixing but stops nothing: a quarantine
	// entry that matches no test.
	Warnings diag.Diagnostics
}

// Options says what to load.
type Options struct {
	// ConfigPath is the project config file.
	ConfigPath string
	// Paths are test files or directories given on the command line; when
	// set they replace the config's discovery.
	Paths []string
	// Endpoint, when set, replaces target.endpoint (--endpoint); without a
	// ConfigPath the target is an AG-UI agent at Endpoint with every
	// default.
	Endpoint string
	// Message, when set, is the suite's only test: one user turn with this
	// text (ananke run -i "..."), checked by the target's assertions.
	Message string
	// LookupEnv reads the environment a claude-transcript source path's
	// ~ (HOME) and ${ENV.NAME} name (nil: an empty environment).
	LookupEnv func(string) (string, bool)
	// Today is the day quarantine entries expire against (its UTC date);
	// zero checks no expiry. Only the command line reads the clock.
	Today time.Time
}

// Load reads the config and every test file. When any file is invalid it
// returns Diagnostics holding every problem of every file; other errors
// (an unreadable directory) are returned as is.
func Load(opts Options) (*Suite, error) {
	var diags diag.Diagnostics
	var cfg *Config
	if opts.Endpoint != "" {
		if err := checkEndpoint(opts.Endpoint); err != nil {
			return nil, err
		}
	}
	switch {
	case opts.ConfigPath != "":
		cfg = LoadConfig(opts.ConfigPath, &diags)
		if opts.Endpoint != "" {
			cfg.Target.Endpoint = vars.Literal(opts.Endpoint)
		}
	case opts.Endpoint != "":
		cfg = defaultConfig(opts.Endpoint)
	default:
		return nil, errors.New("no config file and no endpoint: pass --config FILE or --endpoint URL")
	}
	var files []string
	if opts.Message == "" {
		var err error
		if files, err = Discover(cfg, opts.Paths, &diags); err != nil {
			return nil, err
		}
	}
	s := &Suite{Config: cfg}
	if opts.Message != "" {
		s.Tests = []*Test{adHocTest(cfg, opts.Message)}
	}
	for _, path := range files {
		if IsDataset(path) {
			s.Tests = append(s.Tests, LoadDataset(path, cfg.Dir, &diags)...)
			continue
		}
		if t := loadTest(path, cfg.Dir, &diags, opts.LookupEnv); t != nil {
			s.Tests = append(s.Tests, t)
		}
	}
	checkIDs(s.Tests, &diags)
	checkTargets(cfg, s.Tests, &diags)
	checkProtocols(cfg, s.Tests, &diags)
	resolveExtends(cfg, s.Tests, &diags)
	checkSnapshots(s.Tests, &diags)
	checkModel(cfg, s.Tests, &diags)
	checkStaticRefs(cfg, s.Tests, &diags)
	checkConfigRefs(cfg, s.Tests, &diags)
	checkQuarantine(cfg, opts.Today, &diags)
	checkDoubles(cfg, s.Tests, &diags)
	if len(diags) == 0 {
		// One test per session of a source that names several: checked
		// once above, and their ids once more.
		s.Tests = expandSessions(s.Tests)
		checkIDs(s.Tests, &diags)
	}
	if len(diags) > 0 {
		return nil, diags.Sorted()
	}
	s.Warnings = markQuarantined(cfg, s.Tests, len(opts.Paths) == 0 && opts.Message == "").Sorted()
	return s, nil
}

// loader reads one file of the model: a config, a test file or a dataset.
type loader struct {
	*decode.Decoder
	// env reads the environment a source path's ~ and ${ENV.NAME} name
	// (nil: an empty one).
	env func(string) (string, bool)
	// files are the attachments read so far, by path: a file named by
	// many parts is read once.
	files map[string]*Attachment
	// dataset is set while reading a dataset: checkpoints also take the
	// assertion vocabulary.
	dataset bool
}

// newLoader is a loader of file, adding its problems to diags.
func newLoader(file string, diags *diag.Diagnostics) *loader {
	return &loader{Decoder: &decode.Decoder{File: file, Diags: diags}}
}

// LoadConfig reads a config file, adding its problems to diags.
func LoadConfig(path string, diags *diag.Diagnostics) *Config {
	cfg := &Config{Path: path, Dir: filepath.Dir(path)}
	l := newLoader(path, diags)
	doc := l.parse()
	if doc == nil {
		return cfg
	}
	c := l.config(doc)
	c.Dir = cfg.Dir
	return c
}

// LoadTest reads a test file, adding its problems to diags. The default id
// is the path relative to root without the .ananke.yaml extension.
func LoadTest(path, root string, diags *diag.Diagnostics) *Test {
	return loadTest(path, root, diags, nil)
}

// loadTest is LoadTest with the environment a source path may name.
func loadTest(path, root string, diags *diag.Diagnostics, env func(string) (string, bool)) *Test {
	l := &loader{Decoder: &decode.Decoder{File: path, Diags: diags}, env: env}
	doc := l.parse()
	if doc == nil {
		return nil
	}
	t := l.test(doc)
	if t.ID == "" {
		t.ID = defaultID(path, root)
	}
	return t
}

func defaultID(path, root string) string {
	rel, err := filepath.Rel(root, path)
	if err != nil || strings.HasPrefix(rel, "..") {
		rel = path
	}
	for _, ext := range []string{".ananke.yaml", ".ananke.yml", DatasetExt, ".yaml", ".yml", ".jsonl"} {
		if s, ok := strings.CutSuffix(rel, ext); ok {
			rel = s
			break
		}
	}
	return filepath.ToSlash(rel)
}

// parse reads and parses the loader's file into its document's root node.
func (l *loader) parse() *yaml.Node {
	data, err := readFile(l.File, maxFileSize)
	if err != nil {
		l.Diags.Add(diag.Pos{File: l.File}, "%v", err)
		return nil
	}
	return l.ParseBytes(data)
}

// readFile reads a file of at most limit bytes: a test file, a dataset,
// an attachment. Its errors do not name the file; the diagnostic does.
func readFile(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if err != nil {
		var pe *os.PathError
		if errors.As(err, &pe) {
			err = pe.Err
		}
		return nil, fmt.Errorf("cannot read file: %w", err)
	}
	defer f.Close()
	if st, err := f.Stat(); err == nil && st.IsDir() {
		return nil, errors.New("it is a directory, not a file")
	}
	data, err := io.ReadAll(io.LimitReader(f, limit+1))
	if err != nil {
		return nil, fmt.Errorf("cannot read file: %w", err)
	}
	if int64(len(data)) > limit {
		return nil, fmt.Errorf("file is larger than %d MiB; is this the right file?", limit>>20)
	}
	return data, nil
}

// checkIDs reports two tests with the same id.
func checkIDs(tests []*Test, diags *diag.Diagnostics) {
	seen := map[string]diag.Pos{}
	for _, t := range tests {
		if first, dup := seen[t.ID]; dup {
			where := first.File
			if IsDataset(first.File) {
				where = first.String()
			}
			diags.Add(t.Pos, "test id %q is also used by %s; ids must be unique", t.ID, where)
			continue
		}
		seen[t.ID] = t.Pos
	}
}
