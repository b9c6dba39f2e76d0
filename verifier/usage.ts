export const USAGE = `Arbiter verifier: checks a game exported from an Arbiter server, with no network.

usage:
  arbiter verify FILE|URL [--trust FINGERPRINT]... [--trust-file FILE] [--allow-unsealed] [--json] [--token TOKEN] [--max-bytes N]
  arbiter trust add FINGERPRINT|URL|FILE
  arbiter trust list
  arbiter export URL --token TOKEN [-o FILE] [--max-bytes N]
  arbiter stats FILE|URL [--json] [--token TOKEN]   a sealed game's dice statistics (arbiter stats --help)
  arbiter --help
The standalone file runs the same way: node arbiter-verify.mjs FILE --trust FINGERPRINT

verify checks every hash, link and signature; once the game is sealed, the seed and
every die; the rules, by replaying every command; and the server's signed head, which
shows the file is complete. Signatures count only from keys you trust: a fingerprint
given with --trust, listed in --trust-file (a JSON array of fingerprints, or a /keys
document saved earlier), or added with "arbiter trust add", and keys those hand over
to through the export's key log. Keys inside the file are never trusted by themselves.
A URL (of a game or its export) is fetched first, with --token or $ARBITER_TOKEN.
Input over 50 MB (a compressed answer counted unpacked) is refused; --max-bytes N (or
$ARBITER_MAX_BYTES), in bytes or with K, M or G (200M), changes that.

A tournament's export (GET /tournaments/{id}/export, one game per line) is verified
game by game, with a progress bar on a terminal, then a table with a line per game;
its exit status is the worst of its games'. With --json: one report per game, a line each.

trust add stores a fingerprint in your trust file ($ARBITER_TRUST_FILE, or
~/.config/arbiter/trusted-keys.json); given a server URL, it fetches /keys once (or
reads a /keys answer saved in FILE), shows every fingerprint, and stores them all (the
current key and the retired ones) with the key log: what a retired key signed after
its retirement then fails. Compare the current one with the fingerprint your organizer
publishes.

export downloads GET /games/{id}/export to FILE, or to stdout.

exit status:
  0  every check passed, everything is signed by keys you trust, and the game is sealed
     (or --allow-unsealed)
  1  a check failed, or something is signed by a key your trusted fingerprints do not reach
  2  the input or the arguments cannot be used
  3  consistent, but no trusted fingerprint is configured, or the game is not sealed yet
--json prints one object: { ok, exitCode, gameId, ruleset, commits, dice, rulesReplayed,
sealed, signers: [{ fingerprint, trusted }], head: { seq, at }, failures: [{ seq, check, reason }] }`;
