package gsp

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"sync"
	"testing"
)

var (
	inf   = math.Inf(1)
	src   = []int32{0, 1, 2, 0}
	dst   = []int32{1, 2, 3, 3}
	w     = []float32{1, 2, 3, 10}
	dist0 = []float64{0, 1, 3, 6, inf}
)

const n = 5

func graph(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraphF32(n, src, dst, w, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func backends() []Backend {
	b := []Backend{BackendCPU}
	if BackendAvailable(BackendCUDA) {
		b = append(b, BackendCUDA)
	}
	return b
}

func notOffered(err error) bool { return errors.Is(err, ErrUnsupported) || errors.Is(err, ErrNoDevice) }

func wantStatus(t *testing.T, err error, s Status) {
	t.Helper()
	var e *Error
	if !errors.As(err, &e) || !errors.Is(err, s) {
		t.Fatalf("want %v, got %v", s, err)
	}
	if e.Message == "" {
		t.Fatalf("%v without a message", s)
	}
}

// TestABIDump writes this package's view of the ABI for scripts/check_bindings.sh.
func TestABIDump(t *testing.T) {
	out := os.Getenv("GSP_ABI_OUT")
	if out == "" {
		t.Skip("GSP_ABI_OUT not set")
	}
	if err := os.WriteFile(out, []byte(strings.Join(ABILines(), "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestVersionAndNames(t *testing.T) {
	if ma, mi, pa := Version(); ma != 0 || mi < 0 || pa < 0 {
		t.Fatal(ma, mi, pa)
	}
	if ErrNoPath.Name() != "GSP_ERR_NO_PATH" || BackendCPU.String() != "cpu" {
		t.Fatal(ErrNoPath.Name(), BackendCPU)
	}
	a, err := AlgorithmFromName(SSSPDijkstra.String())
	if err != nil || a != SSSPDijkstra {
		t.Fatal(a, err)
	}
	_, err = AlgorithmFromName("no-such-algorithm")
	wantStatus(t, err, ErrInvalidArgument)
	ReleaseCachedMemory() // callable at any time
	if !BackendAvailable(BackendCPU) || DeviceCount() < 0 {
		t.Fatal("cpu backend")
	}
}

// TestAlgorithmLists: every algorithm the library names (any id up to 255)
// is in SSSPAlgorithms, APSPAlgorithms or IndexAlgorithms, once, of its
// kind, and round-trips by name; the named constants have their kinds.
func TestAlgorithmLists(t *testing.T) {
	listed := map[Algorithm]int{}
	for _, a := range append(append(append([]Algorithm{AlgoAuto}, SSSPAlgorithms...), APSPAlgorithms...), IndexAlgorithms...) {
		listed[a]++
	}
	for i := 0; i < 256; i++ {
		a := Algorithm(i)
		name := a.String()
		if name == "unknown" {
			if listed[a] != 0 {
				t.Errorf("%d is listed but the library has no such algorithm", i)
			}
			continue
		}
		if listed[a] != 1 {
			t.Errorf("algorithm %d (%s) is listed %d times in AlgoAuto, SSSPAlgorithms, APSPAlgorithms, IndexAlgorithms", i, name, listed[a])
		}
		if b, err := AlgorithmFromName(name); err != nil || b != a {
			t.Errorf("AlgorithmFromName(%q) = %v, %v", name, b, err)
		}
	}
	for _, a := range SSSPAlgorithms {
		if a.Kind() != KindSSSP {
			t.Errorf("%v in SSSPAlgorithms has kind %d", a, a.Kind())
		}
	}
	if SSSPDijkstra.Kind() != KindSSSP || APSPJohnson.Kind() != KindAPSP || IndexCH.Kind() != KindIndex ||
		AlgoAuto.Kind() != KindAuto || Algorithm(1000).Kind() != KindUnknown {
		t.Error("kinds of the named constants")
	}
	if !SSSPBellmanFord.AcceptsNegativeWeights() || SSSPDijkstra.AcceptsNegativeWeights() {
		t.Error("negative weights")
	}
	if !SSSPDijkstra.HasEngine(BackendCPU) || SSSPHarish.HasEngine(BackendCPU) || SSSPDijkstra.HasEngine(BackendCUDA) {
		t.Error("engines")
	}
	if APSPDeltaStepping != 15 || APSPDeltaStepping.String() != "batched-delta-stepping" {
		t.Fatal(int(APSPDeltaStepping), APSPDeltaStepping)
	}
	if APSPSpmm != 16 || APSPSpmm.String() != "spmm" {
		t.Fatal(int(APSPSpmm), APSPSpmm)
	}
	if IndexCH != 17 || IndexCH.String() != "ch" {
		t.Fatal(int(IndexCH), IndexCH)
	}
}

func TestGraph(t *testing.T) {
	g := graph(t)
	if g.NumVertices() != n || g.NumEdges() != 4 || g.WeightType() != F32 {
		t.Fatal(g.NumVertices(), g.NumEdges(), g.WeightType())
	}
	c, err := g.CSR()
	if err != nil || !reflect.DeepEqual(c.Offsets, []int64{0, 2, 3, 4, 4, 4}) {
		t.Fatal(c, err)
	}
	g2, err := NewGraphCSRF32(n, c.Offsets, c.Targets, c.WeightsF32, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close()
	p, err := g2.SSSP(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist0) {
		t.Fatal(d)
	}
	gi, err := NewGraphI32(3, []int32{0, 1}, []int32{1, 2}, []int32{4, 5}, Undirected)
	if err != nil || gi.NumEdges() != 4 {
		t.Fatal(err)
	}
	defer gi.Close()
	pi, err := gi.SSSP(2, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer pi.Close()
	if d, err := pi.DistancesI32(2); err != nil || !reflect.DeepEqual(d, []int32{9, 5, 0}) {
		t.Fatal(d, err)
	}
	gu, _ := NewGraphI32(3, []int32{0}, []int32{1}, nil, 0)
	defer gu.Close()
	pu, _ := gu.SSSP(0, nil)
	defer pu.Close()
	if d, _ := pu.DistancesI32(0); !reflect.DeepEqual(d, []int32{0, 1, I32Inf}) {
		t.Fatal(d)
	}
}

func TestFiles(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "g.gr")
	if err := graph(t).Save(path, FormatAuto); err != nil {
		t.Fatal(err)
	}
	g, err := LoadGraph(path, FormatDIMACS, F32, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	p, _ := g.SSSP(0, nil)
	defer p.Close()
	if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist0) {
		t.Fatal(d)
	}
	os.WriteFile(filepath.Join(dir, "bad.gr"), []byte("p sp 2 1\nnot an arc\n"), 0o644)
	_, err = LoadGraph(filepath.Join(dir, "bad.gr"), FormatAuto, F32, 0)
	wantStatus(t, err, ErrParse)
	_, err = LoadGraph("/nonexistent/g.gr", FormatAuto, F32, 0)
	wantStatus(t, err, ErrIO)
	if !strings.Contains(err.Error(), "nonexistent") {
		t.Fatal(err)
	}
}

func TestBadInputAndClosed(t *testing.T) {
	_, err := NewGraphF32(2, []int32{0}, []int32{7}, []float32{1}, 0)
	wantStatus(t, err, ErrInvalidGraph)
	_, err = NewGraphF32(0, nil, nil, nil, 0)
	wantStatus(t, err, ErrInvalidArgument)
	_, err = NewGraphF32(3, []int32{0, 1}, []int32{1}, nil, 0)
	wantStatus(t, err, ErrInvalidArgument)
	g := graph(t)
	_, err = g.SSSP(99, nil)
	wantStatus(t, err, ErrInvalidArgument)
	p, err := g.SSSP(0, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, err = p.Path(0, 4)
	wantStatus(t, err, ErrNoPath)
	_, err = p.Distances(1)
	wantStatus(t, err, ErrInvalidArgument)

	g.Close()
	g.Close()
	if _, err := g.SSSP(0, nil); err != ErrClosed {
		t.Fatal(err)
	}
	if g.NumVertices() != -1 {
		t.Fatal("closed graph answered")
	}
	if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist0) {
		t.Fatal("result did not outlive its graph", d)
	}
	p.Close()
	p.Close()
	if _, err := p.Path(0, 3); err != ErrClosed {
		t.Fatal(err)
	}

	neg, _ := NewGraphF32(2, []int32{0}, []int32{1}, []float32{-1}, 0)
	defer neg.Close()
	_, err = neg.SSSP(0, &Options{Backend: BackendCPU, Algorithm: SSSPDijkstra})
	wantStatus(t, err, ErrNegativeWeight)
	cyc, _ := NewGraphF32(2, []int32{0, 1}, []int32{1, 0}, []float32{1, -2}, 0)
	defer cyc.Close()
	_, err = cyc.SSSP(0, &Options{Backend: BackendCPU, Algorithm: SSSPBellmanFord})
	wantStatus(t, err, ErrNegativeCycle)
}

func TestSSSPEveryAlgorithm(t *testing.T) {
	g := graph(t)
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, SSSPAlgorithms...) {
			p, err := g.SSSP(0, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			d, _ := p.Distances(0)
			path, _ := p.Path(0, 3)
			pred, _ := p.Predecessors(0)
			dd, _ := p.Distance(0, 3)
			info, _ := p.Info()
			if !reflect.DeepEqual(d, dist0) || !reflect.DeepEqual(path, []int32{0, 1, 2, 3}) || dd != 6 ||
				!reflect.DeepEqual(pred[:4], []int32{-1, 0, 1, 2}) || info.Backend != b ||
				(a != AlgoAuto && info.Algorithm != a) || info.NumSources != 1 || !info.HasPaths ||
				(info.NumDevices == 0) != (info.Backend == BackendCPU) { // CUDA devices used: 0 on the CPU
				t.Fatalf("%v %v: %v %v %v %v %+v", b, a, d, path, pred, dd, info)
			}
			p.Close()
		}
	}
	if ran < 2 {
		t.Fatal("ran", ran)
	}
}

// Options.NumDevices: 0 by default (AUTO chooses); a CPU run used no CUDA
// device; negative, or 2 with a stream, is refused.
func TestNumDevices(t *testing.T) {
	if (Options{}).NumDevices != 0 {
		t.Fatal("default NumDevices")
	}
	g := graph(t)
	p, err := g.SSSP(0, &Options{Backend: BackendCPU, NumDevices: 0})
	if err != nil {
		t.Fatal(err)
	}
	info, err := p.Info()
	p.Close()
	if err != nil || info.NumDevices != 0 {
		t.Fatalf("%v %+v", err, info)
	}
	_, err = g.SSSP(0, &Options{NumDevices: -1})
	wantStatus(t, err, ErrInvalidArgument)
	_, err = g.SSSP(0, &Options{NumDevices: 2, CUDAStream: 1}) // a stream belongs to one device
	wantStatus(t, err, ErrInvalidArgument)
}

func TestAPSP(t *testing.T) {
	g := graph(t)
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, APSPAlgorithms...) {
			p, err := g.APSP(nil, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			d1, _ := p.Distances(1)
			path, _ := p.Path(1, 3)
			if p.NumSources() != n || !reflect.DeepEqual(d1, []float64{inf, 0, 2, 5, inf}) || !reflect.DeepEqual(path, []int32{1, 2, 3}) {
				t.Fatalf("%v %v: %v %v", b, a, d1, path)
			}
			p.Close()
		}
	}
	if ran < 2 {
		t.Fatal("ran", ran)
	}
	p, err := g.APSP([]int32{2, 0}, &Options{NoPaths: true, NumThreads: 1, Algorithm: APSPFloydWarshall})
	if err != nil {
		t.Fatal(err)
	}
	defer p.Close()
	if !reflect.DeepEqual(p.Sources(), []int32{2, 0}) {
		t.Fatal(p.Sources())
	}
	_, err = p.Path(0, 3)
	wantStatus(t, err, ErrUnsupported)

	rows := map[int][]float32{}
	err = g.APSPStream([]int32{0, 1, 3}, nil, func(b RowBlock) bool {
		for i, r := range b.F32 {
			rows[b.FirstSourceIndex+i] = r
		}
		if len(b.Predecessors) != len(b.F32) {
			t.Error("predecessors")
		}
		return false
	})
	if err != nil || len(rows) != 3 || rows[2][3] != 0 || !math.IsInf(float64(rows[2][0]), 1) {
		t.Fatal(err, rows)
	}
	err = g.APSPStream(nil, nil, func(RowBlock) bool { return true })
	wantStatus(t, err, ErrCancelled)
	func() {
		defer func() {
			if recover() == nil {
				t.Fatal("a panic in the callback must reach the caller")
			}
		}()
		g.APSPStream(nil, nil, func(RowBlock) bool { panic("from the callback") })
	}()
}

// Options.AnyOrder (GSP_ROWS_ANY_ORDER): every row once, each block at its
// FirstSourceIndex (on the CPU still in order); other runs ignore it.
func TestAPSPStreamAnyOrder(t *testing.T) {
	if (Options{}).AnyOrder {
		t.Fatal("default AnyOrder")
	}
	g := graph(t)
	o := &Options{Backend: BackendCPU, AnyOrder: true}
	rows := map[int][]float32{}
	firsts := []int{}
	err := g.APSPStream([]int32{0, 1, 3}, o, func(b RowBlock) bool {
		firsts = append(firsts, b.FirstSourceIndex)
		for i, r := range b.F32 {
			if _, twice := rows[b.FirstSourceIndex+i]; twice {
				t.Errorf("row %d twice", b.FirstSourceIndex+i)
			}
			rows[b.FirstSourceIndex+i] = r
		}
		return false
	})
	if err != nil || len(rows) != 3 || rows[0][2] != 3 || rows[2][3] != 0 || !math.IsInf(float64(rows[2][0]), 1) {
		t.Fatal(err, rows)
	}
	for i := 1; i < len(firsts); i++ {
		if firsts[i] <= firsts[i-1] {
			t.Fatalf("blocks out of order on the CPU: %v", firsts)
		}
	}
	p, err := g.APSP([]int32{0}, o)
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	err = g.APSPStream(nil, &Options{AnyOrder: true}, func(RowBlock) bool { return true })
	wantStatus(t, err, ErrCancelled)
}

// doc/run-info.md: the CPU Floyd-Warshall times its set-up, k-steps,
// predecessor pass (with paths only) and copy into the result's rows; the
// stages are parts of Seconds.
func TestRunInfoStages(t *testing.T) {
	g := graph(t)
	for _, noPaths := range []bool{false, true} {
		p, err := g.APSP(nil, &Options{Backend: BackendCPU, Algorithm: APSPFloydWarshall, NoPaths: noPaths})
		if err != nil {
			t.Fatal(err)
		}
		i, err := p.Info()
		p.Close()
		if err != nil {
			t.Fatal(err)
		}
		stages := []float64{i.SetupSeconds, i.ComputeSeconds, i.CopySeconds, i.PathsSeconds}
		if stages[0] <= 0 || stages[1] <= 0 || stages[2] <= 0 || (stages[3] > 0) == noPaths {
			t.Fatalf("no paths %v: stages %v", noPaths, stages)
		}
		if sum := stages[0] + stages[1] + stages[2] + stages[3]; sum > i.Seconds*1.001+1e-6 {
			t.Fatalf("stages %v add up to more than %v s", stages, i.Seconds)
		}
	}
}

func TestTable(t *testing.T) {
	g := graph(t)
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, APSPAlgorithms...) {
			tb, err := g.Table([]int32{1, 0}, []int32{3, 0, 3}, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			rows, err := tb.Rows()
			want := [][]float64{{5, inf, 5}, {6, 0, 6}}
			if err != nil || !reflect.DeepEqual(rows, want) {
				t.Fatalf("%v %v: %v %v", b, a, rows, err)
			}
			p, err := tb.Path(1, 2) // sources[1] = 0 to targets[2] = 3
			if err != nil || !reflect.DeepEqual(p, []int32{0, 1, 2, 3}) {
				t.Fatalf("%v %v: %v %v", b, a, p, err)
			}
			_, err = tb.Path(0, 1)
			wantStatus(t, err, ErrNoPath)
			tb.Close()
		}
	}
	if ran < 2 {
		t.Fatal("ran", ran)
	}

	tb, err := g.Table([]int32{0, 2}, []int32{3, 4}, &Options{NumThreads: 1})
	if err != nil {
		t.Fatal(err)
	}
	if k, tt := tb.Size(); k != 2 || tt != 2 || tb.WeightType() != F32 {
		t.Fatal(k, tt, tb.WeightType())
	}
	if d, err := tb.Distances(); err != nil || !reflect.DeepEqual(d, []float64{6, inf, 3, inf}) {
		t.Fatal(d, err)
	}
	if d, err := tb.Distance(1, 0); err != nil || d != 3 {
		t.Fatal(d, err)
	}
	_, err = tb.Distance(2, 0)
	wantStatus(t, err, ErrInvalidArgument)
	info, err := tb.Info()
	if err != nil || info.NumSources != 2 || info.NumVertices != n || !info.HasPaths {
		t.Fatal(info, err)
	}
	g2, _ := NewGraphF32(n, src, dst, w, 0)
	tb2, err := g2.Table([]int32{0}, []int32{3}, nil)
	g2.Close() // the table outlives its graph
	if err != nil {
		t.Fatal(err)
	}
	if p, err := tb2.Path(0, 0); err != nil || !reflect.DeepEqual(p, []int32{0, 1, 2, 3}) {
		t.Fatal(p, err)
	}
	tb2.Close()
	tb.Close()
	tb.Close() // idempotent
	_, err = tb.Distances()
	if !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}

	// distances only: no paths, and straight into a slice
	tb, err = g.Table([]int32{0}, []int32{3}, &Options{NoPaths: true})
	if err != nil {
		t.Fatal(err)
	}
	_, err = tb.Path(0, 0)
	wantStatus(t, err, ErrUnsupported)
	tb.Close()
	d, info, err := g.TableDistances([]int32{1, 1}, []int32{0, 3, 2}, &Options{Backend: BackendCPU})
	if err != nil || !reflect.DeepEqual(d, []float64{inf, 5, 2, inf, 5, 2}) || info.NumSources != 2 || info.HasPaths {
		t.Fatal(d, info, err)
	}
	gi, _ := NewGraphI32(3, []int32{0, 1}, []int32{1, 2}, []int32{4, 5}, 0)
	defer gi.Close()
	d, _, err = gi.TableDistances([]int32{2, 0}, []int32{0, 2}, nil)
	if err != nil || !reflect.DeepEqual(d, []float64{inf, 0, 0, 9}) {
		t.Fatal(d, err)
	}
	if d, _, err := g.TableDistances(nil, []int32{1}, nil); err != nil || len(d) != 0 {
		t.Fatal(d, err)
	}

	// errors
	_, err = g.Table([]int32{0}, []int32{3, n}, nil)
	wantStatus(t, err, ErrInvalidArgument)
	_, _, err = g.TableDistances([]int32{-1}, []int32{3}, nil)
	wantStatus(t, err, ErrInvalidArgument)
	_, err = g.Table([]int32{0}, []int32{3}, &Options{Algorithm: SSSPDijkstra, Backend: BackendCPU})
	if !errors.Is(err, ErrInvalidArgument) && !errors.Is(err, ErrUnsupported) {
		t.Fatal(err)
	}
	cyc, _ := NewGraphF32(2, []int32{0, 1}, []int32{1, 0}, []float32{1, -2}, 0)
	defer cyc.Close()
	_, err = cyc.Table([]int32{0}, []int32{1}, nil)
	wantStatus(t, err, ErrNegativeCycle)
	gc, _ := NewGraphF32(n, src, dst, w, 0)
	gc.Close()
	if _, err := gc.Table([]int32{0}, []int32{1}, nil); !errors.Is(err, ErrClosed) {
		t.Fatal(err)
	}
}

func TestProgress(t *testing.T) {
	g := graph(t)
	var mu sync.Mutex
	calls := 0
	p, err := g.SSSP(0, &Options{Progress: func(f float64) bool {
		mu.Lock()
		calls++
		mu.Unlock()
		return f < 0 || f > 1
	}})
	if err != nil {
		t.Fatal(err)
	}
	p.Close()
	if calls > 0 {
		_, err = g.SSSP(0, &Options{Progress: func(float64) bool { return true }})
		wantStatus(t, err, ErrCancelled)
	}
}

func TestConcurrent(t *testing.T) {
	g := graph(t)
	p, _ := g.SSSP(0, nil)
	defer p.Close()
	var wg sync.WaitGroup
	for i := 0; i < 8; i++ {
		wg.Add(1)
		go func(i int32) {
			defer wg.Done()
			for k := 0; k < 20; k++ {
				if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist0) {
					t.Error(d)
				}
				_, err := g.SSSP(100+i, nil)
				var e *Error
				if !errors.As(err, &e) || e.Status != ErrInvalidArgument || e.Message == "" {
					t.Error(err)
				}
			}
		}(int32(i))
	}
	wg.Wait()
}

// ------------------------------------------------------------------ float64, limit, nearest

// float64 weights no float32 holds: x1 + x2 is 0.30000000000000004 in
// float64 only. Variables, not constants: Go adds constants exactly.
var (
	x1, x2, x4 = 0.1, 0.2, 0.4
	w64        = []float64{x1, x2, x4, 5}
)

func dist64() []float64 { return []float64{0, x1, x1 + x2, x1 + x2 + x4, inf} }

func graph64(t *testing.T) *Graph {
	t.Helper()
	g, err := NewGraphF64(n, src, dst, w64, 0)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func TestF64Graph(t *testing.T) {
	if F64 != 3 {
		t.Fatal("GSP_F64", F64)
	}
	g := graph64(t)
	if g.NumVertices() != n || g.NumEdges() != 4 || g.WeightType() != F64 {
		t.Fatal(g.NumVertices(), g.NumEdges(), g.WeightType())
	}
	c, err := g.CSR()
	if err != nil || c.WeightsF64 == nil || c.WeightsF32 != nil || len(c.WeightsF64) != 4 {
		t.Fatalf("%+v %v", c, err)
	}
	g2, err := NewGraphCSRF64(n, c.Offsets, c.Targets, c.WeightsF64, 0)
	if err != nil {
		t.Fatal(err)
	}
	defer g2.Close()
	for _, gg := range []*Graph{g, g2} {
		p, err := gg.SSSP(0, nil)
		if err != nil {
			t.Fatal(err)
		}
		d64, err := p.DistancesF64(0)
		if err != nil || !reflect.DeepEqual(d64, dist64()) {
			t.Fatal(d64, err)
		}
		if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist64()) {
			t.Fatal(d)
		}
		if d, err := p.Distance(0, 2); err != nil || d != x1+x2 {
			t.Fatal(d, err)
		}
		if d, _ := p.Distance(0, 4); !math.IsInf(d, 1) {
			t.Fatal(d)
		}
		if _, err := p.DistancesF32(0); !errors.Is(err, ErrInvalidArgument) {
			t.Fatal(err)
		}
		if info, _ := p.Info(); info.WeightType != F64 || p.WeightType() != F64 {
			t.Fatal(info.WeightType)
		}
		p.Close()
	}
	gu, err := NewGraphF64(3, []int32{0, 1}, []int32{1, 2}, nil, Undirected)
	if err != nil || gu.WeightType() != F64 {
		t.Fatal(err)
	}
	defer gu.Close()
	pu, _ := gu.SSSP(2, nil)
	defer pu.Close()
	if d, _ := pu.DistancesF64(2); !reflect.DeepEqual(d, []float64{2, 1, 0}) {
		t.Fatal(d)
	}
	_, err = NewGraphF64(3, []int32{0}, []int32{1}, []float64{1, 2}, 0)
	wantStatus(t, err, ErrInvalidArgument)

	path := filepath.Join(t.TempDir(), "g.txt")
	os.WriteFile(path, []byte("0 1 0.1\n1 2 0.2\n"), 0o644)
	gl, err := LoadGraph(path, FormatEdgeList, F64, 0)
	if err != nil || gl.WeightType() != F64 {
		t.Fatal(err)
	}
	defer gl.Close()
	pl, _ := gl.SSSP(0, nil)
	defer pl.Close()
	if d, _ := pl.Distance(0, 2); d != x1+x2 {
		t.Fatal(d)
	}
}

func TestF64EveryAlgorithm(t *testing.T) {
	g := graph64(t)
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, SSSPAlgorithms...) {
			p, err := g.SSSP(0, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			d, _ := p.DistancesF64(0)
			path, _ := p.Path(0, 3)
			if !reflect.DeepEqual(d, dist64()) || !reflect.DeepEqual(path, []int32{0, 1, 2, 3}) {
				t.Fatalf("%v %v: %v %v", b, a, d, path)
			}
			p.Close()
		}
		for _, a := range append([]Algorithm{AlgoAuto}, APSPAlgorithms...) {
			p, err := g.APSP(nil, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			d0, _ := p.DistancesF64(0)
			d1, _ := p.Distances(1)
			if !reflect.DeepEqual(d0, dist64()) || !reflect.DeepEqual(d1, []float64{inf, 0, 0.2, x2 + x4, inf}) {
				t.Fatalf("%v %v: %v %v", b, a, d0, d1)
			}
			p.Close()
		}
	}
	if ran < 3 {
		t.Fatal("ran", ran)
	}
}

func TestF64TableAndStream(t *testing.T) {
	g := graph64(t)
	tb, err := g.Table([]int32{1, 0}, []int32{3, 0}, nil)
	if err != nil {
		t.Fatal(err)
	}
	defer tb.Close()
	if d, err := tb.Distances(); err != nil || tb.WeightType() != F64 ||
		!reflect.DeepEqual(d, []float64{x2 + x4, inf, x1 + x2 + x4, 0}) {
		t.Fatal(d, err, tb.WeightType())
	}
	if d, _ := tb.Distance(1, 0); d != x1+x2+x4 {
		t.Fatal(d)
	}
	d, info, err := g.TableDistances([]int32{0}, []int32{2, 4}, nil)
	if err != nil || info.WeightType != F64 || !reflect.DeepEqual(d, []float64{x1 + x2, inf}) {
		t.Fatal(d, info, err)
	}
	var row []float64
	err = g.APSPStream([]int32{0}, nil, func(b RowBlock) bool {
		if b.F32 != nil || b.I32 != nil || len(b.F64) != 1 {
			t.Errorf("an F64 graph streams F64 rows: %+v", b)
			return true
		}
		row = b.F64[0]
		return false
	})
	if err != nil || !reflect.DeepEqual(row, dist64()) {
		t.Fatal(row, err)
	}
}

func TestLimit(t *testing.T) {
	g := graph(t)
	for _, o := range []*Options{nil, {}, {Limit: Limit(inf)}, {Limit: Limit(100)}} {
		p, err := g.SSSP(0, o)
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := p.Distances(0); !reflect.DeepEqual(d, dist0) {
			t.Fatal(o, d)
		}
		p.Close()
	}
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, SSSPAlgorithms...) {
			p, err := g.SSSP(0, &Options{Backend: b, Algorithm: a, Limit: Limit(3)})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			// 3 is within the limit (at most), 6 beyond it.
			d, _ := p.Distances(0)
			pred, _ := p.Predecessors(0)
			_, err = p.Path(0, 3)
			if !reflect.DeepEqual(d, []float64{0, 1, 3, inf, inf}) || pred[3] != -1 || !errors.Is(err, ErrNoPath) {
				t.Fatalf("%v %v: %v %v %v", b, a, d, pred, err)
			}
			p.Close()
		}
	}
	if ran < 2 {
		t.Fatal("ran", ran)
	}
	p, err := g.APSP([]int32{1, 0}, &Options{Limit: Limit(2)})
	if err != nil {
		t.Fatal(err)
	}
	d1, _ := p.Distances(1)
	d0, _ := p.Distances(0)
	p.Close()
	if !reflect.DeepEqual(d1, []float64{inf, 0, 2, inf, inf}) || !reflect.DeepEqual(d0, []float64{0, 1, inf, inf, inf}) {
		t.Fatal(d1, d0)
	}
	tb, err := g.Table([]int32{0, 2}, []int32{2, 3}, &Options{Limit: Limit(3)})
	if err != nil {
		t.Fatal(err)
	}
	if d, _ := tb.Distances(); !reflect.DeepEqual(d, []float64{3, inf, 0, 3}) {
		t.Fatal(d)
	}
	tb.Close()
	if d, _, err := g.TableDistances([]int32{0}, []int32{1, 3}, &Options{Limit: Limit(0.5)}); err != nil ||
		!reflect.DeepEqual(d, []float64{inf, inf}) {
		t.Fatal(d, err)
	}
	var row []float32
	err = g.APSPStream([]int32{0}, &Options{Limit: Limit(1)}, func(b RowBlock) bool { row = b.F32[0]; return false })
	if err != nil ||
		!reflect.DeepEqual(row, []float32{0, 1, float32(inf), float32(inf), float32(inf)}) {
		t.Fatal(row, err)
	}
	gi, _ := NewGraphI32(3, []int32{0, 1}, []int32{1, 2}, []int32{4, 5}, 0)
	defer gi.Close()
	pi, _ := gi.SSSP(0, &Options{Limit: Limit(4)})
	defer pi.Close()
	if d, _ := pi.DistancesI32(0); !reflect.DeepEqual(d, []int32{0, 4, I32Inf}) {
		t.Fatal(d)
	}
	g64 := graph64(t)
	for _, c := range []struct {
		limit float64
		want  []float64
	}{{0.3, []float64{0, 0.1, inf, inf, inf}}, {x1 + x2, []float64{0, 0.1, x1 + x2, inf, inf}}} {
		p, err := g64.SSSP(0, &Options{Limit: Limit(c.limit)})
		if err != nil {
			t.Fatal(err)
		}
		if d, _ := p.DistancesF64(0); !reflect.DeepEqual(d, c.want) {
			t.Fatal(c.limit, d)
		}
		p.Close()
	}
	// Errors: NaN, negative; a limit with negative weights.
	for _, bad := range []float64{math.NaN(), -1} {
		_, err := g.SSSP(0, &Options{Limit: Limit(bad)})
		wantStatus(t, err, ErrInvalidArgument)
		_, err = g.Nearest([]int32{0}, &Options{Limit: Limit(bad)})
		wantStatus(t, err, ErrInvalidArgument)
	}
	neg, _ := NewGraphF32(2, []int32{0}, []int32{1}, []float32{-1}, 0)
	defer neg.Close()
	o := Options{Backend: BackendCPU, Algorithm: SSSPBellmanFord}
	if p, err := neg.SSSP(0, &o); err != nil {
		t.Fatal(err)
	} else {
		p.Close()
	}
	o.Limit = Limit(5)
	_, err = neg.SSSP(0, &o)
	wantStatus(t, err, ErrNegativeWeight)
}

