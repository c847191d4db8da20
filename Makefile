.PHONY: test run build bench

# The one command that runs every test (README).
test:
	go vet ./...
	go test -count=1 ./...

# The server on the embedded SQLite default, with the demo campaign.
run:
	go run ./cmd/coalition serve --demo

build:
	go build -o bin/coalition ./cmd/coalition

# The server's benchmarks: posting orders, the map endpoint (200 and 304).
bench:
	go test -run '^$$' -bench . -benchmem ./api/
