package cli

import (
	"bytes"
	"os"
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
