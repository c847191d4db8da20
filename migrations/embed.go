// Package migrations holds the server's numbered SQL migrations, one folder per dialect
// (sqlite, postgres), embedded in the binary and run by pressly/goose at start-up. The two
// folders are kept in step: every migration exists in both.
package migrations

import "embed"

// FS holds sqlite/*.sql and postgres/*.sql.
//
//go:embed sqlite/*.sql postgres/*.sql
var FS embed.FS
