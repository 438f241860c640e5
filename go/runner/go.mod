module cryptobench/runner

go 1.19

require golang.org/x/crypto v0.4.0

require golang.org/x/sys v0.3.0 // indirect
