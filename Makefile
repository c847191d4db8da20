.PHONY: test test-postgres run build bench loadtest fuzz fuzz-deck loadtest-locks crashtest

# The one command that runs every test (README): vet, every fuzz target for 10 s, then every
# test, whose summary stays the last line.
test:
	@command -v chromium >/dev/null 2>&1 || command -v chromium-browser >/dev/null 2>&1 || [ -n "$$CHROMIUM" ] || \
		echo "make test: chromium is not installed, so the browser tests will be SKIPPED (apt-get install -y chromium)" >&2
	@[ -f web/testdata/axe/node_modules/axe-core/axe.min.js ] || \
		echo "make test: axe-core is not installed, so the accessibility checks will be SKIPPED (npm ci --prefix web/testdata/axe)" >&2
	go vet ./...
	FUZZTIME=10s .ci/fuzz
	go test -count=1 -timeout 40m ./...

# The store, the campaign workflow and the end-to-end tests on PostgreSQL: COALITION_TEST_POSTGRES
# is a postgres:// URL of a role that may create databases (.ci/run starts a local one).
test-postgres:
	@test -n "$$COALITION_TEST_POSTGRES" || { echo "set COALITION_TEST_POSTGRES to a postgres:// URL" >&2; exit 2; }
	go test -count=1 -timeout 40m ./store ./campaign ./cmd/coalition

# The server on the embedded SQLite default, with the demo campaign.
run:
	go run ./cmd/coalition serve --demo

build:
	go build -o bin/coalition ./cmd/coalition

# The benchmarks: a whole lock (turn.Run: a full campaign, 600 armies), its parts (parsing,
# checks, moves, battles, the map's copy, the report's sort), troop lists, and the server's
# hot paths (posting orders, one at a time and from 64 clients with or without an
# Idempotency-Key; the map endpoint: 200, 304, 304 for a logged-in player), with the CPU time
# of each (cpu-ns/op), and a sweep of the scheduler (20 locks and their backup). Compare with
# the old code run alternately: benchstat old.txt new.txt.
bench:
	go test -run '^$$' -bench . -benchmem ./turn/ ./movement/ ./battle/ ./domain/ ./roster/ ./api/ ./cards/ ./deck/ ./format/ ./internal/locktest/

# The load harness (issue 16, internal/loadtest): the server on a temporary database and a
# minimal echo + gorm + SQLite baseline, each scenario run on both alternately, every figure a
# ratio with p50, p99 and the load average; then a rush of RUSH posts with retries under the
# same Idempotency-Key. LOADTEST_FLAGS are passed on (-d 4s -rounds 3 -only posts,map304,…).
RUSH ?= 10000
loadtest:
	go run ./cmd/loadtest -rush $(RUSH) $(LOADTEST_FLAGS)

# Every fuzz target for FUZZTIME each (a minute by default: about a quarter of an hour).
FUZZTIME ?= 60s
fuzz:
	FUZZTIME=$(FUZZTIME) FUZZKEEP=1 .ci/fuzz

# Fuzzing the deck-list parser, a minute (FUZZTIME to change it).
fuzz-deck:
	go test -run '^$$' -fuzz FuzzParse -fuzztime $(FUZZTIME) ./deck/

# The lock sweep at scale (issue 16): LOCKTEST campaigns (1,000) due in the same minute on one
# SQLite file, locked by one sweep with its backup; fails past LOCKTEST_GOAL (60 s).
LOCKTEST ?= 1000
LOCKTEST_GOAL ?= 60s
loadtest-locks:
	COALITION_LOCKTEST=$(LOCKTEST) COALITION_LOCKTEST_GOAL=$(LOCKTEST_GOAL) go test -count=1 -timeout 60m -run '^TestLockSweep$$' -v ./internal/locktest

# The nightly crash test: the real server killed KILLS times (100) during its backups and locks
# under posts, then every backup, the database and every acknowledged post checked.
KILLS ?= 100
crashtest:
	COALITION_CRASHTEST_KILLS=$(KILLS) go test -count=1 -timeout 60m -run '^TestCrashDuringBackupsAndLocks$$' -v ./cmd/coalition
