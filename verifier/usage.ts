/** The usage text, its command lines written as `command` (commandName.ts) runs the CLI. */
export function usage(command: string): string {
  return `Arbiter verifier: checks a game exported from an Arbiter server, with no network.

usage:
  ${command} verify FILE|LINK|URL [--trust FINGERPRINT]... [--trust-file FILE] [--trust-beacon CHAINHASH[:PUBLICKEY]]... [--allow-unsealed] [--json] [--token TOKEN] [--max-bytes N]
  ${command} trust add FINGERPRINT|URL|FILE
  ${command} trust list
  ${command} export LINK|URL [--token TOKEN] [-o FILE] [--max-bytes N]
  ${command} stats FILE|LINK|URL [--trust FINGERPRINT]... [--json] [--token TOKEN]   a sealed game's dice statistics (${command} stats --help)
  ${command} --help

verify checks every hash, link and signature; once the game is sealed, the seed and
every die; the rules, by replaying every command; and the server's signed head, which
shows the file is complete. Signatures count only from keys you trust: a fingerprint
given with --trust, listed in --trust-file (a JSON array of fingerprints, or a /keys
document saved earlier), or added with "${command} trust add", and keys those hand over
to through the export's key log. Keys inside the file are never trusted by themselves.
A game's link as the web app shows it (https://host/#/games/{id}?token=…, a player's,
the organizer's or a spectator's) is fetched first, its export read with the link's token;
so is an API URL of a game or its export, with --token or $ARBITER_TOKEN. The token goes
only in the Authorization header, and is never printed. Put a link in quotes ('…'): the
shell reads its # ? and &.
Input over 50 MB (a compressed answer counted unpacked) is refused; --max-bytes N (or
$ARBITER_MAX_BYTES), in bytes or with K, M or G (200M), changes that.

A beacon game (docs/beacon.md) is checked against drand's public beacons: each roll named a
round still in the future when it was accepted, each round's BLS signature verifies, and the
dice come from the seed and that round. quicknet is known; another chain (a private server's)
fails until you pin its hash with --trust-beacon CHAINHASH (64 hex digits, repeatable).

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
sealed, signers: [{ fingerprint, trusted }], head: { seq, at }, failures: [{ seq, check, reason }],
beacons: { checked, chain } (beacon games only) }`;
}
