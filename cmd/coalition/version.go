// coalition version: the program's version as Go's build information records it — the module's
// version, the commit and its time, whether the tree had changes, the Go that built it.

package main

import (
	"fmt"
	"io"
	"runtime/debug"
)

// versionCommand prints the build information.
func versionCommand(stdout io.Writer) error {
	info, ok := debug.ReadBuildInfo()
	if !ok {
		return fmt.Errorf("this program carries no build information")
	}
	fmt.Fprintln(stdout, versionLine(info))
	return nil
}

// versionLine is one line: "coalition (devel) commit 1a2b3c4d5e6f (2026-11-23T10:00:00Z, modified) go1.26.8".
func versionLine(info *debug.BuildInfo) string {
	settings := map[string]string{}
	for _, s := range info.Settings {
		settings[s.Key] = s.Value
	}
	out := "coalition " + info.Main.Version
	if rev := settings["vcs.revision"]; rev != "" {
		out += " commit " + rev[:min(12, len(rev))]
		extra := settings["vcs.time"]
		if settings["vcs.modified"] == "true" {
			extra += ", modified"
		}
		if extra != "" {
			out += " (" + extra + ")"
		}
	}
	return out + " " + info.GoVersion
}
