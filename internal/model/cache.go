package model

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
)

// cacheFormat is part of every cache key: changing it when what is stored,
// or what is sent, changes leaves old entries unused rather than misread.
const cacheFormat = "ananke.model.cache/v1"

// cache stores replies on disk by request, under Config.CacheDir.
//
// A model's answers vary from call to call, even at temperature 0, and every
// call costs time and tokens. With the cache, a re-run replays exactly the
// answers of the first run: the simulated user says the same things and the
// judge gives the same verdicts, so a result changes only when the agent or
// the test changes (deterministic), and nothing is sent to the endpoint
// (free, and possible offline or in CI without a key). Anything that could
// change the answer — endpoint, model, temperature, seed, messages, schema —
// is in the key, so a changed prompt is a miss. The API key is not: rotating
// it keeps the cache, and the key is never written to disk.
type cache struct{ dir string }

// cacheEntry is one stored reply. The tokens record what the first call
// cost; a hit reports none, since it costs nothing.
type cacheEntry struct {
	Content          string `json:"content"`
	PromptTokens     int64  `json:"prompt_tokens"`
	CompletionTokens int64  `json:"completion_tokens"`
}

// cacheKey is the SHA-256 of a canonical JSON of everything that shapes the
// answer. encoding/json writes struct fields in order and map keys sorted,
// so equal requests give equal bytes.
func (c *Client) cacheKey(req Request) (string, error) {
	type message struct {
		Role    string `json:"role"`
		Content string `json:"content"`
	}
	in := struct {
		Format      string         `json:"format"`
		Endpoint    string         `json:"endpoint"`
		Name        string         `json:"name"`
		Temperature *float64       `json:"temperature"`
		Seed        *int64         `json:"seed"`
		Messages    []message      `json:"messages"`
		SchemaName  string         `json:"schema_name"`
		Schema      map[string]any `json:"schema"`
	}{
		Format: cacheFormat, Endpoint: c.cacheURL, Name: c.name,
		Temperature: c.temperature, Seed: c.seed, Schema: req.Schema,
	}
	if req.Schema != nil {
		in.SchemaName = schemaName(req)
	}
	for _, m := range req.Messages {
		in.Messages = append(in.Messages, message(m))
	}
	b, err := json.Marshal(in)
	if err != nil {
		return "", fmt.Errorf("model request schema: %w", err)
	}
	sum := sha256.Sum256(b)
	return hex.EncodeToString(sum[:]), nil
}

func (c *cache) path(key string) string {
	return filepath.Join(c.dir, key[:2], key+".json")
}

// load returns the stored content for key. Anything unreadable — missing,
// truncated, or not what the request needs — is a miss, and the next store
// overwrites it.
func (c *cache) load(key string, structured bool) (string, bool) {
	b, err := os.ReadFile(c.path(key))
	if err != nil {
		return "", false
	}
	var e cacheEntry
	if json.Unmarshal(b, &e) != nil || checkContent(e.Content, structured) != nil {
		return "", false
	}
	return e.Content, true
}

// store writes e atomically (a temporary file renamed into place), so a
// concurrent load or an interrupted run never sees half an entry. Two
// Completes of the same request may both store; the last rename wins and
// both entries are whole.
func (c *cache) store(key string, e cacheEntry) (err error) {
	path := c.path(key)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return err
	}
	b, err := json.Marshal(e)
	if err != nil {
		return err
	}
	tmp, err := os.CreateTemp(filepath.Dir(path), key+".*.tmp")
	if err != nil {
		return err
	}
	defer func() {
		if err != nil {
			_ = os.Remove(tmp.Name())
		}
	}()
	if _, err := tmp.Write(b); err != nil {
		_ = tmp.Close()
		return err
	}
	if err := tmp.Close(); err != nil {
		return err
	}
	return os.Rename(tmp.Name(), path)
}
