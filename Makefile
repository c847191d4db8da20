.PHONY: test run build

# The one command that runs every test (README).
test:
	go vet ./...
	go test -count=1 ./...

run:
	go run ./cmd/coalition serve

build:
	go build -o bin/coalition ./cmd/coalition
