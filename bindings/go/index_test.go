package gsp

import (
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

// gridArcs is a road-like grid: two-way streets of weight 2..6 and a faster
// two-way avenue (weight 1) along the middle row.
func gridArcs(rows, cols int32) (n int32, src, dst, w []int32) {
	street := func(u, v, x int32) {
		src = append(src, u, v)
		dst = append(dst, v, u)
		w = append(w, x, x)
	}
	for r := int32(0); r < rows; r++ {
		for c := int32(0); c < cols; c++ {
			v := r*cols + c
			if c+1 < cols {
				x := 2 + (r*7+c*3)%5
				if r == rows/2 {
					x = 1
				}
				street(v, v+1, x)
			}
			if r+1 < rows {
				street(v, v+cols, 2+(r*5+c*11)%5)
			}
		}
	}
	return rows * cols, src, dst, w
}

func grid(t *testing.T, rows, cols int32) *Graph {
	t.Helper()
	n, s, d, w := gridArcs(rows, cols)
	wf := make([]float32, len(w))
	for i, x := range w {
		wf[i] = float32(x)
	}
	g, err := NewGraphF32(n, s, d, wf, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func buildIndex(t *testing.T, g *Graph, o *Options) *Index {
	t.Helper()
	ix, err := g.BuildIndex(o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ix.Close() })
	return ix
}

func sssp(t *testing.T, g *Graph, s int32, o *Options) ([]float64, RunInfo, *Paths) {
	t.Helper()
	p, err := g.SSSP(s, o)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { p.Close() })
	d, err := p.Distances(s)
	if err != nil {
		t.Fatal(err)
	}
	info, _ := p.Info()
	return d, info, p
}

func tableRows(t *testing.T, g *Graph, s, d []int32, o *Options) [][]float64 {
	t.Helper()
	tb, err := g.Table(s, d, o)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	r, err := tb.Rows()
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func TestIndexRunsEqualWithout(t *testing.T) {
	g := grid(t, 6, 7)
	n := int32(g.NumVertices())
	ix := buildIndex(t, g, &Options{NumThreads: 2})
	size, err := ix.Size()
	if err != nil || size.NumVertices != int(n) || size.NumArcs <= 0 || size.NumShortcuts < 0 {
		t.Fatal(size, err)
	}
	if bi := ix.BuildInfo(); bi == nil || bi.Seconds < 0 {
		t.Fatal(bi)
	}
	with := &Options{Index: ix}
	plain := &Options{Backend: BackendCPU}
	for s := int32(0); s < n; s += 5 {
		got, info, p := sssp(t, g, s, with)
		want, _, _ := sssp(t, g, s, plain)
		if !reflect.DeepEqual(got, want) {
			t.Fatalf("source %d: %v, want %v", s, got, want)
		}
		if info.Algorithm != IndexCH {
			t.Fatal(info.Algorithm)
		}
		tg := n - 1 - s
		if path, err := p.Path(s, tg); err != nil || path[0] != s || path[len(path)-1] != tg {
			t.Fatal(path, err)
		}
	}
	if _, info, _ := sssp(t, g, 3, &Options{Index: ix, Algorithm: IndexCH}); info.Algorithm != IndexCH {
		t.Fatal(info.Algorithm)
	}

	sources, targets := []int32{0, 9, 41, 9, 20}, []int32{41, 0, 13, 13, 6, 35}
	want := tableRows(t, g, sources, targets, plain)
	if got := tableRows(t, g, sources, targets, with); !reflect.DeepEqual(got, want) {
		t.Fatalf("table %v, want %v", got, want)
	}
	tb, err := g.Table(sources, targets, with)
	if err != nil {
		t.Fatal(err)
	}
	for i, s := range sources {
		for j, d := range targets {
			if p, err := tb.Path(i, j); err != nil || p[0] != s || p[len(p)-1] != d {
				t.Fatal(i, j, p, err)
			}
		}
	}
	tb.Close()
	flat, info, err := g.TableDistances(sources, targets, with)
	if err != nil || info.Algorithm != IndexCH || !reflect.DeepEqual(flat[:len(targets)], want[0]) {
		t.Fatal(flat, info.Algorithm, err)
	}

	pa, err := g.APSP([]int32{4, 0}, with)
	if err != nil {
		t.Fatal(err)
	}
	defer pa.Close()
	for _, s := range []int32{4, 0} {
		got, _ := pa.Distances(s)
		want, _, _ := sssp(t, g, s, plain)
		if !reflect.DeepEqual(got, want) {
			t.Fatal(s, got, want)
		}
	}
	rows := 0
	if err := g.APSPStream([]int32{5, 11}, &Options{Index: ix, NoPaths: true}, func(b RowBlock) bool {
		rows += len(b.F32)
		return false
	}); err != nil || rows != 2 {
		t.Fatal(rows, err)
	}
}

func TestIndexIntWeights(t *testing.T) {
	n, s, d, w := gridArcs(5, 5)
	g, err := NewGraphI32(n, s, d, w, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	ix := buildIndex(t, g, nil)
	all := make([]int32, n)
	for i := range all {
		all[i] = int32(i)
	}
	got, want := tableRows(t, g, all, all, &Options{Index: ix}), tableRows(t, g, all, all, nil)
	if !reflect.DeepEqual(got, want) {
		t.Fatal(got, want)
	}
}

func TestIndexFiles(t *testing.T) {
	g := grid(t, 6, 7)
	ix := buildIndex(t, g, nil)
	dir := t.TempDir()
	path := filepath.Join(dir, "grid.gspi")
	if err := ix.Save(path); err != nil {
		t.Fatal(err)
	}
	loaded, err := LoadIndex(g, path)
	if err != nil {
		t.Fatal(err)
	}
	defer loaded.Close()
	s1, _ := ix.Size()
	s2, _ := loaded.Size()
	if s1 != s2 || loaded.BuildInfo() != nil {
		t.Fatal(s1, s2, loaded.BuildInfo())
	}
	if got, want := tableRows(t, g, []int32{0, 40}, []int32{41, 2}, &Options{Index: loaded}),
		tableRows(t, g, []int32{0, 40}, []int32{41, 2}, nil); !reflect.DeepEqual(got, want) {
		t.Fatal(got, want)
	}
	// An equal graph built again takes the same file.
	again := grid(t, 6, 7)
	ix3, err := LoadIndex(again, path)
	if err != nil {
		t.Fatal(err)
	}
	defer ix3.Close()
	got, _, _ := sssp(t, again, 0, &Options{Index: ix3})
	if want, _, _ := sssp(t, again, 0, nil); !reflect.DeepEqual(got, want) {
		t.Fatal(got, want)
	}
	// Another graph: refused when loaded and when a run is given the index.
	other := grid(t, 5, 5)
	_, err = LoadIndex(other, path)
	wantStatus(t, err, ErrInvalidArgument)
	_, err = other.SSSP(0, &Options{Index: ix})
	wantStatus(t, err, ErrInvalidArgument)

	// Cut short: ErrParse naming the file.
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := filepath.Join(dir, "cut.gspi")
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadIndex(g, cut)
	wantStatus(t, err, ErrParse)
	if !strings.Contains(err.Error(), "cut.gspi") || !strings.Contains(err.Error(), "GSP_ERR_PARSE") {
		t.Fatal(err)
	}
	_, err = LoadIndex(g, filepath.Join(dir, "missing.gspi"))
	wantStatus(t, err, ErrIO)
	wantStatus(t, ix.Save(filepath.Join(dir, "no", "such", "x.gspi")), ErrIO)
}

func TestIndexMisuseAndClose(t *testing.T) {
	g := grid(t, 6, 7)
	_, err := g.SSSP(0, &Options{Algorithm: IndexCH}) // GSP_CH without an index
	wantStatus(t, err, ErrInvalidArgument)
	neg, _ := NewGraphF32(2, []int32{0}, []int32{1}, []float32{-1}, 0)
	defer neg.Close()
	_, err = neg.BuildIndex(nil)
	wantStatus(t, err, ErrNegativeWeight)

	ix, err := g.BuildIndex(nil)
	if err != nil {
		t.Fatal(err)
	}
	// Shared by goroutines.
	want, _, _ := sssp(t, g, 7, nil)
	var wg sync.WaitGroup
	for i := 0; i < 4; i++ {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for k := 0; k < 10; k++ {
				p, err := g.SSSP(7, &Options{Index: ix})
				if err != nil {
					t.Error(err)
					return
				}
				if d, _ := p.Distances(7); !reflect.DeepEqual(d, want) {
					t.Error(d)
				}
				p.Close()
			}
		}()
	}
	wg.Wait()
	ix.Close()
	ix.Close() // idempotent
	if _, err := g.SSSP(0, &Options{Index: ix}); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	if err := ix.Save(filepath.Join(t.TempDir(), "x.gspi")); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	if _, err := ix.Size(); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
	// The build ignores Options.Index, closed or not.
	ix2 := buildIndex(t, g, &Options{Index: ix})
	if s, _ := ix2.Size(); s.NumVertices != g.NumVertices() {
		t.Fatal(s)
	}

	var mu sync.Mutex
	calls := 0
	buildIndex(t, g, &Options{Progress: func(f float64) bool {
		mu.Lock()
		calls++
		mu.Unlock()
		if f < 0 || f > 1 {
			t.Error(f)
		}
		return false
	}})
	if calls > 0 {
		_, err = g.BuildIndex(&Options{Progress: func(float64) bool { return true }})
		wantStatus(t, err, ErrCancelled)
	}
}
