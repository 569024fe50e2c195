module libgsp.org/gsp

go 1.19