func checkNearest(t *testing.T, r *NearestResult, what string) {
	t.Helper()
	// Sources 2 and 0 of graph(): 3 is nearer to 2 (3) than to 0 (6); 4 is reached by none.
	if !reflect.DeepEqual(r.Distances, []float64{0, 1, 0, 3, inf}) || !reflect.DeepEqual(r.Nearest, []int32{0, 0, 2, 2, -1}) {
		t.Fatalf("%s: %v %v", what, r.Distances, r.Nearest)
	}
}

func TestNearest(t *testing.T) {
	g := graph(t)
	ran := 0
	for _, b := range backends() {
		for _, a := range append([]Algorithm{AlgoAuto}, SSSPAlgorithms...) {
			r, err := g.Nearest([]int32{2, 0}, &Options{Backend: b, Algorithm: a})
			if err != nil {
				if !notOffered(err) {
					t.Fatalf("%v %v: %v", b, a, err)
				}
				continue
			}
			ran++
			what := b.String() + " " + a.String()
			checkNearest(t, r, what)
			if r.WeightType != F32 || !reflect.DeepEqual(r.Predecessors, []int32{-1, 0, -1, 2, -1}) {
				t.Fatalf("%s: %v %v", what, r.WeightType, r.Predecessors)
			}
			if !reflect.DeepEqual(r.Path(3), []int32{2, 3}) || !reflect.DeepEqual(r.Path(1), []int32{0, 1}) ||
				!reflect.DeepEqual(r.Path(0), []int32{0}) || r.Path(4) != nil || r.Path(n) != nil || r.Path(-1) != nil {
				t.Fatalf("%s: paths %v %v %v", what, r.Path(3), r.Path(1), r.Path(4))
			}
		}
	}
	if ran < 2 {
		t.Fatal("ran", ran)
	}
	// Repeats allowed; NoPaths gives no predecessors.
	r, err := g.Nearest([]int32{0, 2, 2}, &Options{NoPaths: true})
	if err != nil {
		t.Fatal(err)
	}
	checkNearest(t, r, "NoPaths")
	if r.Predecessors != nil || r.Path(3) != nil {
		t.Fatal(r.Predecessors)
	}
	// The limit applies.
	r, err = g.Nearest([]int32{2, 0}, &Options{Limit: Limit(1)})
	if err != nil || !reflect.DeepEqual(r.Distances, []float64{0, 1, 0, inf, inf}) ||
		!reflect.DeepEqual(r.Nearest, []int32{0, 0, 2, -1, -1}) || !reflect.DeepEqual(r.Predecessors, []int32{-1, 0, -1, -1, -1}) {
		t.Fatalf("%+v %v", r, err)
	}
	// Every weight type.
	gi, _ := NewGraphI32(4, []int32{0, 1, 3}, []int32{1, 2, 2}, []int32{4, 5, 7}, 0)
	defer gi.Close()
	r, err = gi.Nearest([]int32{0, 3}, nil)
	if err != nil || r.WeightType != I32 || !reflect.DeepEqual(r.Distances, []float64{0, 4, 7, 0}) ||
		!reflect.DeepEqual(r.Nearest, []int32{0, 0, 3, 3}) {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = gi.Nearest([]int32{1}, nil)
	if err != nil || !reflect.DeepEqual(r.Distances, []float64{inf, 0, 5, inf}) ||
		!reflect.DeepEqual(r.Nearest, []int32{-1, 1, 1, -1}) {
		t.Fatalf("%+v %v", r, err)
	}
	r, err = graph64(t).Nearest([]int32{1, 3}, nil)
	if err != nil || r.WeightType != F64 || !reflect.DeepEqual(r.Distances, []float64{inf, 0, 0.2, 0, inf}) ||
		!reflect.DeepEqual(r.Nearest, []int32{-1, 1, 1, 3, -1}) {
		t.Fatalf("%+v %v", r, err)
	}
	// Errors.
	for _, bad := range [][]int32{nil, {}, {n}, {-1}, {0, 7}} {
		_, err := g.Nearest(bad, nil)
		wantStatus(t, err, ErrInvalidArgument)
	}
	_, err = g.Nearest([]int32{0}, &Options{Algorithm: APSPFloydWarshall})
	wantStatus(t, err, ErrInvalidArgument)
	neg, _ := NewGraphF32(2, []int32{0}, []int32{1}, []float32{-1}, 0)
	defer neg.Close()
	_, err = neg.Nearest([]int32{0}, &Options{Backend: BackendCPU, Algorithm: SSSPDijkstra})
	wantStatus(t, err, ErrNegativeWeight)
	cyc, _ := NewGraphF32(2, []int32{0, 1}, []int32{1, 0}, []float32{1, -2}, 0)
	defer cyc.Close()
	_, err = cyc.Nearest([]int32{0}, &Options{Backend: BackendCPU, Algorithm: SSSPBellmanFord})
	wantStatus(t, err, ErrNegativeCycle)
	gc, _ := NewGraphF32(n, src, dst, w, 0)
	gc.Close()
	if _, err := gc.Nearest([]int32{0}, nil); err != ErrClosed {
		t.Fatal(err)
	}
}
