import { signGameHead, type GameHead } from '../../domain/trust/gameHead';
import type { HeadStore } from '../ports/eventStore';
import type { Signer } from '../ports/signer';
import { ApplicationError } from './errors';

/** The signed heads of games: as stored with their last commit, or signed now for a commit stored before heads were. */
export class GameHeads {
  constructor(
    private readonly store: HeadStore,
    private readonly signer: Signer,
    private readonly now: () => string,
  ) {}

  /**
   * The signed head of the game's last commit, as stored with it. A commit stored before
   * heads were stored with commits gets one signed now, where this function may sign.
   */
  async headOf(gameId: string, seq: number, lastHash: string, sealed: boolean): Promise<GameHead> {
    const stored = await this.store.readHead(gameId, seq);
    if (stored) return stored;
    const { signer } = this;
    if (!signer.canSign) throw new ApplicationError(503, 'unavailable', 'This game has no signed head yet; it gets one with its next command.');
    return signGameHead({ gameId, seq, lastHash, sealed, at: this.now(), kid: signer.kid }, signer.sign);
  }

  /** The head stored with the game's last commit, read without its commits, where the store can. */
  readLastHead(gameId: string): Promise<GameHead | undefined> {
    return this.store.readLastHead?.(gameId) ?? Promise.resolve(undefined);
  }
}
