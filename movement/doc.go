// Package movement is the movement judge's rule engine: it reads posts in the rulebook's
// format (3.2.2.5, 3.2.3.1, 3.2.4.2, 3.2.5.1), checks each order against the map as posted
// (M1–M5, M13, M14, T1, T2, C2) and resolves every move of a turn at once (M6–M15).
// It imports only domain and the standard library.
package movement
