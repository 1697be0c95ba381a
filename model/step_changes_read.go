package model

import (
	"bytes"
	"encoding/json"
	"fmt"
)

// ChangeReader rebuilds every step from `kviz simulate --format jsonl
// --changes` lines (ChangeLines), applied in order: the first line is a
// step in full, each later one a JSON Merge Patch (RFC 7396) of the step
// before it. Numbers stay as written (json.Number).
type ChangeReader struct {
	doc  map[string]any
	line int
}

// Next applies one line and returns the step it stands for, the object a
// full line (`--format jsonl`) decodes to. The object is the reader's own
// and changes with the next line: copy what you keep.
func (r *ChangeReader) Next(line []byte) (map[string]any, error) {
	r.line++
	d := json.NewDecoder(bytes.NewReader(line))
	d.UseNumber()
	var patch map[string]any
	if err := d.Decode(&patch); err != nil {
		return nil, fmt.Errorf("line %d: %v", r.line, err)
	}
	if patch == nil {
		return nil, fmt.Errorf("line %d: a step is a JSON object, got null", r.line)
	}
	if r.doc == nil {
		r.doc = patch
	} else {
		r.doc = MergePatch(r.doc, patch).(map[string]any)
	}
	return r.doc, nil
}

// MergePatch applies a JSON Merge Patch (RFC 7396) to target, both JSON
// values as encoding/json decodes them, and returns the result (target's
// objects are changed in place).
func MergePatch(target, patch any) any {
	p, ok := patch.(map[string]any)
	if !ok {
		return patch
	}
	t, ok := target.(map[string]any)
	if !ok {
		t = map[string]any{}
	}
	for k, v := range p {
		if v == nil {
			delete(t, k)
			continue
		}
		t[k] = MergePatch(t[k], v)
	}
	return t
}
