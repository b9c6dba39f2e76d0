/**
 * Server seeds at rest: encrypted so that a copy of the table alone reveals no seed.
 * Only the code that rolls dice or seals a game holds a vault that opens them.
 */
export interface SeedVault {
  seal(gameId: string, seed: Buffer): Promise<string>;
  open(gameId: string, sealed: string): Promise<Buffer>;
}
