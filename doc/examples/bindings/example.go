// libgsp from Go: build a small graph, run SSSP and APSP, print a path.
package main

import (
	"errors"
	"fmt"
	"log"

	"libgsp.org/gsp"
)

func main() {
	major, minor, patch := gsp.Version()
	fmt.Printf("libgsp %d.%d.%d\n", major, minor, patch)
	g, err := gsp.NewGraphF32(4, []int32{0, 1, 2, 0}, []int32{1, 2, 3, 3}, []float32{1, 2, 3, 10}, 0)
	if err != nil {
		log.Fatal(err)
	}
	defer g.Close()
	backend := gsp.BackendCPU
	if gsp.BackendAvailable(gsp.BackendCUDA) {
		backend = gsp.BackendCUDA
	}
	p, err := g.SSSP(0, &gsp.Options{Backend: backend})
	if err != nil {
		log.Fatal(err)
	}
	defer p.Close()
	info, _ := p.Info()
	d, _ := p.Distances(0)
	fmt.Printf("sssp on %s (%v): %v\n", info.DeviceName, info.Algorithm, d)
	path, _ := p.Path(0, 3)
	fmt.Println("path:", path)
	all, err := g.APSP(nil, &gsp.Options{Backend: gsp.BackendCPU, Algorithm: gsp.APSPFloydWarshall})
	if err != nil {
		log.Fatal(err)
	}
	defer all.Close()
	d13, _ := all.Distance(1, 3)
	fmt.Printf("apsp rows: %d, d(1,3) = %g\n", all.NumSources(), d13)
	if _, err := all.Path(3, 0); errors.Is(err, gsp.ErrNoPath) {
		fmt.Println("expected error:", err)
	}
}
