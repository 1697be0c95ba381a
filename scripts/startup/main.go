// Command startup times kviz's start-up, whole process, against a
// hello-world Go binary built the same way. scripts/startup.sh builds both
// and runs it; see there.
//
// Every round runs each case once, in turn, so a machine that slows down or
// speeds up mid-run moves every case alike; each case's median is printed,
// with the median of its per-round ratio to hello. The lab's case runs kviz
// in a pseudo-terminal, answers its terminal queries with a terminal
// emulator, stops the clock when the emulated screen shows the first frame's
// footer, and then quits it with q.
package main

import (
	"bytes"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/exec"
	"slices"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"time"

	"github.com/charmbracelet/x/vt"
	"github.com/creack/pty"
)

func main() {
	kviz := flag.String("kviz", "", "the kviz binary")
	hello := flag.String("hello", "", "a hello-world binary built the same way")
	peer := flag.String("peer", "", "scripts/franzpeer built the same way (optional): franz-go's balancers on the same group, for kviz assign's ratio to it")
	group := flag.String("in", "", "a small group's JSON for kviz assign --in")
	runs := flag.Int("n", 100, "rounds (each case runs once a round)")
	marker := flag.String("marker", "? full help", "text on the lab's screen that says its first frame is drawn")
	top := flag.Int("top", 12, "packages to list by init time")
	var floors floorFlags
	flag.Var(&floors, "floor", "NAME=BINARY: a floor case timed beside hello, run with no arguments (repeatable)")
	flag.Parse()
	if *kviz == "" || *hello == "" || *group == "" {
		fmt.Fprintln(os.Stderr, "startup: -kviz, -hello and -in are required")
		os.Exit(2)
	}
	if err := run(*kviz, *hello, *peer, *group, *marker, *runs, *top, floors); err != nil {
		fmt.Fprintln(os.Stderr, "startup:", err)
		os.Exit(1)
	}
}

// A timed case: a command run to its end, or the lab run to its first frame.
type timedCase struct {
	name   string
	argv   []string
	lab    bool
	wall   []time.Duration
	cpu    []time.Duration
	faults []time.Duration // minor page faults, counted in a Duration to share median and ratio
	vs     *timedCase      // the case this one is raced against, besides hello
}

// floorFlags are the -floor cases: binaries that link part of what kviz
// links and run nothing, so their times are floors no kviz run can go below.
type floorFlags []timedCase

func (f *floorFlags) String() string { return fmt.Sprint(len(*f)) }

func (f *floorFlags) Set(v string) error {
	name, path, ok := strings.Cut(v, "=")
	if !ok || name == "" || path == "" {
		return fmt.Errorf("want NAME=BINARY, got %q", v)
	}
	*f = append(*f, timedCase{name: name, argv: []string{path}})
	return nil
}

