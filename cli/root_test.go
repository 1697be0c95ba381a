package cli

import (
	"bytes"
	"os"
	"sort"
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// run executes kviz in-process and returns exit code, stdout and stderr.
func run(t *testing.T, stdin string, args ...string) (int, string, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := Execute(args, strings.NewReader(stdin), &out, &errb)
	return code, out.String(), errb.String()
}

func TestVersionAndUnknownCommand(t *testing.T) {
	code, out, _ := run(t, "", "--version")
	assert.Equal(t, 0, code)
	assert.Contains(t, out, Version)

	code, _, errOut := run(t, "", "nosuchcommand")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
	assert.True(t, strings.HasPrefix(errOut, "kviz: "))
}

func TestBadFlagIsOneLineExit2(t *testing.T) {
	code, _, errOut := run(t, "", "--no-such-flag")
	assert.Equal(t, 2, code)
	assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
}

func TestDevNullIsNotATerminal(t *testing.T) {
	f, err := os.OpenFile(os.DevNull, os.O_WRONLY, 0)
	if err != nil {
		t.Skip(err)
	}
	defer f.Close()
	assert.False(t, isTerminal(f), "/dev/null is a character device but no terminal")
	assert.False(t, isTerminal(&bytes.Buffer{}))
}

func TestCompletionWritesEachShellAndRefusesOthers(t *testing.T) {
	for _, shell := range []string{"bash", "zsh", "fish", "powershell"} {
		code, out, errOut := run(t, "", "completion", shell)
		assert.Equal(t, 0, code, errOut)
		assert.Contains(t, out, "kviz", shell)
	}
	for _, args := range [][]string{{"completion", "foo"}, {"completion"}, {"completion", "bash", "zsh"}} {
		code, out, errOut := run(t, "", args...)
		assert.Equal(t, 2, code, "%v", args)
		assert.Empty(t, out)
		assert.Equal(t, 1, strings.Count(errOut, "\n"), "one line: %q", errOut)
		assert.True(t, strings.HasPrefix(errOut, "kviz: completion"), errOut)
	}
}

// runFull executes args on the whole command tree, as kviz built it before
// it built only the command a run names.
func runFull(args ...string) (int, string, string) {
	var out, errb bytes.Buffer
	root := NewRoot()
	root.SetArgs(args)
	root.SetIn(strings.NewReader(""))
	root.SetOut(&out)
	root.SetErr(&errb)
	err := root.Execute()
	if err == nil {
		return 0, out.String(), errb.String()
	}
	return -1, out.String(), errb.String() + oneLine(err.Error())
}

func TestCommandListNamesEveryCommandOnce(t *testing.T) {
	var names []string
	for _, c := range commands {
		assert.Equal(t, c.name, c.build().Name(), "the list's name for %s", c.build().Use)
		names = append(names, c.name)
	}
	assert.True(t, sort.StringsAreSorted(names), "commands are listed by name: %v", names)
	var tree []string
	for _, c := range NewRoot().Commands() {
		if c.Name() != "help" {
			tree = append(tree, c.Name())
		}
	}
	assert.Equal(t, names, tree)
}

// A run that names a command builds only that one: what it prints must be
// what the whole tree prints, help, flag errors and all.
func TestOneCommandTreeAnswersAsTheWholeTree(t *testing.T) {
	for _, c := range commands {
		for _, args := range [][]string{{c.name, "--help"}, {c.name, "-h"}, {c.name, "--no-such-flag"}} {
			code, out, errOut := run(t, "", args...)
			fullCode, fullOut, fullErr := runFull(args...)
			assert.Equal(t, fullOut, out, "%v: stdout", args)
			if fullCode == 0 {
				assert.Equal(t, 0, code, "%v", args)
				assert.Equal(t, fullErr, errOut, "%v: stderr", args)
			} else {
				assert.NotEqual(t, 0, code, "%v", args)
				assert.Equal(t, "kviz: "+fullErr+"\n", errOut, "%v: stderr", args)
			}
		}
	}
	for _, args := range [][]string{{"--version"}, {"-v"}, {"--help"}, {"help", "assign"}, {"assgn"}} {
		_, out, _ := run(t, "", args...)
		_, fullOut, _ := runFull(args...)
		assert.Equal(t, fullOut, out, "%v", args)
	}
	assert.Len(t, commandsFor([]string{"assign", "--strategy", "range"}), 1)
	assert.Empty(t, commandsFor([]string{"--version"}))
	assert.Empty(t, commandsFor([]string{}))
	for _, args := range [][]string{{"--help"}, {"help", "assign"}, {"__complete", "play", ""}, {"assgn"}, {"-h", "assign"}, {"completion", "bash"}} {
		assert.Len(t, commandsFor(args), len(commands), "%v builds every command", args)
	}
}
