package main

import (
	"go/parser"
	"go/token"
	"io/fs"
	"path/filepath"
	"strconv"
	"strings"
	"testing"
)

// The layout's import rules (DESIGN.md, the developers' guide): the engine
// and the assignors never import the terminal libraries, and the screens
// ask the model, never an assignor directly, so each rule has one home.
var forbiddenImports = []struct {
	dir     string   // a folder of the module, with everything below it
	imports []string // import path prefixes it must not use
	why     string
}{
	{"model", []string{"charm.land/", "github.com/charmbracelet/"}, "the engine draws nothing"},
	{"strategies", []string{"charm.land/", "github.com/charmbracelet/", "github.com/kvizlab/kviz/model"}, "assignors are pure functions"},
	{"tui", []string{"github.com/kvizlab/kviz/strategies"}, "a screen gets an assignor's answer from the model"},
}

func TestPackagesKeepTheLayoutsImportRules(t *testing.T) {
	for _, rule := range forbiddenImports {
		files := 0
		err := filepath.WalkDir(rule.dir, func(path string, d fs.DirEntry, err error) error {
			if err != nil || d.IsDir() || !strings.HasSuffix(path, ".go") {
				return err
			}
			f, err := parser.ParseFile(token.NewFileSet(), path, nil, parser.ImportsOnly)
			if err != nil {
				return err
			}
			files++
			for _, imp := range f.Imports {
				p, _ := strconv.Unquote(imp.Path.Value)
				for _, bad := range rule.imports {
					if strings.HasPrefix(p, bad) {
						t.Errorf("%s imports %s: %s", path, p, rule.why)
					}
				}
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
		if files < 10 {
			t.Errorf("%s: read %d Go files; is the layout moved?", rule.dir, files)
		}
	}
}