func run(kviz, hello, peer, group, marker string, runs, top int, floors floorFlags) error {
	cases := []*timedCase{{name: "hello", argv: []string{hello}}}
	for i := range floors {
		cases = append(cases, &floors[i])
	}
	cases = append(cases, &timedCase{name: "kviz --version", argv: []string{kviz, "--version"}})
	for _, strategy := range []string{"range", "cooperative-sticky"} {
		c := &timedCase{name: "kviz assign (3 members, " + strategy + ")", argv: []string{kviz, "assign", "--strategy", strategy, "--in", group}}
		if peer != "" {
			c.vs = &timedCase{name: "franz-go peer (" + strategy + ")", argv: []string{peer, strategy, group}}
			cases = append(cases, c.vs)
		}
		cases = append(cases, c)
	}
	cases = append(cases,
		&timedCase{name: "kviz route", argv: []string{kviz, "route", "--partitions", "12", "--key", "order-42"}},
		&timedCase{name: "kviz coordinator", argv: []string{kviz, "coordinator", "--group", "workshop"}},
		&timedCase{name: "kviz (lab: first frame; cpu: all)", argv: []string{kviz}, lab: true},
	)
	// One untimed round first: the page cache, and a lab that cannot start
	// says so before a hundred rounds are spent.
	for _, c := range cases {
		if _, _, _, err := c.once(marker); err != nil {
			return fmt.Errorf("%s: %w", c.name, err)
		}
	}
	for range runs {
		for _, c := range cases {
			wall, cpu, faults, err := c.once(marker)
			if err != nil {
				return fmt.Errorf("%s: %w", c.name, err)
			}
			c.wall = append(c.wall, wall)
			c.cpu = append(c.cpu, cpu)
			c.faults = append(c.faults, time.Duration(faults))
		}
	}
	fmt.Printf("start-up, whole process, %d rounds (median; ratio = median of each round's ratio to hello)\n", runs)
	fmt.Printf("%-44s %10s %10s %7s %9s %9s\n", "case", "wall ms", "cpu ms", "faults", "wall/h", "cpu/h")
	base := cases[0]
	for _, c := range cases {
		faults := strconv.FormatInt(int64(median(c.faults)), 10)
		if c.lab {
			faults = "-"
		}
		fmt.Printf("%-44s %10s %10s %7s %9s %9s\n", c.name, ms(median(c.wall)), ms(median(c.cpu)), faults, ratio(c.wall, base.wall), ratio(c.cpu, base.cpu))
	}
	fmt.Println()
	for _, c := range cases {
		if c.vs != nil {
			fmt.Printf("%s / %s: wall %s, cpu %s, faults %s\n", c.name, c.vs.name, ratio(c.wall, c.vs.wall), ratio(c.cpu, c.vs.cpu), ratio(c.faults, c.vs.faults))
		}
	}
	if peer != "" {
		fmt.Println()
	}
	for _, b := range []struct{ name, path string }{{"kviz --version", kviz}, {"hello", hello}} {
		if err := inittrace(b.name, b.path, runs, top); err != nil {
			return err
		}
	}
	return nil
}

// once runs the case one time: wall time to exit (or to the lab's first
// frame), the process's user+system CPU time and its minor page faults.
func (c *timedCase) once(marker string) (wall, cpu time.Duration, faults int64, err error) {
	if c.lab {
		wall, cpu, err = firstFrame(c.argv, marker)
		return wall, cpu, 0, err
	}
	cmd := exec.Command(c.argv[0], c.argv[1:]...)
	cmd.Stdout = io.Discard
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	start := time.Now()
	if err := cmd.Run(); err != nil {
		return 0, 0, 0, fmt.Errorf("%v: %s", err, strings.TrimSpace(stderr.String()))
	}
	wall = time.Since(start)
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		faults = ru.Minflt
	}
	return wall, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), faults, nil
}

// firstFrame starts the lab in a 120x40 pseudo-terminal and returns how
// long it took until the emulated screen shows marker; then it quits the
// lab (q) and waits for it to exit. The CPU time is the whole process's,
// quitting included.
func firstFrame(argv []string, marker string) (time.Duration, time.Duration, error) {
	const w, h = 120, 40
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Env = append(os.Environ(), "TERM=xterm-256color", "COLORTERM=truecolor")
	em := vt.NewEmulator(w, h)
	start := time.Now()
	tty, err := pty.StartWithSize(cmd, &pty.Winsize{Cols: w, Rows: h})
	if err != nil {
		return 0, 0, err
	}
	defer tty.Close()
	// The emulator's answers to the lab's queries go back to the lab, as
	// a terminal's would.
	go func() { _, _ = io.Copy(tty, em) }()
	out := make(chan []byte)
	go func() {
		defer close(out)
		for {
			buf := make([]byte, 32<<10)
			n, err := tty.Read(buf)
			if n > 0 {
				out <- buf[:n]
			}
			if err != nil {
				return
			}
		}
	}()
	deadline := time.After(20 * time.Second)
	var took time.Duration
	for took == 0 {
		select {
		case b, ok := <-out:
			if !ok {
				_ = cmd.Wait()
				return 0, 0, fmt.Errorf("the lab ended before %q was on its screen:\n%s", marker, em.String())
			}
			_, _ = em.Write(b)
			if strings.Contains(em.String(), marker) {
				took = time.Since(start)
			}
		case <-deadline:
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			return 0, 0, fmt.Errorf("no %q on the lab's screen after 20 s:\n%s", marker, em.String())
		}
	}
	if _, err := tty.Write([]byte("q")); err != nil {
		return 0, 0, err
	}
	done := make(chan error, 1)
	go func() {
		for range out { // drain until the lab closes the terminal
		}
		done <- cmd.Wait()
	}()
	select {
	case err := <-done:
		if err != nil {
			return 0, 0, fmt.Errorf("the lab did not quit cleanly: %v", err)
		}
	case <-time.After(10 * time.Second):
		_ = cmd.Process.Kill()
		return 0, 0, errors.New("the lab did not quit on q within 10 s")
	}
	_ = em.Close()
	return took, cmd.ProcessState.UserTime() + cmd.ProcessState.SystemTime(), nil
}

