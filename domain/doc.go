// Package domain is the Coalition Wargame's vocabulary: squares and the grid, sides, ranks,
// armies and their troops, sites, posts, orders and their outcomes, and the per-turn random
// draws. It imports only the standard library; every rule engine and the server build on it.
package domain