// inittrace runs path --version with GODEBUG=inittrace=1 runs times and
// prints the median of each run's sums (init clock, bytes, allocations) and
// the packages with the largest median init clock.
func inittrace(name, path string, runs, top int) error {
	type pkgTimes struct {
		clock         []float64
		bytes, allocs int
	}
	per := map[string]*pkgTimes{}
	var totals, bytesTotal, allocTotal []float64
	for range runs {
		cmd := exec.Command(path, "--version")
		cmd.Env = append(os.Environ(), "GODEBUG=inittrace=1")
		var stderr bytes.Buffer
		cmd.Stdout = io.Discard
		cmd.Stderr = &stderr
		if err := cmd.Run(); err != nil {
			return fmt.Errorf("%s with inittrace: %v", name, err)
		}
		var clock, by, al float64
		for _, line := range strings.Split(stderr.String(), "\n") {
			// init PKG @T ms, C ms clock, B bytes, A allocs
			f := strings.Fields(line)
			if len(f) < 10 || f[0] != "init" || f[5] != "ms" || f[8] != "bytes," {
				continue
			}
			c, err1 := strconv.ParseFloat(f[4], 64)
			b, err2 := strconv.Atoi(f[7])
			a, err3 := strconv.Atoi(f[9])
			if err1 != nil || err2 != nil || err3 != nil {
				return fmt.Errorf("%s: cannot read the inittrace line %q", name, line)
			}
			p := per[f[1]]
			if p == nil {
				p = &pkgTimes{}
				per[f[1]] = p
			}
			p.clock = append(p.clock, c)
			p.bytes, p.allocs = b, a
			clock += c
			by += float64(b)
			al += float64(a)
		}
		totals = append(totals, clock)
		bytesTotal = append(bytesTotal, by)
		allocTotal = append(allocTotal, al)
	}
	fmt.Printf("GODEBUG=inittrace=1 %s, %d runs: %d packages, init clock %.2f ms, %.0f bytes, %.0f allocs (medians of each run's sum)\n",
		name, runs, len(per), medianF(totals), medianF(bytesTotal), medianF(allocTotal))
	names := make([]string, 0, len(per))
	for n := range per {
		names = append(names, n)
	}
	sort.Slice(names, func(i, j int) bool {
		a, b := medianF(per[names[i]].clock), medianF(per[names[j]].clock)
		if a != b {
			return a > b
		}
		return names[i] < names[j]
	})
	for _, n := range names[:min(top, len(names))] {
		p := per[n]
		fmt.Printf("  %7.3f ms %8d bytes %5d allocs  %s\n", medianF(p.clock), p.bytes, p.allocs, n)
	}
	fmt.Println()
	return nil
}

func median(d []time.Duration) time.Duration {
	s := slices.Clone(d)
	slices.Sort(s)
	return s[len(s)/2]
}

func medianF(v []float64) float64 {
	s := slices.Clone(v)
	slices.Sort(s)
	return s[len(s)/2]
}

// ratio is the median of a[i]/b[i], round by round.
func ratio(a, b []time.Duration) string {
	r := make([]float64, 0, len(a))
	for i := range a {
		if b[i] > 0 {
			r = append(r, float64(a[i])/float64(b[i]))
		}
	}
	if len(r) == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", medianF(r))
}

func ms(d time.Duration) string { return fmt.Sprintf("%.2f", float64(d)/float64(time.Millisecond)) }
